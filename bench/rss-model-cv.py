#!/usr/bin/env python3
"""How RSS's model was chosen (issue #18): leave-one-out on the training points only.

For each training set (the automated sweeps' own points, as committed at BASE, before any
held-out point was scored with the new model; and the dense SmolLM2 grid) and each of its
points, the point is marked held out and `peakfit fit` predicts it from the others, with
OLD (the fit before: RSS's own line above the allocator's floor points, its floor flat
with one token count there, the lower bound the least RSS/allocator ratio times the
allocator's prediction) and NEW (fit/group_gap.c: the allocator's fit plus the heap's
gap). The held-out sets of bench/auto-sweep.sh are not used here.
Usage: bench/rss-model-cv.py OLD_PEAKFIT [NEW_PEAKFIT [BASE]]  (prints the table; NEW_PEAKFIT
default: PEAKFIT, else bin/peakfit; bench/run rss-model-cv OUT OLD_PEAKFIT)
"""
import csv, io, json, os, subprocess, sys, tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
if len(sys.argv) < 2:
    sys.exit(__doc__.split("Usage: ")[1])
OLD = sys.argv[1]
NEW = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("PEAKFIT", os.path.join(ROOT, "bin/peakfit"))
BASE = sys.argv[3] if len(sys.argv) > 3 else "813d8e5"
SETS = [("qwen-auto", "bench/results/auto-sweep/qwen-auto/peaks.csv"),
        ("smollm2-auto", "bench/results/auto-sweep/smollm2-auto/peaks.csv"),
        ("smollm2-128-auto", "bench/results/auto-sweep/smollm2-128-auto/peaks.csv"),
        ("smollm2-135m-cpu (dense)", "bench/results/smollm2-135m-cpu/peaks.csv")]
GROUP = ("technique", "attention", "lora_rank")


def committed_rows(path):
    text = subprocess.run(["git", "-C", ROOT, "show", f"{BASE}:{path}"], capture_output=True, text=True,
                          check=True).stdout
    reader = csv.DictReader(io.StringIO(text))
    return reader.fieldnames, [r for r in reader if r["status"] == "ok" and r["holdout"] == "0"]


def loo_error(peakfit, header, group, i):
    """RSS error (%) of group[i] predicted from the rest of its group, and whether inside."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "peaks.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header)
            w.writeheader()
            for k, r in enumerate(group):
                w.writerow(dict(r, holdout="1" if k == i else "0"))
        subprocess.run([peakfit, "fit", d], capture_output=True, check=False)
        try:
            fit = json.load(open(os.path.join(d, "fit.json")))
        except (OSError, ValueError):
            return None
        for g in fit["groups"]:
            if g["metric"] == "rss" and g.get("holdout"):
                h = g["holdout"][0]
                return h["error_pct"], h["inside_interval"]
    return None


def main():
    print(f"# bench/rss-model-cv.py {os.path.basename(OLD)} {os.path.basename(NEW)} {BASE}: leave-one-out RSS error (%),")
    print("# each training point predicted from the others of its group (points as committed at the base")
    print("# commit); '*' = outside its 95% prediction interval; '-' = no prediction (no line left).")
    worst = {"old": [], "new": []}
    for name, path in SETS:
        header, rows = committed_rows(path)
        groups = {}
        for r in rows:
            if r["technique"] in ("full", "lora") and int(r["batch"]) > 0:
                groups.setdefault(tuple(r[k] for k in GROUP), []).append(r)
        for key, group in sorted(groups.items()):
            if len(group) < 3:
                continue
            group.sort(key=lambda r: (float(r["tokens"]), int(r["batch"])))
            print(f"{name} {'/'.join(k for k in key if k)}:")
            for label, pf in (("old", OLD), ("new", NEW)):
                cells = []
                for i, r in enumerate(group):
                    e = loo_error(pf, header, group, i)
                    cells.append(f"{r['batch']}x{r['seq_len']} " + ("-" if e is None else
                                                                  f"{e[0]:+.2f}{'' if e[1] else '*'}"))
                    if e is not None:
                        worst[label].append(abs(e[0]))
                print(f"  {label}: " + ", ".join(cells))
    for label in ("old", "new"):
        v = sorted(worst[label])
        print(f"{label}: {len(v)} predictions, median |error| {v[len(v) // 2]:.2f}%, largest {v[-1]:.2f}%, "
              f"{sum(x <= 3 for x in v)} within 3%")


main()
