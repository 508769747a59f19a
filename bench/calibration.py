#!/usr/bin/env python3
"""calibration.py RUN: bench/calibration.sh's summary of RUN/peaks.csv.

The calibrated plan as calc prints it, then for each of the command's
held-out points (measured, kept out of the calibration) its whole process
(the tree's peak: the baseline it reported and its peak above it) beside
calc's plan at that micro-batch and seq_len, calibrated by the command's
other points (--process command) and for a Python trainer from the process
term (--process python), each with its 95% interval, its error and whether
the measurement lies inside the interval. PEAKFIT names the peakfit.
"""
import csv
import json
import os
import subprocess
import sys


def calc(run, *args):
    """calc's stdout for RUN with ARGS (its exit status says how the plan fits, not whether it ran)."""
    done = subprocess.run([os.environ.get("PEAKFIT", "bin/peakfit"), "calc", run, *args],
                          capture_output=True, text=True)
    if not done.stdout:
        sys.exit(f"calc {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def plan(run, batch, seq_len, *args):
    out = calc(run, "--budget", "64GiB", "--micro-batch", batch, "--seq-len", seq_len, "--json", *args)
    p = json.loads(out)
    return p["predicted_peak_mib"], p["predicted_peak_ci95_mib"]


def judged(measured, predicted, ci):
    err = 100 * (predicted - measured) / measured
    return f"{predicted:9.1f} {ci:7.1f} {err:+7.2f} {'yes' if abs(predicted - measured) <= ci else 'no':>6}"


def main():
    run = sys.argv[1]
    rows = [r for r in csv.DictReader(open(os.path.join(run, "peaks.csv"))) if r["status"] == "ok"]
    script = [r for r in rows if r["measured_by"] != "worker"]
    held = [r for r in script if r["holdout"] == "1"]
    print(f"# the worker: {sum(r['measured_by'] == 'worker' for r in rows)} points; "
          f"{script[0]['measured_by']} (job {script[0]['job']}): {len(script) - len(held)} points calibrate, "
          f"{len(held)} held out")
    print("# calc RUN --budget 1GiB --process command:")
    print(calc(run, "--budget", "1GiB", "--process", "command"), end="")
    print("# held-out points: the command's whole process (MiB) against calc's plans, predicted +- 95% "
          "half-width, error %, inside the interval")
    print(f"{'batch':>5} {'seq_len':>7} {'measured':>9} | {'command':>9} {'+-':>7} {'err%':>7} {'inside':>6} | "
          f"{'python':>9} {'+-':>7} {'err%':>7} {'inside':>6}")
    for r in held:
        b, s = r["batch"], r["seq_len"]
        measured = float(r["baseline_rss_mib"]) + float(r["peak_above_baseline_mib"])
        calibrated = plan(run, b, s, "--process", "command")
        python = plan(run, b, s, "--process", "python", "--measured-by", "worker")
        print(f"{b:>5} {s:>7} {measured:9.1f} | {judged(measured, *calibrated)} | {judged(measured, *python)}")


main()
