# peakfit auto --slices: tiny (4 layers) measured cut to 1 and 2 layers,
# one job per depth in DIR/auto.sweep, and the whole model's A from the fit
# across depths, which must equal the A of the whole model measured at the
# same shapes (the allocator level is exact to the byte, so within 0.1 %).
# A model whose weights do not fit this machine (Mistral-7B, 29 GB of fp32
# weights) is measured in slices without being asked; the option's refusals
# are exit 2 with their message.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)

"$PEAKFIT" auto tiny --slices --technique full --seq-len 128 --threads 1 -o "$TMP/s" >"$TMP/out" 2>"$TMP/err" ||
    fail "auto --slices: exit status $?: $(tail -3 "$TMP/err")"
expect_eq "jobs, one per depth" "$(grep -E '^\[|^layers' "$TMP/s/auto.sweep" | tr '\n' ' ')" \
    "[global] [auto-full-l1] layers = 1 [auto-full-l2] layers = 2 "
# Every depth b = 1, 2 and 3 (the floor, forward's line; with two depths
# a third point gives the fit a residual); the shallowest also three points
# above the knee, so the step's line has a residual too (tiny's b = 2 and 3
# are, and b = 4).
grep -q "^full/l1: 4 points measured, 0 failed, .* 3 points above the knee" "$TMP/out" || fail "depth 1: $(cat "$TMP/out")"
grep -q "^full/l2: 3 points measured, 0 failed, .* b = 1, 2 and 3 give" "$TMP/out" || fail "depth 2: $(cat "$TMP/out")"
expect_eq "the batches" "$(grep '^batch' "$TMP/s/auto.sweep" | tr '\n' ' ')" "batch = 1, 2, 3, 4 batch = 1, 2, 3 "
# Slices are fitted at the allocator level alone: by default one step on
# a state made before it (warm = 1), which reaches it in half the time;
# --warm 0 given keeps the plain loop's two steps.
expect_eq "slices' default: one warm step" "$(grep -E '^(warm|steps) =' "$TMP/s/auto.sweep" | tr '\n' ' ')" \
    "warm = 1 steps = 1 "
PEAKFIT_WORKER=$TMP/none "$PEAKFIT" auto tiny --slices --warm 0 --technique full --seq-len 128 -o "$TMP/w0" >/dev/null 2>&1
expect_eq "--slices --warm 0: the plain loop" "$(grep -E '^(warm|steps) =' "$TMP/w0/auto.sweep" | tr '\n' ' ')" \
    "warm = 0 "
line=$(grep '^full: the whole model.s A (tensor) = ' "$TMP/out") || fail "no whole-model A: $(cat "$TMP/out")"
grep -q ', 4 layers from slices 1 2$' <<<"$line" || fail "the depths are not named: $line"
grep -q "^the whole model (4 layers) is fitted from its slices: \`peakfit calc $TMP/s --budget SIZE --metric tensor\` plans with it$" \
    "$TMP/out" || fail "no pointer to calc: $(cat "$TMP/out")"
grep -q "^RSS is not predicted from slices: the whole model's heap is not in them; plan for a GPU at the allocator level (calc --metric tensor), or measure the whole model for RSS$" \
    "$TMP/out" || fail "no word on RSS: $(cat "$TMP/out")"
sliced=$(sed -E 's/.* = ([0-9.]+) MiB\/token.*/\1/' <<<"$line")

# The whole model at the slices' largest batches: its own A.
printf '[whole]\nmodel = tiny\ntechnique = full\nseq_len = 128\nthreads = 1\nbatch = 4, 8, 16\n' >"$TMP/w.sweep"
"$PEAKFIT" run "$TMP/w.sweep" -o "$TMP/w" >/dev/null 2>"$TMP/err" || fail "whole: $(tail -3 "$TMP/err")"
"$PEAKFIT" fit "$TMP/w" >/dev/null 2>&1 || fail "fit of the whole model: exit status $?"
whole=$(python3 -c 'import json, sys
g = [g for g in json.load(open(sys.argv[1]))["groups"] if g["metric"] == "tensor"][0]
print(g["linear"]["coefficients"][1])' "$TMP/w/fit.json")
python3 -c "import sys; s, w = $sliced, $whole; sys.exit(abs(s / w - 1) > 0.001)" ||
    fail "A from slices $sliced MiB/token, the whole model's $whole"

# Too big for this machine: slices without --slices (no worker here, so
# the round records nothing; what matters is what auto chose to run).
mem_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
if [ "$mem_kib" -lt $((28 * 1024 * 1024)) ]; then
    PEAKFIT_WORKER=$TMP/none "$PEAKFIT" auto "$root/tests/fixtures/models/Mistral-7B-v0.1" --technique lora \
        --seq-len 64 -o "$TMP/m" >/dev/null 2>"$TMP/err"
    grep -q '^peakfit auto: measuring slices of it instead (--slices)$' "$TMP/err" || fail "Mistral-7B: $(cat "$TMP/err")"
    expect_eq "Mistral-7B's jobs" "$(grep '^\[' "$TMP/m/auto.sweep" | tr '\n' ' ')" \
        "[global] [auto-lora-l1] [auto-lora-l2] [auto-lora-l4] "
    # --warm 1: one step on a state made before it, in the sweep's global.
    PEAKFIT_WORKER=$TMP/none "$PEAKFIT" auto "$root/tests/fixtures/models/Mistral-7B-v0.1" --technique lora --warm 1 \
        --seq-len 64 -o "$TMP/mw" >/dev/null 2>&1
    expect_eq "--warm 1's sweep" "$(grep -E '^(warm|steps) =' "$TMP/mw/auto.sweep" | tr '\n' ' ')" "warm = 1 steps = 1 "
    # Full training's 4 layers hold 17.3 GiB of states: more than a 24 GiB machine leaves them.
    PEAKFIT_WORKER=$TMP/none "$PEAKFIT" auto "$root/tests/fixtures/models/Mistral-7B-v0.1" --technique full \
        --seq-len 64 -o "$TMP/mf" >/dev/null 2>"$TMP/err"
    grep -q '^peakfit auto: --slices: 4 layers of Mistral-7B-v0.1 hold 17[0-9]* MiB of weights, gradients and optimizer state, more than 70 % of the memory free here less 1 GiB: not measured$' \
        "$TMP/err" || fail "Mistral-7B full at 4 layers: $(cat "$TMP/err")"
else
    echo "    note: this machine holds Mistral-7B's fp32 weights: the fallback to slices is not exercised"
fi

bad() {
    local want=$1 err rc
    shift
    err=$("$PEAKFIT" auto "$@" -o "$TMP/bad" 2>&1 >/dev/null); rc=$?
    expect_eq "auto $*: exit status" "$rc" 2
    expect_eq "auto $*: message" "$(head -1 <<<"$err")" "$want"
}
bad "peakfit auto: --slices fits the allocator level: RSS is not predicted from slices (the whole model's heap is not in them); measure the whole model for RSS" \
    tiny --slices --metric rss --technique full --seq-len 64
bad "peakfit auto: --budget measures the whole model, --slices a cut of it: plan a budget from slices with \`peakfit calc DIR --budget SIZE\`" \
    tiny --slices --budget 1GiB --technique full --seq-len 64
printf '{"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 256}\n' \
    >"$TMP/two.json"
bad "peakfit: --slices: two has 2 layers; a fit across depths needs two depths below it (1 and 2), so a model of 3 layers or more: measure it whole" \
    "$TMP/two.json" --slices --technique full --seq-len 64
[ ! -e "$TMP/bad/peaks.csv" ] || fail "a refused auto wrote peaks.csv"
