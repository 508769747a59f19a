#!/usr/bin/env python3
"""How RSS's model was chosen (issue #18): leave-one-out on the training points only.

For each training set (the automated sweeps' own points, as committed at BASE, before any
held-out point was scored with the new model; and the dense SmolLM2 grid) and each of its
points, the point is marked held out and `peakfit fit` predicts it from the others, with
OLD (the fit before: RSS's own line above the allocator's floor points, its floor flat
with one token count there, the lower bound the least RSS/allocator ratio times the
allocator's prediction) and NEW (fit/group_gap.c: the allocator's fit plus the heap's
gap). The held-out sets of bench/auto-sweep.sh are not used here.
OLD is BEFORE's peakfit (default 813d8e5, the base, before fit/group_gap.c), built from git
history (bench/old-build.sh), or OLD_PEAKFIT where given.
Usage: bench/rss-model-cv.py [OLD_PEAKFIT [NEW_PEAKFIT [BASE]]]  (prints the table; NEW_PEAKFIT
default: PEAKFIT, else bin/peakfit; bench/run rss-model-cv [OUT [OLD_PEAKFIT]])

What it showed (bench/results/rss-model-cv.txt): the new model is better at qwen-auto 6x128
(+2.61 -> -0.26), the LoRA groups' smallest batch (+2.60/+2.47/+5.08 -> -0.40/-2.60/+0.66),
smollm2-128's 3x128 (+6.52 -> +1.08) and the eager grid's 1x256 and 2x256; worse at smollm2-auto
1x256 (its only floor point: without it there is no floor; -10.72 -> -13.73) and 2x256 (+1.70 ->
+2.81); equal elsewhere. RSS on SmolLM2's floor is concave in T (2363, 2617, 2695 MiB at T = 128,
256, 384): from b 2-3 the floor's line misses b = 1 by +7.44%; b = 3 from b 1-2 is +1.08% because
the floor's rise is capped under the points above the knee (a point there is max(floor, line)),
and at the allocator's A (the heap keeps no more per token than the activations). With one token
count on the floor (smollm2-auto) the new model's rise is proportional to T (nothing kept at
T = 0), checked against the multi-point floors here (a numpy prototype, which also printed the
held-out sets' errors beside these; nothing was tuned to them, and the rule has no parameter):
from Qwen's b = 2 alone it predicts b 1, 4, 5 within -0.4/+2.3/+2.8%, a flat floor
+2.7/-3.4/-5.9%; from SmolLM2-128's b = 2 alone b 1 and 3 +3.3/+3.6%, flat +10.7/-2.9%.
Searching RSS's own knee past the allocator's (profiling the floor over more points) was tried
in a numpy prototype of both models and changed no leave-one-out figure by more than 0.3%: not
kept (simpler).
"""
import atexit, csv, io, json, os, shutil, subprocess, sys, tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BEFORE = os.environ.get("BEFORE", "813d8e5")
NEW = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("PEAKFIT", os.path.join(ROOT, "bin/peakfit"))
BASE = sys.argv[3] if len(sys.argv) > 3 else "813d8e5"


def built_before():
    """BEFORE's bin/peakfit, built by bench/old-build.sh in a folder removed at exit."""
    tmp = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, tmp, True)
    subprocess.run([os.path.join(ROOT, "bench/old-build.sh"), BEFORE, tmp, "bin/peakfit"], check=True)
    return os.path.join(tmp, "bin/peakfit")


OLD, OLD_NAME = (sys.argv[1], os.path.basename(sys.argv[1])) if len(sys.argv) > 1 else (built_before(), f"{BEFORE}:peakfit")
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
    print(f"# bench/rss-model-cv.py {OLD_NAME} {os.path.basename(NEW)} {BASE}: leave-one-out RSS error (%),")
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
