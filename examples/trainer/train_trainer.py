#!/usr/bin/env python3
"""train_trainer.py: transformers' Trainer, as users run it, measured for peakfit.

The loop is Trainer's own (its DataLoader, its AdamW, its backward through
accelerate); this script only builds a causal LM from a config.json with
random weights, a dataset of random token ids, and a TrainerCallback that
reports to peakfit through examples/peakfit_report.py:

    [trainer]
    command = python3 examples/trainer/train_trainer.py --config examples/moe/qwen2-moe-tiny --batch {batch} --seq-len {seq_len}

(sweeps/trainer-cpu.sweep). The Report starts before the model is built (the
baseline), each optimizer step is timed (step_s) and marked as the
optimizer phase (on_pre_optimizer_step .. on_optimizer_step); forward and
backward happen inside Trainer.training_step and are not marked apart. The
peak is the whole of Trainer.train(): build, AdamW's state made by its
first step, --steps steps. --batch is per_device_train_batch_size; no
accumulation, no evaluation, no checkpoint, no logging integrations.
"""
import argparse
import contextlib
import os
import sys
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402
import transformers  # noqa: E402
from transformers import Trainer, TrainerCallback, TrainingArguments  # noqa: E402

from peakfit_report import Report  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="a config.json of a causal LM, or the folder holding one")
    p.add_argument("--batch", type=int, required=True, help="per_device_train_batch_size")
    p.add_argument("--seq-len", type=int, required=True)
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--threads", type=int, default=0, help="intra-op threads (0: PyTorch's default)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    if a.batch <= 0 or a.seq_len <= 0 or a.steps <= 0:
        p.error("--batch, --seq-len and --steps must be positive")
    if not os.path.exists(a.config):
        p.error(f"--config {a.config}: no such file or folder")
    return a


class RandomTokens(torch.utils.data.Dataset):
    """n samples of random token ids, labels = the ids (the causal-LM loss)."""

    def __init__(self, n, seq_len, vocab, seed):
        self.ids = torch.randint(vocab, (n, seq_len), generator=torch.Generator().manual_seed(seed))

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.ids[i]}


class PeakfitCallback(TrainerCallback):
    """Times each step and marks the optimizer phase for the Report."""

    def __init__(self, report):
        self.report = report
        self.steps = contextlib.ExitStack()
        self.phase = contextlib.ExitStack()

    def on_step_begin(self, args, state, control, **kwargs):
        self.steps.enter_context(self.report.step())

    def on_pre_optimizer_step(self, args, state, control, **kwargs):
        self.phase.enter_context(self.report.phase("optimizer"))

    def on_optimizer_step(self, args, state, control, **kwargs):
        self.phase.close()

    def on_step_end(self, args, state, control, **kwargs):
        self.steps.close()


def arguments(a, output_dir):
    return TrainingArguments(
        output_dir=output_dir, per_device_train_batch_size=a.batch, max_steps=a.steps, learning_rate=1e-4,
        use_cpu=True, seed=a.seed, report_to=[], save_strategy="no", logging_strategy="no", eval_strategy="no",
        disable_tqdm=True, dataloader_pin_memory=False, dataloader_num_workers=0)


def main(argv):
    a = parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    cfg = transformers.AutoConfig.from_pretrained(a.config)
    cfg.use_cache = False
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING
    MODEL_FOR_CAUSAL_LM_MAPPING[type(cfg)]  # the model's module imported before the baseline
    data = RandomTokens(a.batch * a.steps, a.seq_len, cfg.vocab_size, a.seed)
    warm = torch.ones(64, 64)
    (warm @ warm).sum().item()  # the thread pools exist before the baseline
    del warm
    with tempfile.TemporaryDirectory(prefix="train_trainer-") as out, Report() as report:
        t0 = time.perf_counter()
        torch.manual_seed(a.seed)
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
        trainer = Trainer(model=model, args=arguments(a, out), train_dataset=data,
                          callbacks=[PeakfitCallback(report)])
        report.build_time(time.perf_counter() - t0)
        report.model(model)
        result = trainer.train()
        report.loss(result.training_loss)
        report.model(model, trainer.optimizer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
