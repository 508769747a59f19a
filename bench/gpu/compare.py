#!/usr/bin/env python3
"""bench/gpu/compare.py: peakfit's GPU peaks beside PyTorch's, as markdown.

    python3 bench/gpu/compare.py PEAKS_CSV REFERENCE_CSV [REFERENCE_FOREACH_CSV]

Prints, for each point of REFERENCE_CSV (bench/gpu/reference.py's output),
PyTorch's max_memory_allocated, peakfit's gpu_allocated_peak_mib and their
ratio, the same for reserved, and the largest deviation. Standard library only.
"""
import csv
import sys


def read(path, key="point_id"):
    with open(path, newline="") as f:
        return {r[key]: r for r in csv.DictReader(f)}


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def ratio(a, b):
    return f"{a / b:.4f}" if a is not None and b else "—"


def cell(v):
    return f"{v:.1f}" if v is not None else "—"


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: compare.py PEAKS_CSV REFERENCE_CSV [REFERENCE_FOREACH_CSV]")
    ours, ref = read(argv[1]), read(argv[2])
    ref_foreach = read(argv[3]) if len(argv) > 3 else {}
    print("| point | PyTorch allocated (MiB) | peakfit allocated (MiB) | peakfit / PyTorch "
          "| PyTorch reserved (MiB) | peakfit reserved (MiB) | peakfit / PyTorch"
          + (" | PyTorch allocated, AdamW foreach (MiB) |" if ref_foreach else " |"))
    print("|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if ref_foreach else ""))
    worst, worst_id, n = 0.0, "", 0
    for pid, r in ref.items():
        p = ours.get(pid, {})
        ta, tr = num(r.get("torch_allocated_peak_mib")), num(r.get("torch_reserved_peak_mib"))
        pa, pr = num(p.get("gpu_allocated_peak_mib")), num(p.get("gpu_reserved_peak_mib"))
        extra = ""
        if ref_foreach:
            extra = f" {cell(num(ref_foreach.get(pid, {}).get('torch_allocated_peak_mib')))} |"
        note = f" ({r['error']})" if r.get("error") else ""
        print(f"| `{pid}`{note} | {cell(ta)} | {cell(pa)} | {ratio(pa, ta)} | {cell(tr)} | {cell(pr)} "
              f"| {ratio(pr, tr)} |{extra}")
        if ta and pa is not None:
            n += 1
            if abs(pa / ta - 1) >= abs(worst):
                worst, worst_id = pa / ta - 1, pid
    print()
    if n:
        print(f"{n} points compared; the largest deviation of peakfit's allocated peak from PyTorch's is "
              f"{worst * 100:+.2f} % (`{worst_id}`); goal: within 2 %.")
    else:
        print("No point could be compared.")


if __name__ == "__main__":
    main(sys.argv)
