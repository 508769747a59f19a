#!/usr/bin/env python3
"""train_sharded.py: a data-parallel training step on CPU (gloo), each rank measured.

One script for the four ways a user shards a causal LM's training across G
processes, started by torchrun (or alone, as one process):

    torchrun --standalone --nproc-per-node 2 examples/distributed/train_sharded.py \
        --config bench/transformers/configs/tiny.json --strategy fsdp2 --batch 4 --seq-len 128 \
        --report-dir /tmp/ranks

  single  no process group: the plain step, as examples/transformers/train_step.py
          (full), the single-process measurement calc starts from;
  ddp     DistributedDataParallel (default buckets, gradient_as_bucket_view off);
  zero1   DDP with torch.distributed.optim.ZeroRedundancyOptimizer (ZeRO-1: each
          rank keeps AdamW's state of 1/G of the parameters);
  fsdp2   torch.distributed.fsdp.fully_shard (FSDP2) on each decoder layer and
          on the root (ZeRO-3: weights, gradients and AdamW's state sharded;
          reshard_after_forward, the default).

--batch is the micro-batch of each rank (what calc's b is: per replica). The
model is built from a config.json with random fp32 weights (from_config, the
same seed on every rank), AdamW(lr=1e-4, foreach=False) with its state made
before the first step (zero moments, as its first step makes them, as
train_step.py's --warm 1), then --steps steps of random token ids (a
different seed per rank).

Each rank measures itself with examples/peakfit_report.py from before the
model is built: the peak of live CPU tensor bytes (the CPU allocator's own
total, PyTorch's profiler), the per-phase peaks, VmHWM. Where the lines go:
  --report-dir DIR    each rank writes DIR/rank-R.report (key=value lines,
                      peakfit's report keys);
  otherwise            peakfit's channel (peakfit_report.report_channel): a
                      rank's own file in PEAKFIT_REPORT_DIR under torchrun,
                      PEAKFIT_REPORT_FD as one process.
weight_bytes, grad_bytes and optimizer_bytes are what the rank itself holds
(its shards under FSDP2, its partition's state under ZeRO-1).
"""
import argparse
import contextlib
import ctypes
import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "transformers"))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import transformers  # noqa: E402

from peakfit_report import Report, report_channel  # noqa: E402
from train_step import warm_optimizer  # noqa: E402  (the state as its first step makes it)

STRATEGIES = ("single", "ddp", "zero1", "fsdp2")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--config", required=True, help="a config.json of a causal LM")
    p.add_argument("--strategy", choices=STRATEGIES, required=True)
    p.add_argument("--batch", type=int, required=True, help="micro-batch per rank")
    p.add_argument("--seq-len", type=int, required=True)
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="intra-op threads per rank")
    p.add_argument("--report-dir", help="write DIR/rank-R.report for each rank")
    a = p.parse_args(argv)
    if a.batch <= 0 or a.seq_len <= 0 or a.steps <= 0:
        p.error("--batch, --seq-len and --steps must be positive")
    if a.strategy != "single" and "RANK" not in os.environ:
        p.error(f"--strategy {a.strategy} runs under torchrun (RANK is not set)")
    return a


def count_every_thread():
    """The CPU allocator's running total counts every thread's allocations and frees.

    By default c10 counts a block only while the profiler records on the
    thread that allocates or frees it; under gloo a collective's buffers are
    often freed on gloo's own threads, and those frees were never
    subtracted (FSDP2 at 2 ranks ended 36 and 48 MiB above what was alive).
    c10's flag caffe2_report_cpu_memory_usage makes it count on every
    thread, so the total that the profiler's events read is the process's."""
    lib = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libc10.so"))
    ctypes.c_int.in_dll(lib, "FLAGS_caffe2_log_level").value = 2  # not a log line per allocation
    ctypes.c_bool.in_dll(lib, "FLAGS_caffe2_report_cpu_memory_usage").value = True


def report_fd(a, rank):
    """The descriptor this rank's report lines go to, or None (nothing written)."""
    if a.report_dir:
        os.makedirs(a.report_dir, exist_ok=True)
        path = os.path.join(a.report_dir, f"rank-{rank}.report")
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    return report_channel(rank if a.strategy != "single" else None)


def local(t):
    """What this rank holds of a tensor: a DTensor's local shard, else the tensor."""
    return t.to_local() if hasattr(t, "to_local") else t


def build(a, cfg):
    torch.manual_seed(a.seed)
    try:
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=torch.float32)
    except TypeError:  # transformers before 4.56 calls it torch_dtype
        model = transformers.AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.float32)
    model.train()
    if a.strategy == "fsdp2":
        from torch.distributed.fsdp import fully_shard
        for layer in model.model.layers:
            fully_shard(layer)
        fully_shard(model)
        return model, model
    if a.strategy in ("ddp", "zero1"):
        from torch.nn.parallel import DistributedDataParallel
        return DistributedDataParallel(model), model
    return model, model


def make_optimizer(a, model):
    params = [p for p in model.parameters() if p.requires_grad]
    if a.strategy == "zero1":
        from torch.distributed.optim import ZeroRedundancyOptimizer
        zero = ZeroRedundancyOptimizer(params, optimizer_class=torch.optim.AdamW, lr=1e-4, foreach=False)
        return zero, zero.optim  # the local AdamW over this rank's partition
    optimizer = torch.optim.AdamW(params, lr=1e-4, foreach=False)
    return optimizer, optimizer


def held_bytes(report, inner, local_optimizer):
    params = list(inner.parameters())
    report.line("params", sum(p.numel() for p in params))
    report.line("trainable_params", sum(p.numel() for p in params if p.requires_grad))
    report.line("weight_bytes", sum(local(p).nbytes for p in params))
    report.line("optimizer_bytes", sum(local(v).nbytes for s in local_optimizer.state.values()
                                       for k, v in s.items() if torch.is_tensor(v) and k != "step"))


def step(a, model, optimizer, report, vocab, generator):
    with report.phase("forward"):
        ids = torch.randint(vocab, (a.batch, a.seq_len), generator=generator)
        loss = model(input_ids=ids, labels=ids).loss
    with report.phase("backward"):
        loss.backward()
    grads = sum(local(p.grad).nbytes for p in model.parameters() if p.grad is not None)
    with report.phase("optimizer"):
        optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    return loss, grads


def measure(a, cfg, rank, fd):
    with Report(fd=fd) as report:
        t0 = time.perf_counter()
        model, inner = build(a, cfg)
        optimizer, local_optimizer = make_optimizer(a, model)
        warm_optimizer(local_optimizer)
        report.build_time(time.perf_counter() - t0)
        held_bytes(report, inner, local_optimizer)
        generator = torch.Generator().manual_seed(a.seed + 1 + rank)
        grads = 0
        for _ in range(a.steps):
            with report.step():
                loss, grads = step(a, model, optimizer, report, cfg.vocab_size, generator)
            report.loss(loss)
        report.line("grad_bytes", grads)


def main(argv):
    a = parse_args(argv)
    torch.set_num_threads(a.threads)
    count_every_thread()
    cfg = transformers.AutoConfig.from_pretrained(a.config)
    cfg.use_cache = False
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING
    MODEL_FOR_CAUSAL_LM_MAPPING[type(cfg)]  # the model's module imported before the baseline
    rank = 0
    if a.strategy != "single":
        dist.init_process_group("gloo")
        rank = dist.get_rank()
    warm = torch.ones(64, 64)
    (warm @ warm).sum().item()  # the thread pools exist before the baseline
    del warm
    fd = report_fd(a, rank)
    try:
        measure(a, cfg, rank, fd)
    finally:
        if fd is not None and (a.report_dir or a.strategy != "single"):
            os.close(fd)
        if dist.is_initialized():
            with contextlib.suppress(Exception):
                dist.barrier()
            dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
