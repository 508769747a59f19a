#!/usr/bin/env python3
"""Writes one peaks.csv from the fitted rows of some and the held-out rows of others
(bench/auto-sweep.sh's `both` stage: two auto sweeps at two seq_lens as one training
set). Columns by name, the union of the inputs' headers in order (empty where a file
has none); training rows get holdout 0, held-out rows holdout 1; a held-out row whose
(technique, batch, seq_len) is on the training grid is left out (it is not held out),
and of a held-out point measured more than once only the last ok row is kept.
--keep-holdout: training rows keep their own holdout value (a grid whose sweep holds
some of its points out already: bench/smollm2-heldout.sh).
Usage: bench/peaks-combine.py [--keep-holdout] OUT.csv TRAIN.csv... -- HELD.csv..."""
import csv
import sys


def main(out, args, keep=False):
    if out == "--keep-holdout":
        return main(args[0], args[1:], True)
    if "--" not in args:
        sys.exit(__doc__.split("Usage: ")[1])
    k = args.index("--")
    header, train, held = [], [], {}
    for i, path in enumerate(args[:k] + args[k + 1:]):
        with open(path, newline="") as f:
            r = csv.DictReader(f)
            header += [c for c in r.fieldnames if c not in header]
            for row in r:
                key = (row["technique"], row["batch"], row["seq_len"])
                if i < k:
                    train.append(dict(row, holdout=row.get("holdout") or "0") if keep else dict(row, holdout="0"))
                elif row["status"] == "ok":
                    held[key] = dict(row, holdout="1")
    grid = {(r["technique"], r["batch"], r["seq_len"]) for r in train}
    kept = [r for key, r in held.items() if key not in grid]
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header, restval="", lineterminator="\n")
        w.writeheader()
        w.writerows(train + kept)
    print(f"{out}: {len(train)} fitted rows; held out: " + " ".join(f"{r['batch']}x{r['seq_len']}" for r in kept) +
          "; on the training grid, not held out: " + (" ".join(f"{b}x{s}" for (_, b, s) in held if (_, b, s) in grid) or "none"))


main(sys.argv[1], sys.argv[2:])
