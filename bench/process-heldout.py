#!/usr/bin/env python3
"""Held-out points of a whole-process plan for a Python trainer, against calc.

    bench/process-heldout.py PEAKS_CSV    (PEAKFIT: the peakfit that plans)

PEAKS_CSV is bench/process-heldout.sh's run: points off every grid the
plans are fitted from, each measured by a command job running
examples/transformers/train_step.py --build config (the published
SmolLM2-135M script's protocol). For each point, calc's plan at its batch
and seq_len from the committed fit of its group (FITS below):
  - with --process python, the whole-process figure and its 95% interval
    against the script's whole-process peak (VmHWM, baseline included);
  - with --process worker, the worker's peak above its baseline against the
    script's peak above the baseline it takes (train_step.py's: after its
    imports, its model's module and peft).
Prints a Markdown table and the done-when checks: within 3 % and inside the
interval for the whole process; full training within 1.5 % above the baseline.
"""
import csv
import json
import os
import subprocess
import sys

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


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    peakfit = os.environ.get("PEAKFIT", "build-torch2/bin/peakfit")
    with open(argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    print("| point | script's whole peak (MiB) | plan for a Python trainer (95%) | error | inside | "
          "script above its baseline | worker's fit above its baseline | error |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    misses = []
    for r in rows:
        name = f"{r['model']} {r['technique']} b{r['batch']} s{r['seq_len']}"
        fit = FITS.get((r["model"], r["technique"]))
        if r["status"] != "ok" or not fit:
            print(f"| {name} | {r['status']} {r['error'][:80]} | | | | | | |")
            misses.append(f"{name}: not measured or no fit")
            continue
        py, worker = plan(peakfit, fit, r, "python"), plan(peakfit, fit, r, "worker")
        if "error" in py or "error" in worker:
            print(f"| {name} | {r['peak_rss_mib']} | {py.get('error') or worker.get('error')} | | | | | |")
            misses.append(f"{name}: calc refused")
            continue
        whole, above = float(r["peak_rss_mib"]), float(r["peak_above_baseline_mib"])
        predicted, half = py["predicted_peak_mib"], py["predicted_peak_ci95_mib"]
        err = 100 * (predicted - whole) / whole
        inside = half is not None and abs(predicted - whole) <= half
        w_above = worker["predicted_peak_mib"] - worker["baseline_mib"]
        err_above = 100 * (w_above - above) / above
        print(f"| {name} | {whole:.1f} | {predicted:.1f} ± {half:.1f} | {err:+.2f}% | {'yes' if inside else 'NO'} | "
              f"{above:.1f} | {w_above:.1f} | {err_above:+.2f}% |")
        if abs(err) > WHOLE_PCT or not inside:
            misses.append(f"{name}: whole process {err:+.2f}%{'' if inside else ', outside its interval'}")
        if r["technique"] == "full" and abs(err_above) > ABOVE_FULL_PCT:
            misses.append(f"{name}: above the baseline {err_above:+.2f}% (full training: within {ABOVE_FULL_PCT}%)")
    print()
    print(f"Whole process: within {WHOLE_PCT} % and inside the interval; full training above the baseline: "
          f"within {ABOVE_FULL_PCT} %.")
    print("Missed: " + "; ".join(misses) if misses else "Every point met both.")


if __name__ == "__main__":
    main(sys.argv)
