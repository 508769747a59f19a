#!/usr/bin/env python3
"""What RSS's gap (RSS above baseline minus the allocator's tensor peak) depends
on besides the tokens T, from every peaks.csv under bench/results (as committed at BASE) measured from
2026-12-03 19:00 on (the auto sweeps' runs; the dense grid of 14:03 kept
~10-30% less at b >= 4 and is left out), full training, sdpa, points above the
allocator's knee (tensor over its floor). Each point once per measurement
(finished_at): repeats across directories counted once, repeats in time kept.
Fits the gap by least squares with T alone and with one shape term more, and
prints each model's residual sd and the term's t ratio; then the points at one
T and different shapes side by side, and a reading of the fits. The table
includes held-out points (it looks at every measurement to find what the gap
depends on), so those held-out sets are not blind to the choice of b; the
checks that are: tests/rss_gap_shape_test.c's synthetic coverage and
smollm2-both-b9 in bench/results/auto-sweep/summary.txt.
Usage: bench/rss-gap-shape.py [BASE] > bench/results/rss-gap-shape.txt   (the peaks.csv
files as committed at BASE, default 91c8865: the results of that day; run in the repository)"""
import os
import sys

import numpy as np

from committed_peaks import committed_peaks

# the commit whose committed peaks.csv files are read (the ones measured when this
# question was asked; later results measured other things): BASE or the first argument
BASE = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BASE", "91c8865")
MODELS = {"smollm2-135m": 2268.6, "qwen2.5-0.5b-shaped": 8577.1}  # the allocator's floor (MiB)


def points(model, floor):
    seen = {}
    for _, rows in committed_peaks(BASE):
        for r in rows:
            if (r["status"] != "ok" or r["model"] != model or r["technique"] != "full"
                    or r.get("attention") != "sdpa" or r["finished_at"] < "2026-12-03T19"):
                continue
            rss, ten = float(r["peak_above_baseline_mib"]), float(r["tensor_peak_mib"])
            if ten > floor:
                seen[(int(r["batch"]), int(r["seq_len"]), r["finished_at"])] = rss - ten
    return sorted(seen.items(), key=lambda kv: (kv[0][0] * kv[0][1], kv[0][1]))


def main():
    print(__doc__.split("Usage")[0].strip().replace("\n", "\n# ").join(["# ", ""]))
    readings = []
    for model, floor in MODELS.items():
        pts = points(model, floor)
        b = np.array([k[0] for k, _ in pts], float)
        s = np.array([k[1] for k, _ in pts], float)
        gap = np.array([g for _, g in pts])
        T = b * s
        print(f"\n{model}: {len(pts)} measurements above the knee, seq_lens {sorted(set(int(v) for v in s))}")
        terms = {"T only": None, "+ c2*b (per sample)": b, "+ c2*s": s, "+ c2*b*s^2": b * s * s,
                 "+ c2*T/sqrt(s)": T / np.sqrt(s)}
        base, found = None, {}
        for name, x in terms.items():
            X = np.c_[np.ones_like(T), T] if x is None else np.c_[np.ones_like(T), T, x]
            c, *_ = np.linalg.lstsq(X, gap, rcond=None)
            r = gap - X @ c
            dof = len(gap) - X.shape[1]
            s2 = r @ r / dof
            line = f"  gap = {c[0]:8.1f} + {c[1]:.4f}*T"
            if x is None:
                base = (r @ r, dof)
                print(f"{line:48s} residual sd {np.sqrt(s2):6.1f} MiB")
                resid_t = r
                sd_t = np.sqrt(s2)
                continue
            se = np.sqrt(s2 * np.linalg.inv(X.T @ X)[2, 2])
            F = (base[0] - r @ r) / s2
            print(f"{line} {name:22s} c2 = {c[2]:.4g} +- {1.96 * se:.3g} (t = {c[2] / se:+.1f}, F = {F:.1f}), "
                  f"residual sd {np.sqrt(s2):6.1f} MiB")
            found[name] = (c[2], c[2] / se, np.sqrt(s2))
            if name.startswith("+ c2*b "):
                resid_b = r
        print("  point      T      gap   residual (T only)   (T + b)")
        for i in range(len(pts)):
            print(f"  {int(b[i]):3d}x{int(s[i]):<5d} {int(T[i]):5d} {gap[i]:7.1f}   {resid_t[i]:+7.1f}"
                  f"            {resid_b[i]:+7.1f}")
        readings.append(reading(model, found, sd_t))
    print("\n# Reading, from the fits above (a term with |t| < 2 explains nothing):")
    for line in readings:
        print(line)


def reading(model, found, sd_t):
    """One line on MODEL: the shape term that explains most, or that none does."""
    best = max(found, key=lambda n: abs(found[n][1]))
    c2, t, sd = found[best]
    none = ", ".join(f"{n} (t = {found[n][1]:+.1f})" for n in found if abs(found[n][1]) < 2) or "none"
    if abs(t) < 2:
        return f"# - {model}: no shape term (the largest, {best}: t = {t:+.1f})"
    return (f"# - {model}: the term that explains most is {best}: c2 = {c2:.4g}, t = {t:+.1f}, "
            f"the residual sd {sd_t:.1f} -> {sd:.1f} MiB; explaining nothing: {none}")


main()
