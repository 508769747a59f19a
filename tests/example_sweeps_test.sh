# The example sweeps a user recognises (sweeps/*.sweep with a command job
# running examples/): each run for real at two of its batches, fitted and
# reported. What is checked: both points ok, measured by the command, with
# an allocator-level peak that grows with the batch and AdamW's state
# reported as twice the weights; fit gives the group an allocator-level
# (tensor) line; the report names the model. The image model has no seq_len: its
# points are at seq_len 1 and the report says the fit is per sample.
source "$(dirname "$0")/lib.sh"
source "$TESTS/torch_python.sh"
root=$(cd "$TESTS/.." && pwd)
cd "$root" || fail "cannot cd to $root"
export PATH="$(dirname "$PYTHON"):$PATH" # the sweeps' python3: the venv's

# run_example SWEEP MODEL SMALL LARGE: SWEEP at batches SMALL and LARGE only
run_example() {
    local sweep=$1 model=$2 small=$3 large=$4 name out
    name=$(basename "$sweep" .sweep)
    out=$TMP/$name
    grep -q '^batch = ' "$sweep" || fail "$sweep has no batch line"
    sed "s/^batch = .*/batch = $small, $large/" "$sweep" >"$TMP/$name.sweep"
    "$PEAKFIT" run "$TMP/$name.sweep" -o "$out" >/dev/null 2>"$TMP/$name.err" ||
        fail "$sweep: run failed: $(tail -5 "$TMP/$name.err")"
    local rows
    rows=$("$CSVQ" "$out/peaks.csv" model batch status measured_by tensor_peak_mib weight_mib optimizer_mib) ||
        fail "$sweep: csvq cannot read peaks.csv"
    expect_eq "$sweep: points" "$(wc -l <<<"$rows")" 2
    awk -F'\t' -v m="$model" '$1 != m || $3 != "ok" || $4 !~ /^command / { exit 1 }' <<<"$rows" ||
        fail "$sweep: not two ok command rows of $model: $rows"
    local a b
    a=$(awk -F'\t' -v b="$small" '$2 == b { print $5 }' <<<"$rows")
    b=$(awk -F'\t' -v b="$large" '$2 == b { print $5 }' <<<"$rows")
    expect_gt "$sweep: tensor peak at b=$large over b=$small" "$b" "$a"
    awk -F'\t' '{ if ($7 < 1.99 * $6 || $7 > 2.01 * $6) exit 1 }' <<<"$rows" ||
        fail "$sweep: AdamW's state is not twice the weights: $rows"
    "$PEAKFIT" fit "$out" >"$TMP/$name.fit" 2>&1 || fail "$sweep: fit failed: $(cat "$TMP/$name.fit")"
    grep -q "^$model  *cpu  *full  *tensor  *2 " "$TMP/$name.fit" || fail "$sweep: no tensor fit: $(cat "$TMP/$name.fit")"
    "$PEAKFIT" report "$out" >/dev/null 2>"$TMP/$name.err" || fail "$sweep: report failed: $(cat "$TMP/$name.err")"
    grep -q "$model" "$out/report.md" || fail "$sweep: report.md does not name $model"
}

run_example sweeps/my-cnn-cpu.sweep my-cnn 1 4
awk -F'\t' '$1 != 1 { exit 1 }' <("$CSVQ" "$TMP/my-cnn-cpu/peaks.csv" seq_len) || fail "my-cnn: points not at seq_len 1"
grep -q "per sample" "$TMP/my-cnn-cpu/report.md" || fail "my-cnn: report.md does not say the fit is per sample"
run_example sweeps/trainer-cpu.sweep tiny 1 4
run_example sweeps/qwen2-moe-cpu.sweep qwen2-moe-tiny 1 4
