#!/usr/bin/env bash
# The whole model from slices of it, checked against the whole model:
#   bench/slices/proof.sh NAME
# measures bench/slices/NAME-slices.sweep (slices of a few decoder layers)
# and bench/slices/NAME-whole.sweep (the whole model) into
# bench/results/slices-NAME/{slices,whole} (resumable: run it again to go
# on), puts both peaks.csv together in bench/results/slices-NAME/both,
# fits them (fit/depth_fit.h: the fit from slices, the whole model's own
# points held out) and writes bench/results/slices-NAME/summary.txt: A
# from the slices against A of the whole model's own fit, per metric, and
# each whole-model point's error against the prediction from slices.
# Heavy points (the whole model) run one at a time under flock on
# $BIGMEM_LOCK when it is set; the load before and after each run is kept
# in run.txt. SKIP_RUN=1 fits what is there, measuring nothing; without a
# whole-model sweep (a model too big to build here) the summary gives the
# fit from slices alone. REFERENCE="A.csv B.csv" (or "A.csv,B.csv": one
# word, as bench/entries.tsv gives it): committed peaks.csv files whose rows
# of the same model, technique, attention and seq_len (measured by peakfit's
# worker, the whole model) are compared too: whole-model points measured
# before, by other runs.
set -euo pipefail
name=${1:?usage: bench/slices/proof.sh NAME (bench/slices/NAME-slices.sweep and NAME-whole.sweep)}
root=$(cd "$(dirname "$0")/../.." && pwd)
peakfit=${PEAKFIT:-$root/bin/peakfit}
out=${OUT:-$root/bench/results/slices-$name}
mkdir -p "$out/both"

# run PART: measure one sweep, with the wall time and the load around it.
run() {
    local lock=()
    [ "$1" = whole ] && [ -n "${BIGMEM_LOCK:-}" ] && lock=(flock "$BIGMEM_LOCK")
    echo "$1: start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
    local t0=$SECONDS
    "${lock[@]}" nice "$peakfit" run "$root/bench/slices/$name-$1.sweep" -o "$out/$1" >>"$out/run.txt" 2>&1
    echo "$1: end $(date -u +%FT%TZ), $((SECONDS - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
}
[ -n "${SKIP_RUN:-}" ] || { run slices; [ ! -e "$root/bench/slices/$name-whole.sweep" ] || run whole; }

# Paths relative to the checkout, so the committed file holds no machine's
# paths; the fit reads the config there (run from the checkout's root).
cd "$root"
{ cat "$out/slices/peaks.csv"; [ ! -e "$out/whole/peaks.csv" ] || tail -n +2 "$out/whole/peaks.csv"; } |
    sed "s|$root/||g" >"$out/both/peaks.csv"
"$peakfit" fit "$out/both" >"$out/both/fit.txt" 2>&1
references=${REFERENCE:-}
python3 - "$out" ${references//,/ } >"$out/summary.txt" <<'PY'
import csv, json, sys
out, references = sys.argv[1], sys.argv[2:]
groups = json.load(open(f"{out}/both/fit.json"))["groups"]
def a(g): return g["linear"]["coefficients"][1]
print(f"The whole model from its slices ({out.split('/')[-1]}): peakfit fit of both/peaks.csv")
for metric in ("tensor", "rss"):
    sl = [g for g in groups if g["from_slices"] and g["metric"] == metric]
    whole = [g for g in groups if not g["from_slices"] and not g["layers"] and g["metric"] == metric]
    if not sl:
        continue
    s = sl[0]
    print(f"\n{metric}: fit from slices, layers {s['layers']}: F {s['linear']['coefficients'][0]:.1f} MiB, "
          f"A {a(s):.6f} MiB/token +- {1.96 * s['linear']['covariance'][1][1] ** 0.5:.6f}, floor {s['floor']['p_mib']:.1f} MiB")
    if not whole:
        continue
    w = whole[0]
    above = w["floor"]["n_above_knee"]
    print(f"  A whole model   {a(w):.6f} MiB/token (its own fit of {w['n']} points, {above} above its knee, {w['model_choice']})")
    if above >= 2 and a(w) > 0:
        print(f"  A ratio         {a(s) / a(w):.5f} ({100 * (a(s) / a(w) - 1):+.3f} %)")
    else:
        print("  A ratio         - (the whole model's own fit has fewer than 2 points above its knee)")
    print(f"  floor from slices {s['floor']['p_mib']:.1f} MiB; whole model's own {w['floor']['p_mib'] if w['floor']['found'] else 'none'}")
    print("  whole-model points against the prediction from slices:")
    print("    batch seq_len  measured MiB  predicted MiB  +- 95% MiB   error %  inside")
    for h in s["holdout"]:
        print(f"    {h['batch']:5d} {h['seq_len']:7d} {h['measured_mib']:13.1f} {h['predicted_mib']:14.1f}"
              f" {h['predicted_pi95_mib']:11.1f} {h['error_pct']:+9.3f}  {'yes' if h['inside_interval'] else 'no'}")
    worst = max([abs(h["error_pct"]) for h in s["holdout"]] or [0])
    print(f"  largest error {worst:.3f} % over {len(s['holdout'])} points")
    column = {"tensor": "tensor_peak_mib", "rss": "peak_above_baseline_mib"}[metric]
    def predict(t):
        f = s["floor"]
        line = s["linear"]["coefficients"][0] + a(s) * t
        return max(line, f["p_mib"] + f["slope_mib_per_token"] * (t - f["mean_tokens"])) if f["found"] else line
    rows = []
    for ref in references:
        for r in csv.DictReader(open(ref)):
            if (r["status"] == "ok" and r["technique"] == s["technique"] and r["attention"] == s["attention"]
                    and int(r["seq_len"]) in s["measured"]["seq_lens"] and r.get("warm", "1") in ("1", "")
                    and r.get("measured_by", "worker") in ("worker", "") and not r.get("command")
                    and not r.get("layers") and r["model"].lower() == s["model"].lower()):
                rows.append((ref, r))
    if rows:
        print(f"  whole-model points measured before (REFERENCE), against the prediction from slices:")
        print("    batch seq_len  measured MiB  predicted MiB   error %  torch    file")
        for ref, r in rows:
            t, y = int(r["batch"]) * int(r["seq_len"]), float(r[column])
            print(f"    {int(r['batch']):5d} {int(r['seq_len']):7d} {y:13.1f} {predict(t):14.1f} "
                  f"{100 * (predict(t) - y) / y:+9.3f}  {r['torch_version']:8s} {ref}")
        # Their own A: a line through the distinct token counts above the lowest peak (the floor).
        pts = sorted({(int(r["batch"]) * int(r["seq_len"]), float(r[column])) for _, r in rows})
        low = min(y for _, y in pts)
        above = [(t, y) for t, y in pts if y > low + 0.5]
        if metric == "tensor" and len({t for t, _ in above}) >= 2:
            n, mt = len(above), sum(t for t, _ in above) / len(above)
            my = sum(y for _, y in above) / n
            aw = sum((t - mt) * (y - my) for t, y in above) / sum((t - mt) ** 2 for t, _ in above)
            print(f"  A of those points above their floor ({n}): {aw:.6f} MiB/token; from slices / theirs "
                  f"{a(s) / aw:.6f} ({100 * (a(s) / aw - 1):+.4f} %)")
PY
cat "$out/summary.txt"
