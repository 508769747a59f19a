#!/usr/bin/env python3
"""bench/transformers/compare.py: peakfit's peaks beside transformers', as markdown.

    python3 bench/transformers/compare.py PEAKS_CSV TRANSFORMERS_CSV

PEAKS_CSV is peakfit's peaks.csv, TRANSFORMERS_CSV bench/transformers/measure.py's
output for the same points. Prints, per point, the allocator-level peak
(tensor_peak_mib) and the RSS peak above the pre-model baseline
(peak_above_baseline_mib) of each side with the ratio peakfit / transformers;
then, for every series of points that differ only in batch, the activation
growth per sample (least-squares slope of each peak over the batch) and its
ratio; then the worst case of each against the targets (allocator 1 %, RSS
5 %, growth 2 %). Standard library only.
"""
import csv
import sys

TARGETS = {"allocator": 0.01, "rss": 0.05, "growth": 0.02}
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


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(v, spec=".1f"):
    return format(v, spec) if v is not None else "—"


def slope(points):
    """Least-squares slope of y over x: [(x, y)] with at least two distinct x."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else None


class Worst:
    def __init__(self):
        self.by_kind = {}

    def note(self, kind, r, label):
        if r is None:
            return
        best = self.by_kind.get(kind)
        if best is None or abs(r - 1) > abs(best[0] - 1):
            self.by_kind[kind] = (r, label)


def point_table(ours, theirs, worst):
    print("| point | peakfit allocator (MiB) | transformers allocator (MiB) | ratio "
          "| peakfit RSS (MiB) | transformers RSS (MiB) | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for pid, t in theirs.items():
        p = ours.get(pid, {})
        pa, ta = num(p.get("tensor_peak_mib")), num(t.get("tensor_peak_mib"))
        pr, tr = num(p.get("peak_above_baseline_mib")), num(t.get("peak_above_baseline_mib"))
        ra, rr = ratio(pa, ta), ratio(pr, tr)
        worst.note("allocator", ra, pid)
        worst.note("rss", rr, pid)
        note = f" ({t['error']})" if t.get("error") else ""
        print(f"| `{pid}`{note} | {fmt(pa)} | {fmt(ta)} | {fmt(ra, '.4f')} | {fmt(pr)} | {fmt(tr)} "
              f"| {fmt(rr, '.4f')} |")


def series(ours, theirs):
    """{series key: [(batch, ours row, theirs row)]} for the points both sides measured."""
    out = {}
    for pid, t in theirs.items():
        p = ours.get(pid)
        if p and num(p.get("tensor_peak_mib")) is not None and num(t.get("tensor_peak_mib")) is not None:
            out.setdefault(tuple(t[k] for k in SERIES_KEY), []).append((int(t["batch"]), p, t))
    return {k: sorted(v, key=lambda e: e[0]) for k, v in out.items() if len({b for b, _, _ in v}) > 1}


def growth_table(ours, theirs, worst):
    print("| series (model, technique, attention, seq_len) | batches | peakfit allocator MiB/sample "
          "| transformers | ratio | peakfit RSS MiB/sample | transformers | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for key, rows in series(ours, theirs).items():
        g = {}
        for side, col in (("pa", "tensor_peak_mib"), ("pr", "peak_above_baseline_mib")):
            g[side] = slope([(b, num(p[col])) for b, p, _ in rows if num(p.get(col)) is not None])
            g["t" + side[1]] = slope([(b, num(t[col])) for b, _, t in rows if num(t.get(col)) is not None])
        ra, rr = ratio(g["pa"], g["ta"]), ratio(g["pr"], g["tr"])
        label = ", ".join(key)
        worst.note("growth", ra, label)
        worst.note("rss growth", rr, label)
        print(f"| {label} | {', '.join(str(b) for b, _, _ in rows)} | {fmt(g['pa'])} | {fmt(g['ta'])} "
              f"| {fmt(ra, '.4f')} | {fmt(g['pr'])} | {fmt(g['tr'])} | {fmt(rr, '.4f')} |")


def summary(worst):
    print("| measure | worst ratio | at | target | within |")
    print("|---|---:|---|---:|---|")
    for kind in ("allocator", "rss", "growth", "rss growth"):
        if kind not in worst.by_kind:
            continue
        r, label = worst.by_kind[kind]
        target = TARGETS.get(kind)
        within = ("yes" if abs(r - 1) <= target else "no") if target else "(no target)"
        print(f"| {kind} | {r:.4f} | `{label}` | {f'{target:.0%}' if target else '—'} | {within} |")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: compare.py PEAKS_CSV TRANSFORMERS_CSV")
    ours, theirs = read(argv[1]), read(argv[2])
    worst = Worst()
    print("### Each point (ratio: peakfit / transformers)\n")
    point_table(ours, theirs, worst)
    print("\n### Activation growth per sample (least squares over the batches)\n")
    growth_table(ours, theirs, worst)
    print("\n### Worst cases\n")
    summary(worst)


if __name__ == "__main__":
    main(sys.argv)
