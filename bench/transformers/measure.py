#!/usr/bin/env python3
"""bench/transformers/measure.py: peakfit's points again under transformers, one fresh process each.

    python3 bench/transformers/measure.py PEAKS_CSV OUT_CSV [--only-ok] [--rss-with-profiler]
        [--no-tensor-count] [--jobs N] [--point ID]... [-- EXTRA train_step.py ARGS]

For every row of PEAKS_CSV (a peakfit run's peaks.csv: its rows say the
model's config.json, technique, batch, seq_len, attention, steps, warm,
optimizer, zero_grad, seed, threads and LoRA settings), runs examples/transformers/train_step.py
with the same settings in a fresh process, reading its report lines from
PEAKFIT_REPORT_FD exactly as peakfit reads a command job's, and writes one
row per point to OUT_CSV with the same column names peakfit uses:
peak_above_baseline_mib (VmHWM above the pre-model RSS, from a second fresh
process without the live-tensor count: PyTorch's profiler, recording every
allocation, holds its records among the tensors in the heap and adds 300 MiB
to GPT-2's RSS at b2 s128; that run's figure is
profiled_peak_above_baseline_mib; --rss-with-profiler: one run), tensor_peak_mib
(the CPU allocator's live-bytes peak above the baseline), the phase peaks,
step and loss (--point: only those points; --only-ok: only the points
peakfit measured without error); on a GPU also gpu_allocated_peak_mib and gpu_reserved_peak_mib
(torch.cuda.max_memory_allocated/reserved). A model given as a preset's name
(smollm2-135m, tiny) is bench/transformers/configs/NAME.json. A point that is already in OUT_CSV is not measured again.
--no-tensor-count: one run per point, without the CPU live-tensor count (no
tensor_peak_mib or phase peaks): on a GPU, whose figures are PyTorch's own
counters, the profiler only costs time. --jobs N: N points at a time, each
still its own process (on a GPU, each process's max_memory_allocated and
max_memory_reserved are its own, so sharing the device changes no figure;
host RSS is then measured beside other processes, and CPU time is shared).
"""
import csv
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRAIN_STEP = os.path.join(ROOT, "examples", "transformers", "train_step.py")
MIB = 1048576.0
FIELDS = ["point_id", "model", "technique", "batch", "seq_len", "attention", "status",
          "baseline_rss_mib", "peak_rss_mib", "peak_above_baseline_mib", "tensor_peak_mib",
          "forward_peak_mib", "backward_peak_mib", "optimizer_peak_mib",
          "gpu_allocated_peak_mib", "gpu_reserved_peak_mib",
          "params", "trainable_params", "weight_mib", "grad_mib", "optimizer_mib",
          "build_s", "step1_s", "loss", "torch_version", "wall_s", "error", "profiled_peak_above_baseline_mib"]


def config_for(source):
    """A config.json path as peakfit recorded it, or a preset's name: configs/NAME.json here."""
    if os.path.exists(source):
        return source
    preset = os.path.join(HERE, "configs", source + ".json")
    if os.path.exists(preset):
        return preset
    sys.exit(f"measure.py: model {source}: not a file, and no {preset}")


def command(row, extra):
    cmd = [sys.executable, TRAIN_STEP, "--config", config_for(row["model_source"]),
           "--technique", row["technique"],
           "--batch", row["batch"], "--seq-len", row["seq_len"], "--attention", row["attention"] or "sdpa",
           "--steps", row["steps"] or "1", "--warm", row["warm"] or "0", "--seed", row["seed"] or "0",
           "--device", row["device"]]
    if row.get("threads_requested") not in (None, "", "0"):
        cmd += ["--threads", row["threads_requested"]]
    if row["technique"].startswith("lora"):
        cmd += ["--lora-rank", row["lora_rank"], "--lora-targets", row["lora_targets"]]
    # peaks.csv from before the optimizer and zero_grad columns: AdamW one
    # parameter at a time, gradients freed (train_step.py's defaults)
    if row.get("optimizer"):
        cmd += ["--optimizer", row["optimizer"], "--zero-grad", row["zero_grad"] or "none"]
    return cmd + extra


def run_point(row, extra, profiled=True):
    """Runs one point; returns its report as {key: last value} plus the step times.
    profiled=False: without the live-tensor count (PEAKFIT_TENSOR_PEAK=0), for its RSS."""
    read_end, write_end = os.pipe()
    env = dict(os.environ, PEAKFIT_REPORT_FD=str(write_end), HF_HUB_OFFLINE="1")
    if not profiled:
        env["PEAKFIT_TENSOR_PEAK"] = "0"
    t0 = time.time()
    proc = subprocess.Popen(command(row, extra), env=env, pass_fds=(write_end,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        lines = pipe.read().splitlines()
    stderr = proc.stderr.read().decode(errors="replace")
    rc = proc.wait()
    report = {"steps": []}
    for line in lines:
        key, _, value = line.partition("=")
        if key == "step_s":
            report["steps"].append(float(value))
        else:
            report[key] = value
    report["rc"], report["wall_s"] = rc, time.time() - t0
    if rc != 0 and "error" not in report:
        last = [line for line in stderr.splitlines() if line.strip() and not line.startswith("USDT:")]
        report["error"] = (last[-1] if last else f"exit status {rc}")[:300]
    return report


def mib(report, key, minus=None):
    if key not in report:
        return ""
    value = float(report[key]) - (float(report[minus]) if minus and minus in report else 0)
    return f"{value / (1024.0 if key.endswith('_kib') else MIB):.3f}"


def record(row, report, rss=None):
    """The row of a point: its allocator-level figures from report (the profiled run), its RSS
    from rss (a run without the profiler) where there is one."""
    out = {k: row.get(k, "") for k in ("point_id", "model", "technique", "batch", "seq_len", "attention")}
    profiled_rss = mib(report, "peak_rss_kib", "baseline_rss_kib")
    if rss is not None:
        report = dict(report, **{k: rss[k] for k in ("baseline_rss_kib", "peak_rss_kib") if k in rss})
        if rss["rc"] != 0:
            report["rc"], report["error"] = rss["rc"], "the run without the profiler: " + rss.get("error", "")
    out.update(status="ok" if report["rc"] == 0 else "error",
               baseline_rss_mib=mib(report, "baseline_rss_kib"), peak_rss_mib=mib(report, "peak_rss_kib"),
               peak_above_baseline_mib=mib(report, "peak_rss_kib", "baseline_rss_kib"),
               tensor_peak_mib=mib(report, "tensor_peak_bytes", "baseline_tensor_bytes"),
               params=report.get("params", ""), trainable_params=report.get("trainable_params", ""),
               weight_mib=mib(report, "weight_bytes"), grad_mib=mib(report, "grad_bytes"),
               optimizer_mib=mib(report, "optimizer_bytes"),
               gpu_allocated_peak_mib=mib(report, "gpu_allocated_peak_bytes"),
               gpu_reserved_peak_mib=mib(report, "gpu_reserved_peak_bytes"), build_s=report.get("build_s", ""),
               step1_s=f"{report['steps'][0]:.3f}" if report["steps"] else "", loss=report.get("loss", ""),
               torch_version=report.get("torch_version", ""), wall_s=f"{report['wall_s']:.1f}",
               error=report.get("error", ""), profiled_peak_above_baseline_mib=profiled_rss)
    for phase in ("forward", "backward", "optimizer"):
        out[f"{phase}_peak_mib"] = mib(report, f"{phase}_peak_bytes", "baseline_tensor_bytes")
    return out


def main(argv):
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = argv[:argv.index("--")] if "--" in argv else argv
    if len(args) < 3:
        sys.exit(__doc__.split("\n\n")[1])
    only = {args[i + 1] for i, a in enumerate(args[:-1]) if a == "--point"}
    with open(args[1], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["technique"] != "load"
                and ("--only-ok" not in args or r["status"] == "ok") and (not only or r["point_id"] in only)]
    done = set()
    if os.path.exists(args[2]):
        with open(args[2], newline="") as f:
            done = {r["point_id"] for r in csv.DictReader(f) if r["status"] == "ok"}
    new = not os.path.exists(args[2]) or os.path.getsize(args[2]) == 0
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 1
    lock = threading.Lock()
    with open(args[2], "a", newline="") as out:
        w = csv.DictWriter(out, fieldnames=FIELDS)
        if new:
            w.writeheader()

        def measure(row):
            if "--no-tensor-count" in args:
                report, rss = run_point(row, extra, profiled=False), None
            else:
                report = run_point(row, extra)
                rss = run_point(row, extra, profiled=False) if "--rss-with-profiler" not in args else None
            rec = record(row, report, rss)
            with lock:
                w.writerow(rec)
                out.flush()
                print(f"measure: {rec['point_id']}: {rec['status']} tensor peak {rec['tensor_peak_mib']} MiB, "
                      f"RSS above baseline {rec['peak_above_baseline_mib']} MiB, GPU allocated "
                      f"{rec['gpu_allocated_peak_mib']} MiB, {rec['wall_s']} s {rec['error']}", flush=True)

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(measure, [r for r in rows if r["point_id"] not in done]))


if __name__ == "__main__":
    main(sys.argv)
