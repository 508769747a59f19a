#!/usr/bin/env python3
"""train_step.py: one training point of a Hugging Face causal LM, measured the way peakfit measures.

The published methodology ("run your own training steps in a fresh process,
read the peak, double the batch") as a script, usable by hand or as a peakfit
`command` job:

    command = python3 examples/transformers/train_step.py --config {model} --batch {batch}
              --seq-len {seq_len} --technique {technique} --attention {attention}

It reports through examples/peakfit_report.py on the descriptor peakfit
passes in PEAKFIT_REPORT_FD (nothing without it). No download: the model is
built from a config.json (or the folder holding one) with random fp32
weights (--build below); HF_HUB_OFFLINE is set.

The step protocol is peakfit's built-in worker's (worker/worker.c, shim/model.cpp):
  - imports (the model's own module and peft too, which transformers would
    import on first use, after the baseline), then one small matmul (the
    thread pools; on a GPU one there too: its context and cuBLAS workspace),
    then the baseline;
  - the model built in fp32 with --seed, use_cache off (peakfit keeps no KV
    cache), random weights through from_pretrained's path (--build pretrained,
    the default: a folder with the config and a checkpoint holding no tensors,
    so every weight is initialised as a missing one, and a tied lm_head is
    never a tensor of its own, as in peakfit and in any fine-tuning script) or
    from_config's (--build config: it holds an untied lm_head weight until
    tie_weights(), one [vocab, hidden] fp32 tensor more at the build); bf16: cast with .to(torch.bfloat16) after building; lora: peft
    LoRA r --lora-rank (alpha 2r, dropout 0) on --lora-targets; +ckpt:
    model.gradient_checkpointing_enable() with transformers' default
    (non-reentrant torch.utils.checkpoint per decoder layer);
  - --optimizer (peakfit's optimizer setting): adamw (default) AdamW(lr=1e-4)
    with PyTorch's defaults (betas 0.9, 0.999, eps 1e-8, weight_decay 0.01)
    over the trainable parameters, foreach=False: one parameter at a time, as
    libtorch's C++ AdamW runs and as PyTorch itself runs on CPU;
    adamw-foreach foreach=True (its multi-tensor form, CUDA's default; also
    --foreach); adamw-fused fused=True; auto AdamW as torch.optim picks for
    the device; sgd SGD(momentum=0.9);
  - --zero-grad none (default): zero_grad(set_to_none=True); zeros:
    set_to_none=False, the gradients kept through the next forward;
  - --warm 1 (default): the optimizer's state is made before the first step,
    zero-filled with step 0, exactly as its first step would make it, so
    --steps 1 (default) is a steady-state step; --warm 0 --steps 2 is the
    plain loop;
  - each step: random token ids [batch, seq_len]; forward and loss
    (labels = the ids: transformers' causal-LM loss) under bf16 autocast
    for amp-bf16; backward; optimizer.step(); zero_grad;
  - inference: eval mode, torch.no_grad(), the forward only.
Each part is a phase (forward, backward, optimizer) for the per-phase peaks.

--loop trainer runs the steps with transformers.Trainer instead
(examples/transformers/trainer_loop.py; --warm 0, a training technique, and
--optimizer adamw, adamw-fused or sgd), as a Trainer user's script does: the
Trainer and its callbacks imported before the baseline, the same model built
the same way. What differs from the plain loop, as the installed Trainer
(transformers 5.x) runs it:
  - the data: a Dataset of --batch x --steps samples of random ids made
    before the Trainer, read through its DataLoader (RandomSampler,
    default_data_collator, no workers); the plain loop draws [batch, seq_len]
    ids in each step;
  - the model: the Trainer moves it to its device and wraps it through
    accelerate's prepare (no wrapper on one CPU process); +ckpt is the
    Trainer's activation_checkpointing=True (it calls the model's
    checkpointing itself, with --reentrant's kwargs), not a call in the build;
    amp-bf16 is its bf16=True;
  - the optimizer: its own create_optimizer, optim adamw_torch (AdamW,
    foreach left to torch: the for-loop form on CPU, as adamw), adamw_torch_fused
    or sgd with optim_args momentum=0.9; weight_decay 0.01 on all but the
    biases and norm weights (two parameter groups), lr 1e-4 under its default
    linear schedule (a LambdaLR, no warm-up);
  - each step: the loss divided by the accumulation steps (1) and kept as a
    running total, the gradients clipped to max_grad_norm 1.0 (its default:
    the norm over all gradients), then optimizer.step(), the scheduler's
    step and model.zero_grad(), which is set_to_none=True in torch 2: the
    gradients are freed after each step whatever --zero-grad says (its
    zeros is the plain loop's only);
  - the phases: forward is Trainer.compute_loss, backward its
    accelerator.backward, optimizer its pre-/post-optimizer-step callbacks;
    clipping, the schedule and zero_grad lie between the marks (in the whole
    peaks only); the loss is the Trainer's mean training loss.
"""
import argparse
import functools
import os
import shutil
import sys
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402
import transformers  # noqa: E402

from peakfit_report import Report  # noqa: E402

TECHNIQUES = ("full", "full+ckpt", "bf16", "amp-bf16", "lora", "lora+ckpt", "inference")
# peakfit's LoRA target letters, as module names; fused projections take one
# adapter on the whole module, as PEFT targets it (and peakfit counts it).
LORA_MODULES = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj",
                "gate": "gate_proj", "up": "up_proj", "down": "down_proj"}
FUSED_LORA_MODULES = {
    "gpt2": {"q": "c_attn", "k": "c_attn", "v": "c_attn", "o": "attn.c_proj", "up": "c_fc", "down": "mlp.c_proj"},
    "phi3": {"q": "qkv_proj", "k": "qkv_proj", "v": "qkv_proj", "gate": "gate_up_proj", "up": "gate_up_proj"},
}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="a config.json, or the folder holding one")
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--seq-len", type=int, required=True)
    p.add_argument("--technique", choices=TECHNIQUES, default="full")
    p.add_argument("--attention", choices=("sdpa", "eager"), default="sdpa")
    p.add_argument("--steps", type=int, default=1)
    p.add_argument("--warm", type=int, choices=(0, 1), default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lora-rank", type=int, default=8)
    p.add_argument("--lora-targets", default="q,v", help="letters: q,k,v,o,gate,up,down")
    p.add_argument("--device", default="cpu")
    p.add_argument("--threads", type=int, default=0, help="intra-op threads (0: PyTorch's default)")
    p.add_argument("--optimizer", choices=tuple(OPTIMIZERS), default="adamw")
    p.add_argument("--zero-grad", choices=("none", "zeros"), default="none")
    p.add_argument("--foreach", action="store_true", help="--optimizer adamw-foreach")
    p.add_argument("--reentrant", action="store_true",
                   help="+ckpt: torch.utils.checkpoint's reentrant variant (use_reentrant=True, peakfit's), "
                        "not transformers' default non-reentrant one")
    p.add_argument("--build", choices=("pretrained", "config"), default="pretrained",
                   help="random weights through from_pretrained's path (default) or from_config's")
    p.add_argument("--loop", choices=("plain", "trainer"), default="plain",
                   help="the steps by this script's loop (default) or by transformers.Trainer")
    a = p.parse_args(argv)
    if a.batch <= 0 or a.seq_len <= 0 or a.steps <= 0 or a.lora_rank <= 0:
        p.error("--batch, --seq-len, --steps and --lora-rank must be positive")
    if a.loop == "trainer":
        import trainer_loop
        trainer_loop.check(a, p.error)
    return a


def load_config(path, attention):
    if not os.path.exists(path):
        sys.exit(f"train_step.py: --config {path}: no such file or folder")
    cfg = transformers.AutoConfig.from_pretrained(path)
    cfg.use_cache = False
    return cfg


def lora_targets(model_type, letters):
    names = FUSED_LORA_MODULES.get(model_type, LORA_MODULES)
    unknown = [t for t in letters if t not in names]
    if unknown:
        sys.exit(f"train_step.py: --lora-targets: {', '.join(unknown)} not a target of a {model_type} model")
    return sorted({names[t] for t in letters})


def load_code(a, cfg):
    """Imports the model's module (transformers imports it on first use) and peft for
    LoRA before the baseline, as a script's imports at its top are, and as peakfit's
    worker has all its code loaded: Gemma 2's module alone is 92 MiB of RSS."""
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING
    MODEL_FOR_CAUSAL_LM_MAPPING[type(cfg)]
    if a.technique.startswith("lora"):
        import peft  # noqa: F401
    if a.loop == "trainer":
        import trainer_loop  # noqa: F401  (transformers.Trainer, accelerate)


def empty_checkpoint(cfg):
    """A folder holding cfg's config.json and a model.safetensors with no tensors: what
    from_pretrained loads with every weight missing, so randomly initialised. Made
    before the baseline; the caller removes it."""
    from safetensors.torch import save_file
    folder = tempfile.mkdtemp(prefix="train_step-")
    cfg.save_pretrained(folder)
    save_file({}, os.path.join(folder, "model.safetensors"), metadata={"format": "pt"})
    return folder


def from_transformers(a, cfg, checkpoint):
    """The model in fp32 with random weights, as --build says: "pretrained" is
    from_pretrained's path (built on the meta device, each weight made once, a tied
    lm_head never its own tensor), "config" is from_config's (LlamaForCausalLM.__init__
    makes lm_head = nn.Linear(hidden, vocab) with its own weight, which lives until
    tie_weights() at the end: one [vocab, hidden] fp32 tensor more at the build)."""
    auto = transformers.AutoModelForCausalLM
    if a.build == "pretrained":
        transformers.logging.set_verbosity_error()  # every weight is "missing": that is the point
        load = functools.partial(auto.from_pretrained, checkpoint, attn_implementation=a.attention)
    else:
        load = functools.partial(auto.from_config, cfg, attn_implementation=a.attention)
    try:
        return load(dtype=torch.float32)
    except TypeError:  # transformers before 4.56 calls it torch_dtype
        return load(torch_dtype=torch.float32)


def build(a, cfg, checkpoint):
    torch.manual_seed(a.seed)
    model = from_transformers(a, cfg, checkpoint)
    if a.technique == "bf16":
        model = model.to(torch.bfloat16)
    if a.technique.startswith("lora"):
        from peft import LoraConfig, get_peft_model
        letters = [t.strip() for t in a.lora_targets.replace("+", ",").split(",") if t.strip()]
        model = get_peft_model(model, LoraConfig(r=a.lora_rank, lora_alpha=2 * a.lora_rank, lora_dropout=0.0,
                                                 target_modules=lora_targets(cfg.model_type, letters)))
    if a.technique.endswith("+ckpt") and a.loop == "plain":  # the Trainer enables it itself
        model.gradient_checkpointing_enable(
            gradient_checkpointing_kwargs={"use_reentrant": True} if a.reentrant else None)
    return model.to(a.device)


# peakfit's optimizer names: torch.optim's class and arguments (lr=1e-4 for each).
OPTIMIZERS = {
    "auto": (torch.optim.AdamW, {}),
    "adamw": (torch.optim.AdamW, {"foreach": False}),
    "adamw-foreach": (torch.optim.AdamW, {"foreach": True}),
    "adamw-fused": (torch.optim.AdamW, {"fused": True}),
    "sgd": (torch.optim.SGD, {"momentum": 0.9}),
}


def make_optimizer(a, trainable):
    kind, kwargs = OPTIMIZERS["adamw-foreach" if a.foreach else a.optimizer]
    return kind(trainable, lr=1e-4, **kwargs)


def warm_optimizer(optimizer):
    """The state as the first step makes it (torch/optim/adam.py and sgd.py _init_group):
    AdamW's zero moments and step 0 (on the parameter's device when fused, else a CPU
    scalar), SGD's momentum buffer (zero: 0.9 * 0 + g is the first step's clone of g), so
    the first real step computes what it would have."""
    for group in optimizer.param_groups:
        for p in group["params"]:
            if isinstance(optimizer, torch.optim.SGD):
                optimizer.state[p] = {"momentum_buffer": torch.zeros_like(p, memory_format=torch.preserve_format)}
                continue
            step_device = p.device if group.get("fused") else "cpu"
            optimizer.state[p] = {
                "step": torch.zeros((), dtype=torch.float32, device=step_device),
                "exp_avg": torch.zeros_like(p, memory_format=torch.preserve_format),
                "exp_avg_sq": torch.zeros_like(p, memory_format=torch.preserve_format),
            }


def train_step(a, model, optimizer, report, vocab):
    with report.phase("forward"):
        ids = torch.randint(vocab, (a.batch, a.seq_len), device=a.device)
        if a.technique == "amp-bf16":
            with torch.autocast(torch.device(a.device).type, dtype=torch.bfloat16):
                loss = model(input_ids=ids, labels=ids).loss
        else:
            loss = model(input_ids=ids, labels=ids).loss
    with report.phase("backward"):
        loss.backward()
    with report.phase("optimizer"):
        optimizer.step()
    optimizer.zero_grad(set_to_none=a.zero_grad == "none")
    return loss


def inference_step(a, model, report, vocab):
    with torch.no_grad(), report.phase("forward"):
        ids = torch.randint(vocab, (a.batch, a.seq_len), device=a.device)
        model(input_ids=ids)


def plain_loop(a, model, optimizer, report, vocab):
    for _ in range(a.steps):
        with report.step():
            if optimizer is None:
                inference_step(a, model, report, vocab)
            else:
                report.loss(train_step(a, model, optimizer, report, vocab))


def main(argv):
    a = parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    cfg = load_config(a.config, a.attention)
    for device in sorted({"cpu", a.device}):
        warm = torch.ones(64, 64, device=device)
        # the thread pools (and on a GPU the context and cuBLAS's workspace) exist
        # before the baseline, as in peakfit's pf_init and device baseline
        (warm @ warm).sum().item()
        del warm
    load_code(a, cfg)
    checkpoint = empty_checkpoint(cfg) if a.build == "pretrained" else None
    try:
        return measure(a, cfg, checkpoint)
    finally:
        if checkpoint:
            shutil.rmtree(checkpoint, ignore_errors=True)


def measure(a, cfg, checkpoint):
    with Report(device=a.device) as report:
        t0 = time.perf_counter()
        model = build(a, cfg, checkpoint)
        optimizer = None
        if a.technique == "inference":
            model.eval()
            model.requires_grad_(False)  # nothing is trained: trainable_params 0, as peakfit counts it
        else:
            model.train()
            trainable = [p for p in model.parameters() if p.requires_grad]
            optimizer = make_optimizer(a, trainable) if a.loop == "plain" else None
            if a.warm:
                warm_optimizer(optimizer)
        report.build_time(time.perf_counter() - t0)
        # with --warm 0 the optimizer has no state before its first step: its
        # size is reported once, after the steps (a key reported twice must
        # not change)
        report.model(model, optimizer if a.warm else None)
        if a.loop == "trainer":
            import trainer_loop
            optimizer = trainer_loop.run(a, model, report, cfg.vocab_size)
        else:
            plain_loop(a, model, optimizer, report, cfg.vocab_size)
        report.model(model, optimizer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
