#!/usr/bin/env python3
"""The proof table of `peakfit auto --slices` (bench/slices/auto-proof.sh):
for each bench/results/slices-NAME directory given, the whole model's A
from the slices against the A of the whole model's own points, and each
whole-model point against its prediction from slices (the allocator
level: RSS is not predicted from slices), with auto's wall time; then the
heap's gap over the allocator level (RSS less it) in the slices and in the
whole model, which is why; and how far the whole model's own points
predict its RSS: each point from its exact allocator level plus the gap
drawn through the model's other points (a line in tokens), the best a
prediction of RSS could know. Writes Markdown to stdout.

    bench/slices/proof-table.py [DIR...] > bench/results/slices-proof.md   (default: DEFAULT's)
"""
import csv
import json
import os
import re
import sys

DEFAULT = ("smollm2-135m-auto", "gpt2-auto", "qwen2.5-0.5b-auto", "llama-3.2-1b-lora-auto")


def slope(points):
    """A through the whole model's points above their lowest (its floor)."""
    low = min(y for _, y in points)
    above = sorted({(t, y) for t, y in points if y > low + 0.5})
    if len({t for t, _ in above}) < 2:
        return None
    n = len(above)
    mt, my = sum(t for t, _ in above) / n, sum(y for _, y in above) / n
    return sum((t - mt) * (y - my) for t, y in above) / sum((t - mt) ** 2 for t, _ in above)


def auto_seconds(folder):
    for line in open(f"{folder}/run.txt"):
        m = re.match(r"auto: end .*, ([0-9.]+) s wall clock", line)
        if m:
            return float(m.group(1))
    return None


def main(folders):
    print("| model | technique | slices | A from slices (allocator), MiB/token | whole model's own A | error "
          "| whole-model points: error | auto's wall time |")
    print("|---|---|---|---:|---:|---:|---|---:|")
    for folder in folders:
        groups = json.load(open(f"{folder}/both/fit.json"))["groups"]
        fits = {g["metric"]: g for g in groups if g["from_slices"]}
        if "tensor" not in fits:
            continue
        s = fits["tensor"]
        a = s["linear"]["coefficients"][1]
        held = s["holdout"]
        own = slope([(h["batch"] * h["seq_len"], h["measured_mib"]) for h in held]) if held else None
        err = f"{100 * (a / own - 1):+.3f} %" if own else "-"
        def errors(g):
            return ", ".join(f"b{h['batch']} {h['error_pct']:+.2f} %" for h in g["holdout"]) or "-"
        secs = auto_seconds(folder)
        depths = s["layers"].split("(slices ")[-1].rstrip(")")
        cells = [s["model"], s["technique"], depths, f"{a:.4f}", f"{own:.4f}" if own else "-", err, errors(s),
                 f"{secs:.0f} s" if secs is not None else "-"]
        print("| " + " | ".join(cells) + " |")
    print()
    print("The heap's gap, RSS above the baseline less the allocator-level peak (MiB), at each point:")
    print()
    print("| model | technique | in the slices (depth: b gap) | in the whole model (b gap) |")
    print("|---|---|---|---|")
    for folder in folders:
        gaps = {}
        for part in ("slices", "whole"):
            gaps[part] = [f"{r['layers'] + ': ' if r['layers'] else ''}b{r['batch']} "
                          f"{float(r['peak_above_baseline_mib']) - float(r['tensor_peak_mib']):.0f}"
                          for r in csv.DictReader(open(f"{folder}/{part}/peaks.csv")) if r["status"] == "ok"]
        r0 = next(csv.DictReader(open(f"{folder}/whole/peaks.csv")))
        print(f"| {r0['model']} | {r0['technique']} | {', '.join(gaps['slices'])} | {', '.join(gaps['whole'])} |")
    print_gap_loo(folders)

def whole_points(folder):
    """(tokens, RSS above the baseline, allocator level) of the whole model's points, by tokens."""
    return sorted((int(r["batch"]) * int(r["seq_len"]), float(r["peak_above_baseline_mib"]),
                   float(r["tensor_peak_mib"]))
                  for r in csv.DictReader(open(f"{folder}/whole/peaks.csv")) if r["status"] == "ok")


def gap_loo(points):
    """Each point's RSS error (%) from its own allocator level plus the gap's least-squares line
    in tokens through the other points."""
    errors = []
    for i, (t, rss, alloc) in enumerate(points):
        rest = [(u, r - a) for j, (u, r, a) in enumerate(points) if j != i]
        n = len(rest)
        mt, mg = sum(u for u, _ in rest) / n, sum(g for _, g in rest) / n
        k = sum((u - mt) * (g - mg) for u, g in rest) / sum((u - mt) ** 2 for u, _ in rest)
        errors.append((t, 100 * ((alloc + mg + k * (t - mt)) / rss - 1)))
    return errors


def print_gap_loo(folders):
    print()
    print("The whole model's RSS at each of its points, predicted from its exact allocator level plus "
          "the heap's gap drawn through its other points (a line in tokens): the error, and how many "
          "points are within 3 %:")
    print()
    print("| model | technique | whole-model points (T tokens: error) | within 3 % |")
    print("|---|---|---|---:|")
    for folder in folders:
        errors = gap_loo(whole_points(folder))
        r0 = next(csv.DictReader(open(f"{folder}/whole/peaks.csv")))
        cells = ", ".join(f"T {t}: {e:+.1f} %" for t, e in errors)
        print(f"| {r0['model']} | {r0['technique']} | {cells} | {sum(abs(e) <= 3 for _, e in errors)} "
              f"of {len(errors)} |")


if __name__ == "__main__":
    # no folders given: the committed ones, smallest model first (bench/run slices-table)
    main(sys.argv[1:] or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../bench/results/slices-" + name)
                          for name in DEFAULT])
