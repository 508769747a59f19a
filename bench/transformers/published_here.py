#!/usr/bin/env python3
"""bench/transformers/published_here.py: the published table beside transformers and peakfit here.

    python3 bench/transformers/published_here.py REFERENCE PEAKS_CSV TRANSFORMERS_CSV
    peakfit grid SWEEP | python3 bench/transformers/published_here.py --indices REFERENCE

REFERENCE is the published table (bench/reference/smollm2-135m-cpu.csv: MB above
the baseline), PEAKS_CSV peakfit's reproduction of it (bench/reproduce-smollm2.sh),
TRANSFORMERS_CSV bench/transformers/measure.py's run of the published script's
protocol on the same points (bench/transformers/published-here.sh). Writes, as
markdown, each published training row with the sdpa point of each side (RSS
above the baseline, in MB) and the ratios: transformers here / published,
peakfit / published, peakfit / transformers. --indices reads a sweep's point ids
(peakfit grid) and prints the 0-based index of each one that a published
training row names (sdpa; its technique, batch and seq_len), one per line.
Standard library only.
"""
import csv
import sys

MB_PER_MIB = 1.048576


def published_rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["technique"] not in ("load", "inference")]


def sdpa_points(path):
    """(technique, batch, seq_len) -> the sdpa row of a peaks.csv."""
    with open(path, newline="") as f:
        return {(r["technique"], r["batch"], r["seq_len"]): r for r in csv.DictReader(f)
                if r["attention"] == "sdpa"}


def mb(row):
    if row is None or row.get("status") != "ok" or not row.get("peak_above_baseline_mib"):
        return None
    return float(row["peak_above_baseline_mib"]) * MB_PER_MIB


def cell(value, fmt):
    return "-" if value is None else fmt.format(value)


def ratio(a, b):
    return None if a is None or b is None else a / b


def table(reference, peaks, transformers):
    ours = sdpa_points(peaks)
    with open(transformers, newline="") as f:
        theirs = {r["point_id"]: r for r in csv.DictReader(f)}
    print("| technique | batch | seq_len | published (MB) | transformers here (MB) | ratio |"
          " peakfit (MB) | ratio | peakfit / transformers |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in published_rows(reference):
        point = ours.get((row["technique"], row["batch"], row["seq_len"]))
        published = float(row["peak_above_baseline_mb"])
        here = mb(theirs.get(point["point_id"])) if point else None
        peakfit = mb(point)
        print(f"| {row['technique']} | {row['batch']} | {row['seq_len']} | {published:.0f} |"
              f" {cell(here, '{:.0f}')} | {cell(ratio(here, published), '{:.3f}')} |"
              f" {cell(peakfit, '{:.0f}')} | {cell(ratio(peakfit, published), '{:.3f}')} |"
              f" {cell(ratio(peakfit, here), '{:.3f}')} |")


def id_key(point_id):
    """(technique, batch, seq_len, attention) of a point id:
    job/model/device/technique/[lora...]/attention/bB/sS/stN/rN."""
    parts = point_id.split("/")
    return parts[3], parts[-4][1:], parts[-3][1:], parts[-5]


def indices(reference, ids):
    wanted = {(r["technique"], r["batch"], r["seq_len"]) for r in published_rows(reference)}
    for k, point_id in enumerate(ids):
        technique, batch, seq_len, attention = id_key(point_id)
        if attention == "sdpa" and (technique, batch, seq_len) in wanted:
            print(k)


def main(argv):
    if argv[1:2] == ["--indices"]:
        indices(argv[2], [line.strip() for line in sys.stdin if line.strip()])
        return
    table(*argv[1:4])


if __name__ == "__main__":
    main(sys.argv)
