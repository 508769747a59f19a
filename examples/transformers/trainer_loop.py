"""trainer_loop.py: train_step.py's --loop trainer, the steps run by transformers.Trainer.

The model is train_step.py's (built before the Trainer, inside the Report);
the data are random token ids of shape [seq_len] with labels = the ids,
--batch x --steps samples, so max_steps = --steps is one pass. The
Trainer's arguments: per_device_train_batch_size = --batch, max_steps =
--steps, learning_rate 1e-4, weight_decay 0.01, optim as OPTIMS says, no
evaluation, no saving, no logging (report_to [], save_strategy and
logging_strategy "no", output_dir a temporary folder, no progress bar),
dataloader_num_workers 0, use_cpu on CPU, activation checkpointing for
+ckpt (the Trainer enables it, with --reentrant's kwargs), bf16 autocast for
amp-bf16. Everything else is the Trainer's default; train_step.py's
docstring lists what that changes against the plain loop.

Phases: forward is Trainer.compute_loss, backward the Trainer's
accelerator.backward, optimizer on_pre_optimizer_step .. on_optimizer_step
(examples/trainer/train_trainer.py's callback, which also times each step).
Gradient clipping, the learning-rate schedule and model.zero_grad() fall
between the marks and count only in the whole peaks.
"""
import functools
import tempfile

from transformers import Trainer, TrainingArguments

from trainer.train_trainer import PeakfitCallback, RandomTokens

# train_step.py's --optimizer: the Trainer's optim and optim_args.
OPTIMS = {
    "adamw": ("adamw_torch", None),  # AdamW with foreach left to torch: the for-loop form on CPU
    "adamw-fused": ("adamw_torch_fused", None),
    "sgd": ("sgd", "momentum=0.9"),
}


class PhasedTrainer(Trainer):
    """The Trainer, its forward and backward marked as the Report's phases."""

    def __init__(self, report, **kwargs):
        super().__init__(**kwargs)
        self.report = report
        self.accelerator.backward = self._phased(self.accelerator.backward, "backward")

    def _phased(self, function, phase):
        @functools.wraps(function)
        def marked(*args, **kwargs):
            with self.report.phase(phase):
                return function(*args, **kwargs)
        return marked

    def compute_loss(self, *args, **kwargs):
        with self.report.phase("forward"):
            return super().compute_loss(*args, **kwargs)


def arguments(a, output_dir):
    optim, optim_args = OPTIMS[a.optimizer]
    ckpt = a.technique.endswith("+ckpt")
    return TrainingArguments(
        output_dir=output_dir, per_device_train_batch_size=a.batch, max_steps=a.steps, learning_rate=1e-4,
        weight_decay=0.01, optim=optim, optim_args=optim_args, seed=a.seed, use_cpu=a.device == "cpu",
        report_to=[], save_strategy="no", logging_strategy="no", eval_strategy="no", disable_tqdm=True,
        dataloader_num_workers=0, dataloader_pin_memory=False, bf16=a.technique == "amp-bf16",
        activation_checkpointing=ckpt,
        activation_checkpointing_kwargs={"use_reentrant": True} if ckpt and a.reentrant else None)


def run(a, model, report, vocab):
    """Trains model with the Trainer; returns its optimizer (its state made by the first step)."""
    data = RandomTokens(a.batch * a.steps, a.seq_len, vocab, a.seed)
    with tempfile.TemporaryDirectory(prefix="train_step-trainer-") as out:
        trainer = PhasedTrainer(report, model=model, args=arguments(a, out), train_dataset=data,
                                callbacks=[PeakfitCallback(report)])
        result = trainer.train()
    report.loss(result.training_loss)
    return trainer.optimizer


def check(a, error):
    """The options the Trainer's loop cannot take: error(message) for the first one."""
    if a.technique == "inference":
        error("--loop trainer trains: --technique inference runs the plain loop only")
    if a.optimizer not in OPTIMS or a.foreach:
        error(f"--loop trainer takes --optimizer {', '.join(OPTIMS)}")
    if a.warm:
        error("--loop trainer takes --warm 0: the Trainer makes the optimizer's state at its first step")
