# The optimizer and zero_grad settings end to end: the sweep's keys reach
# the worker, peaks.csv records what ran (auto resolved for the device: the
# per-parameter AdamW on cpu), the fit keeps each choice its own group,
# calc and verify ask which one when a directory holds several, and a
# libtorch without _fused_adamw_ refuses a sweep that names adamw-fused
# before it runs anything, with a message that says so. Each measured peak
# moves as tests/optimizer_step_test.c checks to the byte: SGD keeps one
# moment where AdamW keeps two, zeros keeps the gradients through the next
# forward.
source "$(dirname "$0")/lib.sh"
set -o pipefail
write_sweep "$TMP/o.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
technique = full
batch = 1, 2, 3
seq_len = 64
[auto]
[sgd-zeros]
optimizer = sgd
zero_grad = zeros
steps = 2
SWEEP
dir=$TMP/out
"$PEAKFIT" run "$TMP/o.sweep" -o "$dir" >/dev/null 2>"$TMP/err"
csv=$dir/peaks.csv
expect_eq "optimizer and zero_grad columns" \
    "$("$CSVQ" "$csv" job optimizer zero_grad status | sort -u | tr '\t\n' ' ;')" \
    "auto adamw none ok;sgd-zeros sgd zeros ok;"
# adamw-fused where the libtorch has no _fused_adamw_ for the device: the
# sweep is refused before anything runs, naming the job and the setting.
write_sweep "$TMP/fused.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
technique = full
batch = 1
seq_len = 64
[fused]
optimizer = adamw-fused
SWEEP
version=$("$PEAKFIT" --version | awk '$1 == "libtorch" { print $2 }')
"$PEAKFIT" run "$TMP/fused.sweep" -o "$TMP/fused" >/dev/null 2>"$TMP/fused.err"
status=$?
case $version in
1.* | 2.[0-3].*)
    expect_eq "adamw-fused on libtorch $version: exit status" "$status" 2
    expect_eq "adamw-fused on libtorch $version: message" "$(cat "$TMP/fused.err")" \
        "peakfit: $TMP/fused.sweep:7: job fused: optimizer adamw-fused: libtorch $version has no _fused_adamw_ for cpu (PyTorch's fused AdamW: cuda from libtorch 2.1, cpu and mps from 2.4)"
    [ ! -e "$TMP/fused/peaks.csv" ] || fail "adamw-fused refused, yet peaks.csv was written" ;;
*)
    expect_eq "adamw-fused on libtorch $version: exit status" "$status" 0
    expect_eq "adamw-fused on libtorch $version" \
        "$("$CSVQ" "$TMP/fused/peaks.csv" optimizer status | tr '\t' ' ')" "adamw-fused ok" ;;
esac
# SGD's one moment against AdamW's two: its optimizer_mib is half.
expect_eq "optimizer state, sgd / adamw" \
    "$("$CSVQ" "$csv" job optimizer_mib | awk -F'\t' '$1 == "auto" { a = $2 } $1 == "sgd-zeros" { s = $2 } END { printf "%.3f", s / a }')" \
    "0.500"
"$PEAKFIT" fit "$dir" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit: $(cat "$TMP/fit.err")"
expect_eq "fit groups (rss)" \
    "$("$CSVQ" "$dir/fit.csv" technique metric optimizer zero_grad n | awk -F'\t' '$2 == "rss" { print $1, $3, $4, $5 }' | sort | tr '\n' ';')" \
    "full adamw none 3;full sgd zeros 3;"
grep -q '^  tiny / cpu / full / sdpa / optimizer sgd / zero_grad zeros: ' "$TMP/fit.out" ||
    fail "fit does not name the sgd group: $(cat "$TMP/fit.out")"
expect_calc_error "two optimizers, no --optimizer" \
    "peakfit: $dir holds more than one optimizer with technique full: choose one with --optimizer (optimizers: adamw, sgd)" \
    "$dir" --budget 2GiB
expect_calc_error "an unmeasured optimizer" \
    "peakfit: $dir: no optimizer \"adamw-foreach\" with technique full (optimizers: adamw, sgd)" \
    "$dir" --budget 2GiB --optimizer adamw-foreach
"$PEAKFIT" calc "$dir" --budget 2GiB --optimizer sgd --json >"$TMP/calc.json" || fail "calc --optimizer sgd"
"$PEAKFIT" calc "$dir" --budget 2GiB --optimizer sgd --zero-grad zeros --json >/dev/null ||
    fail "calc --optimizer sgd --zero-grad zeros"
"$PEAKFIT" verify "$dir" --budget 1GiB >/dev/null 2>"$TMP/verr"
expect_eq "verify with two optimizers: exit status" "$?" 2
grep -q "choose one with --optimizer" "$TMP/verr" || fail "verify: $(cat "$TMP/verr")"
