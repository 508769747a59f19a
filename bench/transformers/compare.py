#!/usr/bin/env python3
"""bench/transformers/compare.py: peakfit's peaks beside transformers', as markdown.

    python3 bench/transformers/compare.py PEAKS_CSV TRANSFORMERS_CSV

PEAKS_CSV is peakfit's peaks.csv, TRANSFORMERS_CSV bench/transformers/measure.py's
output for the same points (the same column names). For each measure of
MEASURES that both sides have: per point, both peaks and the ratio
peakfit / transformers; for every series of points that differ only in
batch, the growth per sample (least-squares slope of the peak over the
batch) and its ratio; then the worst ratio of each against its target.
Standard library only.
"""
import csv
import sys

# name, column (the same in both files; a tuple: the largest of them), target for the
# point ratio, target for growth. "allocator, steps" leaves out the model's build
# (transformers' from_config holds an untied lm_head for a moment); the forward
# phase's peak holds what a step keeps for backward: its growth per sample is the
# activations', where a whole peak may be the optimizer's step (flat in the batch).
STEP_PHASES = ("forward_peak_mib", "backward_peak_mib", "optimizer_peak_mib")
MEASURES = (
    ("allocator", "tensor_peak_mib", 0.01, 0.02),
    ("allocator, steps", STEP_PHASES, 0.01, 0.02),
    ("forward phase", "forward_peak_mib", 0.01, 0.02),
    ("RSS", "peak_above_baseline_mib", 0.05, None),
    # Each side's whole process, its baseline included (peakfit's worker with libtorch
    # loaded; the script with the interpreter, torch, transformers and peft): what runs
    # out of memory. No target: the difference is the process term's
    # (bench/results/process-term/term.txt).
    ("whole process", "peak_rss_mib", None, None),
    ("GPU allocated", "gpu_allocated_peak_mib", 0.01, 0.02),
    ("GPU reserved", "gpu_reserved_peak_mib", None, None),
)
SERIES_KEY = ("model", "technique", "attention", "seq_len")


def read(path):
    """The last row of each point_id (a resumed measurement appends)."""
    with open(path, newline="") as f:
        return {r["point_id"]: r for r in csv.DictReader(f)}


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def value(row, column):
    """A row's number in column, or the largest of a tuple of columns; None when absent."""
    if isinstance(column, tuple):
        found = [v for v in (num(row.get(c)) for c in column) if v is not None]
        return max(found) if found else None
    return num(row.get(column))


def ratio(a, b):
    """a / b; None where either is missing or b is (about) zero: a flat series has no growth ratio."""
    return a / b if a is not None and b is not None and abs(b) > 1e-3 else None


def md(text):
    """Text as one markdown table cell, read literally: its markup escaped, one line."""
    text = " ".join(str(text).split())
    for c in "\\`*_[]<>|#":
        text = text.replace(c, "\\" + c)
    return text


def fmt(v, spec=".1f"):
    return format(v, spec) if v is not None else "—"


def slope(points):
    """Least-squares slope of y over x, [(x, y)]; None without two distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def present(rows, column):
    return any(value(r, column) is not None for r in rows)


class Worst:
    """The ratio furthest from 1 of each (measure, kind)."""

    def __init__(self):
        self.seen = {}

    def note(self, key, r, label):
        if r is not None and (key not in self.seen or abs(r - 1) > abs(self.seen[key][0] - 1)):
            self.seen[key] = (r, label)


def point_table(ours, theirs, measures, worst):
    head = "| point |" + "".join(f" peakfit {n} (MiB) | transformers | ratio |" for n, *_ in measures)
    print(head)
    print("|---|" + "---:|---:|---:|" * len(measures))
    for pid, t in theirs.items():
        p = ours.get(pid, {})
        cells = ""
        for name, col, _, _ in measures:
            a, b = value(p, col), value(t, col)
            worst.note((name, "point"), ratio(a, b), pid)
            cells += f" {fmt(a)} | {fmt(b)} | {fmt(ratio(a, b), '.4f')} |"
        note = f" ({md(t['error'])})" if t.get("error") else ""
        print(f"| {md(pid)}{note} |{cells}")


def series(ours, theirs):
    """{series key: [(batch, ours row, theirs row)]}: points both sides have, several batches."""
    out = {}
    for pid, t in theirs.items():
        if pid in ours and t.get("status") == "ok" and ours[pid].get("status") == "ok":
            out.setdefault(tuple(t[k] for k in SERIES_KEY), []).append((int(t["batch"]), ours[pid], t))
    return {k: sorted(v, key=lambda e: e[0]) for k, v in out.items() if len({b for b, _, _ in v}) > 1}


def growth_table(ours, theirs, measures, worst):
    all_series = series(ours, theirs)
    if not all_series:
        print("No series of two batches or more was measured on both sides.")
        return
    print("| series (model, technique, attention, seq_len) | batches |"
          + "".join(f" peakfit {n} MiB/sample | transformers | ratio |" for n, *_ in measures))
    print("|---|---|" + "---:|---:|---:|" * len(measures))
    for key, rows in all_series.items():
        label = ", ".join(key)
        cells = ""
        for name, col, _, _ in measures:
            a = slope([(b, value(p, col)) for b, p, _ in rows if value(p, col) is not None])
            b = slope([(b, value(t, col)) for b, _, t in rows if value(t, col) is not None])
            worst.note((name, "growth"), ratio(a, b), label)
            cells += f" {fmt(a)} | {fmt(b)} | {fmt(ratio(a, b), '.4f')} |"
        print(f"| {md(label)} | {', '.join(str(b) for b, _, _ in rows)} |{cells}")


def summary(measures, worst):
    print("| measure | worst ratio | at | target | within |")
    print("|---|---:|---|---:|---|")
    for name, _, point_target, growth_target in measures:
        for kind, target in (("point", point_target), ("growth", growth_target)):
            if (name, kind) not in worst.seen:
                continue
            r, label = worst.seen[(name, kind)]
            within = ("yes" if abs(r - 1) <= target else "no") if target else "—"
            what = name if kind == "point" else f"{name} growth per sample"
            print(f"| {what} | {r:.4f} | {md(label)} | {f'{target:.0%}' if target else '—'} | {within} |")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: compare.py PEAKS_CSV TRANSFORMERS_CSV")
    ours, theirs = read(argv[1]), read(argv[2])
    measures = [m for m in MEASURES if present(theirs.values(), m[1]) and present(ours.values(), m[1])]
    worst = Worst()
    print("### Each point (ratio: peakfit / transformers)\n")
    point_table(ours, theirs, measures, worst)
    print("\n### Growth per sample (least squares over the batches of a series)\n")
    growth_table(ours, theirs, measures, worst)
    print("\n### Worst cases\n")
    summary(measures, worst)


if __name__ == "__main__":
    main(sys.argv)
