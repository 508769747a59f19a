# examples/transformers/train_step.py on CPU with a tiny llama config
# (bench/transformers/configs/tiny.json) at a few points: its report lines
# (keys the runner reads, one step time per step, a loss near ln(vocab)),
# the live tensor peak beside the built-in worker's at the same point, the
# growth with the batch, the phases of each technique, and nothing written
# without PEAKFIT_REPORT_FD.
source "$(dirname "$0")/lib.sh"
source "$TESTS/torch_python.sh"
ROOT=$(cd "$TESTS/.." && pwd)
CONFIG=$ROOT/bench/transformers/configs/tiny.json

# train_step NAME ARGS...: runs it, its report in $TMP/NAME.report
train_step() {
    local name=$1
    shift
    PEAKFIT_REPORT_FD=3 "$PYTHON" "$ROOT/examples/transformers/train_step.py" --config "$CONFIG" --threads 1 "$@" \
        3>"$TMP/$name.report" 2>"$TMP/$name.err" >/dev/null ||
        fail "$name: train_step.py $* failed: $(grep -v '^USDT' "$TMP/$name.err" | tail -n 3)"
}
value() { worker_value "$1" "$(cat "$TMP/$2.report")"; }

train_step b2 --batch 2 --seq-len 32 --technique full --steps 2
train_step b4 --batch 4 --seq-len 32 --technique full
train_step lora --batch 2 --seq-len 32 --technique lora+ckpt
train_step inference --batch 2 --seq-len 32 --technique inference
train_step trainer --batch 2 --seq-len 32 --technique full+ckpt --steps 2 --warm 0 --loop trainer

# Every key is one the runner reads (a row of protocol/worker_report.h that is
# not the runner's own, or a phase key), every line key=value.
for r in "$TMP"/*.report; do
    while IFS= read -r line; do
        key=${line%%=*}
        [ "$key" != "$line" ] || fail "$(basename "$r"): not key=value: $line"
        grep -Eq "^ *X\($key, [A-Z_]+," "$ROOT/protocol/worker_report.h" &&
            ! grep -Eq "^ *X\($key, RUNNER," "$ROOT/protocol/worker_report.h" ||
            [[ $key =~ ^(forward|backward|optimizer)_(peak_bytes|end_rss_kib)$ ]] ||
            fail "$(basename "$r"): key $key is not one peakfit reads"
    done <"$r"
done

expect_eq "steps 2: step_s lines" "$(grep -c '^step_s=' "$TMP/b2.report")" 2
expect_eq "trainer, steps 2: step_s lines" "$(grep -c '^step_s=' "$TMP/trainer.report")" 2
expect_eq "trainer: AdamW's two moments" "$(value optimizer_bytes trainer)" "$(( $(value weight_bytes trainer) * 2 ))"
for phase in forward backward optimizer; do
    expect_gt "trainer: $phase peak" "$(value ${phase}_peak_bytes trainer)" "$(value weight_bytes trainer)"
done
awk -v l="$(value loss b2)" 'BEGIN { exit !(l > 8 && l < 10) }' || fail "loss $(value loss b2) is not near ln(8192) = 9.01"
expect_eq "full: trainable = params" "$(value trainable_params b2)" "$(value params b2)"
expect_gt "lora: params" "$(value params lora)" "$(value trainable_params lora)"
expect_eq "inference: no backward phase" "$(grep -c '^backward_peak_bytes=' "$TMP/inference.report")" 0
for phase in forward backward optimizer; do
    expect_gt "full: $phase peak" "$(value ${phase}_peak_bytes b2)" "$(value weight_bytes b2)"
done
expect_gt "full: b4 peak above b2's" "$(value tensor_peak_bytes b4)" "$(value tensor_peak_bytes b2)"
expect_gt "full: tensor peak above weights, grads and AdamW" "$(value tensor_peak_bytes b2)" \
    "$(( $(value weight_bytes b2) * 4 ))"
expect_gt "full: RSS above its baseline" "$(value peak_rss_kib b2)" "$(value baseline_rss_kib b2)"

# The same point through the built-in worker: the allocator-level peaks agree within 1 %.
if [ -x "$PEAKFIT_WORKER" ]; then
    worker=$("$PEAKFIT_WORKER" --model "$CONFIG" --technique full --batch 4 --seq-len 32 --threads 1 2>&1) ||
        fail "peakfit-worker failed: $worker"
    ours=$(( $(worker_value tensor_peak_bytes "$worker") - $(worker_value baseline_tensor_bytes "$worker") ))
    theirs=$(value tensor_peak_bytes b4)
    awk -v a="$ours" -v b="$theirs" 'BEGIN { r = a / b; exit !(r > 0.99 && r < 1.01) }' ||
        fail "tensor peak: worker $ours bytes, train_step.py $theirs bytes: not within 1 %"
fi

# Without PEAKFIT_REPORT_FD nothing is written, and the step still runs.
out=$(env -u PEAKFIT_REPORT_FD "$PYTHON" "$ROOT/examples/transformers/train_step.py" --config "$CONFIG" \
    --batch 1 --seq-len 8 --technique inference --threads 1 2>/dev/null) || fail "train_step.py without a report descriptor failed"
expect_eq "stdout without PEAKFIT_REPORT_FD" "$out" ""

# The Trainer makes AdamW's state at its first step: --warm 1 is refused.
err=$("$PYTHON" "$ROOT/examples/transformers/train_step.py" --config "$CONFIG" --batch 1 --seq-len 8 --loop trainer 2>&1)
expect_eq "--loop trainer --warm 1: exit status" "$?" 2
expect_eq "--loop trainer --warm 1" "$(tail -n 1 <<<"$err")" \
    "train_step.py: error: --loop trainer takes --warm 0: the Trainer makes the optimizer's state at its first step"

# A config that is not there is named.
err=$("$PYTHON" "$ROOT/examples/transformers/train_step.py" --config "$TMP/none.json" --batch 1 --seq-len 8 2>&1) &&
    fail "a missing config was accepted"
expect_eq "missing config" "$(tail -n 1 <<<"$err")" "train_step.py: --config $TMP/none.json: no such file or folder"
echo "train_step_test: ok"
