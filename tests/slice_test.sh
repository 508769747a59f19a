# The `layers` setting, a slice of a model: `params --layers` counts it
# (each layer the same, so the counts are a line in the depth); a sweep's
# `layers = N` reaches the point id, the worker (a real process builds N
# layers: its parameter count is params' for N), peaks.csv's column and the
# fit's group key; grid --peaks expects less of a slice; a slice deeper
# than its model, or with a checkpoint's weights, is refused at its line;
# and a model too big to build here (Mistral-7B) can still be sliced.
source "$(dirname "$0")/lib.sh"
set -o pipefail
root=$(cd "$TESTS/.." && pwd)
value() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }

p1=$(value params "$("$PEAKFIT" params smollm2-135m --layers 1)")
p2=$(value params "$("$PEAKFIT" params smollm2-135m --layers 2)")
p30=$(value params "$("$PEAKFIT" params smollm2-135m)")
expect_eq "params is a line in the depth" "$((p1 + 29 * (p2 - p1)))" "$p30"
expect_eq "a slice's depth is printed" "$(value layers "$("$PEAKFIT" params smollm2-135m --layers 3)")" 3
err=$("$PEAKFIT" params smollm2-135m --layers 31 2>&1 >/dev/null); rc=$?
expect_eq "params deeper than the model: exit status" "$rc" 2
expect_eq "params deeper than the model: message" "$err" \
    "peakfit params: --layers 31 is more than smollm2-135m's 30 decoder layers"

printf '[global]\nmodel = tiny\ntechnique = full\nbatch = 2\nseq_len = 8\nwarm = 1\n[whole]\n[slice]\nlayers = 1\n' \
    >"$TMP/s.sweep"
"$PEAKFIT" grid "$TMP/s.sweep" --peaks >"$TMP/ids" 2>"$TMP/peaks" || fail "grid: exit status $?"
expect_eq "ids" "$(tr '\n' ' ' <"$TMP/ids")" \
    "whole/tiny/cpu/full/sdpa/b2/s8/st2/r0 slice/tiny/cpu/full/layers1/sdpa/b2/s8/st2/r0 "
whole=$(sed -n 's|^  whole/.*: expected peak \([0-9]*\) MiB (arithmetic)$|\1|p' "$TMP/peaks")
slice=$(sed -n 's|^  slice/.*: expected peak \([0-9]*\) MiB (arithmetic)$|\1|p' "$TMP/peaks")
expect_gt "grid --peaks: the whole model above its slice" "$whole" "$slice"

# Refused at the line that says it.
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 2\nseq_len = 8\nlayers = 5\n' >"$TMP/deep.sweep"
err=$("$PEAKFIT" grid "$TMP/deep.sweep" 2>&1 >/dev/null); rc=$?
expect_eq "deeper than the model: exit status" "$rc" 2
expect_eq "deeper than the model: message" "$err" \
    "peakfit: $TMP/deep.sweep:2: layers = 5 is more than tiny's 4 decoder layers: a slice is at most the whole model"
: >"$TMP/w.safetensors"
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 2\nseq_len = 8\nlayers = 2\nweights = w.safetensors\n' \
    >"$TMP/weights.sweep"
err=$("$PEAKFIT" grid "$TMP/weights.sweep" 2>&1 >/dev/null); rc=$?
expect_eq "a slice with weights: exit status" "$rc" 2
expect_eq "a slice with weights: message" "$err" "peakfit: $TMP/weights.sweep:2: layers = 2 and weights together: a \
checkpoint holds every layer, so a slice is built with random weights (its memory is the same); drop one of them"

# Mistral-7B's fp32 weights (29 GB) fit no machine like CI's; two of its 32 layers do.
mistral=$root/tests/fixtures/models/Mistral-7B-v0.1
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
printf '[j]\nmodel = %s\ntechnique = full\nbatch = 1\nseq_len = 8\nlayers = 2\n' "$mistral" >"$TMP/m.sweep"
"$PEAKFIT" grid "$TMP/m.sweep" >/dev/null || fail "Mistral-7B sliced to 2 layers: grid exit status $?"
if [ "$mem_kib" -lt $((28 * 1024 * 1024)) ]; then
    sed -i '/^layers/d' "$TMP/m.sweep"
    err=$("$PEAKFIT" grid "$TMP/m.sweep" 2>&1 >/dev/null)
    grep -q "fp32 weights alone, .* (\`layers = N\` builds a slice of N decoder layers)$" <<<"$err" ||
        fail "Mistral-7B whole: $err"
fi

# Measured: a real worker builds the slice; peaks.csv and the fit keep it apart.
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" >/dev/null 2>"$TMP/run.err" || fail "run: $(cat "$TMP/run.err")"
row=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $c["job"] ":" $c["layers"] ":" $c["params"] ":" $c["status"] }' "$TMP/out/peaks.csv" | sort | tr '\n' ' ')
tiny1=$(value params "$("$PEAKFIT" params tiny --layers 1)")
tiny4=$(value params "$("$PEAKFIT" params tiny)")
expect_eq "peaks.csv: job, layers, the worker's parameter count" "$row" "slice:1:$tiny1:ok whole::$tiny4:ok "
"$PEAKFIT" fit "$TMP/out" >"$TMP/fit.out" 2>&1 || fail "fit: $(cat "$TMP/fit.out")"
grep -q "tiny / cpu / full / sdpa / layers 1" "$TMP/fit.out" || fail "no slice group in the fit: $(cat "$TMP/fit.out")"
layers=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["layers"] }' "$TMP/out/fit.csv" |
    sort -u | tr "\n" " ")
expect_eq "fit.csv's layers column" "$layers" " 1 "

# The whole model from its slices (fit/depth_fit.h): a group fit like any
# other, which the whole model's own point checks as held out, and which
# calc plans with where the whole model was never measured. The allocator
# level must hold to 1 %; RSS is not fitted from slices (the whole model's
# heap is not in them), and calc's default plan on RSS says so.
printf '[global]\nmodel = tiny\ntechnique = full\nseq_len = 16\nbatch = 1, 2, 4\n[s1]\nlayers = 1\n[s2]\nlayers = 2\n[whole]\nbatch = 3\n' \
    >"$TMP/d.sweep"
"$PEAKFIT" run "$TMP/d.sweep" -o "$TMP/d" >/dev/null 2>"$TMP/d.err" || fail "run: $(cat "$TMP/d.err")"
"$PEAKFIT" fit "$TMP/d" >"$TMP/d.fit" 2>&1 || fail "fit: $(cat "$TMP/d.fit")"
grep -q "^  tiny / cpu / full / sdpa / layers 4 (slices 1 2): from slices of 1 2 layers (6 points)" "$TMP/d.fit" ||
    fail "no fit from slices: $(cat "$TMP/d.fit")"
held=$(python3 -c 'import json, sys
for g in json.load(open(sys.argv[1]))["groups"]:
    if g["from_slices"]:
        h = g["holdout"][0]
        print(g["metric"], g["layers"], h["batch"], abs(h["error_pct"]) < 1 if g["metric"] == "tensor" else type(h["inside_interval"]) is bool)' \
    "$TMP/d/fit.json" | tr '\n' ';')
expect_eq "fit.json: the fit from slices and the whole model's point held out" "$held" "tensor 4 (slices 1 2) 3 True;"
mkdir "$TMP/only"
awk -F, 'NR == 1 || $2 != "whole"' "$TMP/d/peaks.csv" >"$TMP/only/peaks.csv"
"$PEAKFIT" calc "$TMP/only" --budget 2GiB --target-batch 8 --metric tensor >"$TMP/calc.out" 2>&1
grep -q "^plan for tiny / cpu / full / sdpa / layers 4 (slices 1 2), seq_len 16 (the allocator level: no process term)$" "$TMP/calc.out" ||
    fail "calc does not plan with the fit from slices: $(cat "$TMP/calc.out")"
expect_calc_error "calc on RSS from slices" \
    "peakfit: $TMP/only: the whole model's fit for technique full comes from slices, at the allocator level only: RSS is not predicted from slices (the whole model's heap is not in them); plan for a GPU at the allocator level (calc --metric tensor), or measure the whole model" \
    "$TMP/only" --budget 2GiB
echo "slice_test: ok"
