#!/usr/bin/env python3
"""Held-out points of a whole-process plan for a Python trainer, against calc.

    bench/process-heldout.py PEAKS_CSV    (PEAKFIT: the peakfit that plans)

PEAKS_CSV is bench/process-term.sh heldout's run: points off every grid the
plans are fitted from, each measured by a command job running
examples/transformers/train_step.py --build config (the published
SmolLM2-135M script's protocol). For each point, calc's plan at its batch
and seq_len from the committed fit of its group (FITS below):
  - with --process python, the whole-process figure and its 95% interval
    against the script's whole-process peak (VmHWM, baseline included);
  - with --process worker, the worker's peak above its baseline against the
    script's peak above the baseline the published protocol takes: a fresh
    Python process with torch imported (one thread), measured here (the
    median of three); train_step.py's own baseline comes later, after
    transformers, its model's module and peft are imported, and its figure
    above it is shown too.
Prints a Markdown table and the done-when checks: the plan within 3 % of the
runs' mean and every run inside the interval for the whole process; full
training within 1.5 % above the baseline.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
process_term = __import__("process-term")  # peaks.csv's rows by point

# (model, technique): the committed results directory whose fit plans the
# point, and the options that pick its group there.
FITS = {
    ("SmolLM2-135M", "full"): ("bench/results/smollm2-135m-cpu-2.13", ["--attention", "sdpa"]),
    ("SmolLM2-135M", "full+ckpt"): ("bench/results/smollm2-135m-cpu-2.13-groups", []),
    ("SmolLM2-135M", "lora"): ("bench/results/smollm2-135m-cpu-2.13-groups", []),
    ("Qwen2.5-0.5B", "lora"): ("bench/results/process-term", ["--model", "Qwen2.5-0.5B", "--measured-by", "worker"]),
}
WHOLE_PCT, ABOVE_FULL_PCT = 3.0, 1.5


def plan(peakfit, fit, row, process):
    directory, extra = fit
    cmd = [peakfit, "calc", directory, "--budget", "1TiB", "--technique", row["technique"],
           "--micro-batch", row["batch"], "--seq-len", row["seq_len"], "--process", process, "--json"] + extra
    done = subprocess.run(cmd, capture_output=True, text=True)
    if not done.stdout.strip():
        return {"error": done.stderr.strip()[:200]}
    return json.loads(done.stdout)


def torch_baseline():
    """VmRSS (MiB) of a fresh Python process with torch imported: the published
    protocol's baseline; the median of three."""
    code = ("import torch; torch.set_num_threads(1); "
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmRSS:')][0])")
    runs = sorted(int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                     check=True).stdout) / 1024.0 for _ in range(3))
    return runs[1]


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    peakfit = os.environ.get("PEAKFIT", "build-torch2/bin/peakfit")
    base = torch_baseline()
    print(f"The published protocol's baseline here (Python with torch imported): {base:.1f} MiB.")
    print()
    print("| point | script's whole peak, mean of its runs (MiB) | its runs | plan for a Python trainer (95%) | "
          "error | every run inside | script above the torch baseline (above its own) | "
          "worker's fit above its baseline | error |")
    print("|---|---:|---|---:|---:|---|---:|---:|---:|")
    misses, notes = [], set()
    for (model, technique, batch, seq_len), runs in process_term.points(argv[1]).items():
        name = f"{model} {technique} b{batch} s{seq_len}"
        fit = FITS.get((model, technique))
        bad = [r for r in runs if r["status"] != "ok"]
        if bad or not fit:
            why = f"{bad[0]['status']} {bad[0]['error'][:80]}" if bad else "no committed fit"
            print(f"| {name} | {why} | | | | | | | |")
            misses.append(f"{name}: not measured or no fit")
            continue
        py, worker = plan(peakfit, fit, runs[0], "python"), plan(peakfit, fit, runs[0], "worker")
        if "error" in py or "error" in worker:
            print(f"| {name} | | | {py.get('error') or worker.get('error')} | | | | | |")
            misses.append(f"{name}: calc refused")
            continue
        peaks = [float(x["peak_rss_mib"]) for x in runs]
        whole = sum(peaks) / len(peaks)
        own = sum(float(x["peak_above_baseline_mib"]) for x in runs) / len(runs)
        above = whole - base
        predicted, half = py["predicted_peak_mib"], py["predicted_peak_ci95_mib"]
        err = 100 * (predicted - whole) / whole
        inside = half is not None and all(abs(predicted - p) <= half for p in peaks)
        w_above = worker["predicted_peak_mib"] - worker["baseline_mib"]
        err_above = 100 * (w_above - above) / above
        interval = f"± {half:.1f}" if half is not None else "(no interval)"
        print(f"| {name} | {whole:.1f} | {', '.join(f'{p:.1f}' for p in peaks)} | {predicted:.1f} {interval} | "
              f"{err:+.2f}% | {'yes' if inside else 'NO'} | {above:.1f} ({own:.1f}) | {w_above:.1f} | "
              f"{err_above:+.2f}% |")
        if not py.get("measured_on_this_machine", True):
            notes.add(f"{fit[0]} was measured on another CPU ({py.get('measured_on_cpu')}): its intervals add "
                      "RSS's spread between machines")
        if abs(err) > WHOLE_PCT or not inside:
            misses.append(f"{name}: whole process {err:+.2f}%{'' if inside else ', a run outside its interval'}")
        if technique == "full" and abs(err_above) > ABOVE_FULL_PCT:
            misses.append(f"{name}: above the baseline {err_above:+.2f}% (full training: within {ABOVE_FULL_PCT}%)")
    print()
    for n in sorted(notes):
        print(f"- {n}")
    print()
    print(f"Whole process: the plan within {WHOLE_PCT} % of the runs' mean and every run inside the interval; "
          f"full training above the baseline: within {ABOVE_FULL_PCT} %.")
    print("Missed: " + "; ".join(misses) if misses else "Every point met both.")


if __name__ == "__main__":
    main(sys.argv)
