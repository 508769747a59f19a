#!/usr/bin/env python3
"""Summarises bench/auto-sweep.sh's directories into bench/results/auto-sweep/summary.txt.

For each model: the automated sweep's points, time and A per technique (its
auto.txt); for SmolLM2 the dense grid's A from bench/results/smollm2-135m-cpu
(full, sdpa, the points above the floor: backward peak over the optimizer
step's, the rule auto uses); the held-out points as `peakfit fit` predicts
them (DIR-heldout/fit.json, fitted afresh here, so a newer fit re-scores the
same measurements); the budget search and its check run. Measures nothing.
Usage: bench/auto-sweep-summary.py [PEAKFIT]
"""
import csv, json, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "bench/results/auto-sweep")
PEAKFIT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PEAKFIT", os.path.join(ROOT, "bin/peakfit"))
MODELS = [("smollm2", "smollm2-135m", 256, "4.5GiB"), ("smollm2-128", "smollm2-135m", 128, "4.5GiB"),
          ("qwen", "qwen2.5-0.5b-shaped", 128, "16GiB")]


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def ols(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - a * mx, a


def above_floor_a(path, technique):
    """A per metric through the points of path above the floor (backward peak over the optimizer
    step's: the rule auto uses), attention sdpa, held-out points excluded."""
    pts = [r for r in rows(path) if r["technique"] == technique and r["attention"] == "sdpa" and r["status"] == "ok"
           and r["holdout"] == "0" and num(r["backward_peak_mib"]) > num(r["optimizer_peak_mib"]) + 0.5]
    out = {}
    for metric, col in (("tensor", "tensor_peak_mib"), ("rss", "peak_above_baseline_mib")):
        if len({r["tokens"] for r in pts}) >= 2:
            out[metric] = ols([num(r["tokens"]) for r in pts], [num(r[col]) for r in pts])[1]
    return pts, out


def dense_a(lines, auto_dir):
    """A of the committed dense grid, full/sdpa, against the auto sweep's, both metrics."""
    pts, dense = above_floor_a(os.path.join(ROOT, "bench/results/smollm2-135m-cpu/peaks.csv"), "full")
    _, auto = above_floor_a(os.path.join(OUT, auto_dir, "peaks.csv"), "full")
    where = ", ".join(f"{r['batch']}x{r['seq_len']}" for r in pts)
    for metric in ("tensor", "rss"):
        lines.append(f"dense grid (bench/results/smollm2-135m-cpu, full sdpa, {len(pts)} points above the floor: "
                     f"{where}): A = {dense[metric]:.4f} MiB/token ({metric}); auto: {auto[metric]:.4f}, "
                     f"{100 * (auto[metric] / dense[metric] - 1):+.2f}%")


def dense_a_by_fit(lines):
    """A of the committed dense grid as `peakfit fit` finds it now (full, sdpa, tensor)."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(ROOT, "bench/results/smollm2-135m-cpu/peaks.csv"), tmp)
        subprocess.run([PEAKFIT, "fit", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fit = json.load(open(os.path.join(tmp, "fit.json")))
    for g in fit["groups"]:
        if (g["technique"], g["attention"], g["metric"]) == ("full", "sdpa", "tensor") and g["model_choice"] != "none":
            a = g[g["model_choice"]]["coefficients"][1]
            lines.append(f"dense grid by `peakfit fit` (fit.json version {fit.get('fit_json_version', 1)}, "
                         f"{g['model_choice']}): A = {a:.4f} MiB/token (tensor)")
            return a
    return None


def fit_a(path):
    """A (tensor) per technique from `peakfit fit` of path, and how many points above the knee."""
    subprocess.run([PEAKFIT, "fit", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = {}
    for g in json.load(open(os.path.join(path, "fit.json")))["groups"]:
        if g["metric"] == "tensor" and g["model_choice"] != "none":
            out[g["technique"]] = (g[g["model_choice"]]["coefficients"][1], g["floor"]["n_above_knee"], g["n"])
    return out


def dense_dir(d, a, lines):
    """The dense grid of bench/auto-sweep.sh's dense stage: A per technique against auto's."""
    path = os.path.join(OUT, d)
    if not os.path.exists(os.path.join(path, "peaks.csv")):
        lines.append(f"{d}: not measured")
        return
    for tech, (dense, above, n) in sorted(fit_a(path).items()):
        if tech in a:
            lines.append(f"{d}: {tech}: dense grid (auto's points, the held-out ones and the dense stage's: {n} points, "
                         f"{above} above the knee) A = {dense:.4f} MiB/token (tensor); auto {a[tech]:.4f}, "
                         f"{100 * (a[tech] / dense - 1):+.2f}%")


def plan(d, lines):
    """calc's plan from auto's fit (DIR/plan.txt) and the plan's micro-batch as measured among the held-out points."""
    path = os.path.join(OUT, d)
    if not os.path.exists(os.path.join(path, "plan.txt")):
        return
    text = open(os.path.join(path, "plan.txt")).read()
    budget = re.search(r"budget (\d+) MiB", text)
    b = re.search(r"within its 95% interval: b = (\d+)", text)
    pred = re.search(r"predicted peak ([0-9.]+) MiB \(95% prediction interval \+- ([0-9.]+)\)", text)
    if not (budget and b and pred):
        return
    lines.append(f"{d}: plan (calc from auto's fit, budget {budget.group(1)} MiB): b = {b.group(1)}, predicted "
                 f"{pred.group(1)} +- {pred.group(2)} MiB (baseline included)")
    measured = os.path.join(path, "measured", "peaks.csv")
    for r in rows(measured) if os.path.exists(measured) else []:
        if r["batch"] == b.group(1) and r["technique"] == "full":
            peak = num(r["peak_rss_mib"])
            verdict = ("under" if peak is not None and peak <= float(budget.group(1)) else "NOT under") if r["status"] == "ok" else r["status"]
            lines.append(f"{d}: plan measured: b = {r['batch']} x s = {r['seq_len']}: {r['status']}, peak "
                         f"{peak if peak is not None else float('nan'):.1f} MiB (baseline included): {verdict} the budget")


def auto_lines(d, lines, name="auto.txt"):
    path = os.path.join(OUT, d, name)
    if not os.path.exists(path):
        lines.append(f"{d}: not measured")
        return {}
    a = {}
    for line in open(path):
        line = line.rstrip("\n")
        if re.search(r"points measured|from \d+ points above the knee|no interval|largest micro-batch|wall clock|RSS's A = .* the heap's gap", line):
            lines.append(f"{d}: {line}")
        m = re.match(r"(\S+): A = ([0-9.]+) MiB/token \((\w+)\)", line)
        if m and "above the knee" in line:
            a[m.group(1)] = float(m.group(2))
    return a


def heldout(d, lines, what="held-out points"):
    path = os.path.join(OUT, d)
    if not os.path.exists(os.path.join(path, "peaks.csv")):
        lines.append(f"{d}: not measured")
        return
    subprocess.run([PEAKFIT, "fit", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    groups = json.load(open(os.path.join(path, "fit.json")))["groups"]
    version = json.load(open(os.path.join(path, "fit.json"))).get("fit_json_version", 1)
    lines.append(f"{d}: {what}, predicted by `peakfit fit` from the auto sweep's points (fit.json "
                 f"version {version}: {'prediction' if version >= 2 else 'confidence'} intervals):")
    lines.append("  technique metric  point     measured  predicted  +-95%    error   inside")
    tally = {}
    for g in groups:
        for h in g.get("holdout", []):
            # fit.json 2: the 95% prediction interval for a new measurement; 1: the mean's
            half = h.get("predicted_pi95_mib", h.get("predicted_ci95_mib"))
            meas, pred = h["measured_mib"], h["predicted_mib"]
            err = 100 * (pred - meas) / meas
            inside = h.get("inside_interval", half is not None and abs(pred - meas) <= half)
            t = tally.setdefault(g["metric"], [0, 0, 0.0])
            t[0] += 1
            t[1] += inside
            t[2] = max(t[2], abs(err))
            lines.append(f"  {g['technique']:9} {g['metric']:7} {h['batch']:>3}x{h['seq_len']:<5} {meas:9.1f} {pred:10.1f} "
                         f"{half if half is not None else float('nan'):7.1f} {err:+7.2f}%  {'yes' if inside else 'no'}")
    for metric, (n, inside, worst) in sorted(tally.items()):
        lines.append(f"  {metric}: {n} points, largest |error| {worst:.2f}%, {inside} of {n} inside their 95% interval")
    runs = [g["prediction"].get("between_runs") for g in groups if g["metric"] == "rss" and g.get("holdout")]
    if runs and runs[0]:
        b = runs[0]
        lines.append(f"  rss intervals carry the spread between runs: sd {100 * b['rel_sd']:.3f}% ({b['source']}, "
                     f"{b['replicate_pairs']} replicate pairs; bench/results/rss-between-runs.txt)")
    SETS[d] = tally


SETS = {}  # held-out set -> {metric: [n, inside, largest |error| %]}


def all_sets(lines):
    """Every held-out set's inside counts, and SmolLM2's and Qwen's totals."""
    lines.append("")
    lines.append("## Held-out points inside their 95% prediction intervals, every set")
    total = {}
    for d, tally in SETS.items():
        model = "qwen" if d.startswith("qwen") else "smollm2"
        for metric, (n, inside, worst) in sorted(tally.items()):
            lines.append(f"{d}: {metric} {inside} of {n} inside, largest |error| {worst:.2f}%")
            t = total.setdefault((model, metric), [0, 0])
            t[0] += n
            t[1] += inside
    for (model, metric), (n, inside) in sorted(total.items()):
        lines.append(f"{model}, every set: {metric} {inside} of {n} predictions inside ({100 * inside / n:.1f}%; "
                     "a point held out by several sets counts once per set)")


def budget(d, budget_text, lines):
    path = os.path.join(OUT, d)
    auto_lines(d, lines, "budget.txt")
    for r in rows(os.path.join(path, "peaks.csv")) if os.path.exists(os.path.join(path, "peaks.csv")) else []:
        peak = num(r["peak_rss_mib"])
        lines.append(f"{d}: run b = {r['batch']}: {r['status']}, peak {peak if peak is not None else float('nan'):.1f} MiB"
                     f" (baseline included), {num(r['worker_wall_s']):.0f} s{'; ' + r['error'] if r['error'] else ''}")
    check = os.path.join(path, "check", "peaks.csv")
    if os.path.exists(check):
        for r in rows(check):
            peak = num(r["peak_rss_mib"])
            lines.append(f"{d}: check (not one of the search's runs): b = {r['batch']}: {r['status']}, peak "
                         f"{peak if peak is not None else float('nan'):.1f} MiB against the budget of {budget_text}")


def main():
    lines = ["# bench/auto-sweep.sh, summarised by bench/auto-sweep-summary.py (fits afresh; measures nothing).",
             "# How and when each directory was measured, and what was done to them between runs: bench/auto-sweep-notes.md."]
    for key, name, s, budget_text in MODELS:
        lines.append("")
        lines.append(f"## {name}, seq_len {s}")
        a = auto_lines(f"{key}-auto", lines)
        if key == "smollm2":
            dense_a(lines, f"{key}-auto")
            ad = dense_a_by_fit(lines)
            if ad and "full" in a:
                lines.append(f"auto full's A against `peakfit fit` of the dense grid: {100 * (a['full'] / ad - 1):+.2f}%")
        if "full" in a and "lora" in a:
            lines.append(f"A full / A lora (tensor): {a['full']:.4f} / {a['lora']:.4f} = {a['full'] / a['lora']:.3f}")
        if key == "qwen":
            dense_dir(f"{key}-dense", a, lines)
        heldout(f"{key}-heldout", lines)
        plan(f"{key}-heldout", lines)
        if key == "smollm2":
            heldout(f"{key}-rescore", lines, "the held-out points measured in an earlier run (rescore stage)")
        budget(f"{key}-budget", budget_text, lines)
    lines.append("")
    lines.append("## smollm2-135m, seq_len 256 and 128 (smollm2-auto and smollm2-128-auto fitted as one)")
    combine = os.path.join(OUT, "smollm2-both", "combine.txt")
    if os.path.exists(combine):
        lines.append("smollm2-both: " + open(combine).read().strip().split(": ", 1)[1])
    heldout("smollm2-both", lines, "the held-out points of smollm2-heldout and smollm2-128-heldout")
    lines.append("smollm2-both-b9: the same, s = 128's auto points up to b = 9 only (before b = 18 and 29):")
    heldout("smollm2-both-b9", lines, "the same held-out points")
    lines.append("")
    lines.append("## smollm2-135m, seq_len 256,128 in one auto sweep (peakfit auto --seq-len 256,128)")
    auto_lines("smollm2-2s-auto", lines)
    combine = os.path.join(OUT, "smollm2-2s-heldout", "combine.txt")
    if os.path.exists(combine):
        lines.append("smollm2-2s-heldout: " + open(combine).read().strip().split(": ", 1)[1])
    heldout("smollm2-2s-heldout", lines, "the held-out points of smollm2-heldout and smollm2-128-heldout")
    all_sets(lines)
    text = "\n".join(lines) + "\n"
    open(os.environ.get("OUT", os.path.join(OUT, "summary.txt")), "w").write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
