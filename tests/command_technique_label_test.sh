# A command job's technique need not be one of peakfit's: `technique =
# ddp-zero1` (any safe name) names the points and the fit group, is what
# {technique} stands for, and is what report and `calc --technique` name.
# A job of peakfit's own worker must run a technique it knows: a label
# there is refused with today's message at the technique's line.
source "$(dirname "$0")/lib.sh"
export PATH=$(dirname "$CSVQ"):$PATH # fake_train

cat >"$TMP/t.sweep" <<'SWEEP'
[mine]
model = my-cnn
technique = ddp-zero1, full
batch = 8, 16, 32
command = fake_train {batch} ok {technique}
SWEEP
"$PEAKFIT" run "$TMP/t.sweep" -o "$TMP/t" 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
expect_eq "rows" "$("$CSVQ" "$TMP/t/peaks.csv" point_id technique status | tr '\t\n' ' ;')" \
    "mine/my-cnn/cpu/ddp-zero1/sdpa/b8/s1/st2/r0 ddp-zero1 ok;mine/my-cnn/cpu/ddp-zero1/sdpa/b16/s1/st2/r0 ddp-zero1 ok;mine/my-cnn/cpu/ddp-zero1/sdpa/b32/s1/st2/r0 ddp-zero1 ok;mine/my-cnn/cpu/full/sdpa/b8/s1/st2/r0 full ok;mine/my-cnn/cpu/full/sdpa/b16/s1/st2/r0 full ok;mine/my-cnn/cpu/full/sdpa/b32/s1/st2/r0 full ok;"
expect_eq "{technique}" "$("$CSVQ" "$TMP/t/peaks.csv" command | head -n 1)" "'fake_train' '8' 'ok' 'ddp-zero1'"
"$PEAKFIT" fit "$TMP/t" >"$TMP/fit" 2>&1 || fail "fit: $(cat "$TMP/fit")"
grep -q '^my-cnn  *cpu  *ddp-zero1  *tensor  *3 ' "$TMP/fit" || fail "no fit of ddp-zero1: $(cat "$TMP/fit")"
"$PEAKFIT" report "$TMP/t" >/dev/null 2>"$TMP/log" || fail "report: $(cat "$TMP/log")"
grep -q '^| ddp-zero1 | none: per sample | ' "$TMP/t/report.md" ||
    fail "report.md's summary has no ddp-zero1 row: $(grep '^| ' "$TMP/t/report.md" | head -5)"
expect_eq "calc --technique ddp-zero1" \
    "$("$PEAKFIT" calc "$TMP/t" --technique ddp-zero1 --budget 1GiB 2>&1 | head -n 1 | sed -E 's/[0-9a-f]{16}/HASH/')" \
    "plan for my-cnn / cpu / ddp-zero1 / sdpa / measured_by command HASH, per sample (measured without a sequence: seq_len 1) (the command's own process)"

# refused WHAT SWEEP LINE VALUE: the run exits 2 with the unknown technique's message at LINE.
refused() {
    local rc=0
    "$PEAKFIT" run "$2" -o "$TMP/refused" 2>"$TMP/log" || rc=$?
    expect_eq "$1: exit" "$rc" 2
    expect_eq "$1: message" "$(cat "$TMP/log")" \
        "peakfit: $2:$3: technique must be one of load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16, not \"$4\""
}
# The same label in a job of peakfit's worker, at its line; a name that is
# not safe, in a command job too.
printf '[global]\nmodel = tiny\nseq_len = 1\nbatch = 1\ntechnique = full, ddp-zero1\n[worker]\n' >"$TMP/w.sweep"
refused "a label for the worker" "$TMP/w.sweep" 5 ddp-zero1
printf '[j]\nmodel = my-cnn\ntechnique = a/b\nbatch = 1\ncommand = fake_train {batch} ok\n' >"$TMP/u.sweep"
refused "an unsafe label" "$TMP/u.sweep" 3 a/b
# A command job that names no technique (a CNN's script, anyone's) gets
# the label `train`, as its model may be a label; a worker's job still
# needs one.
printf '[cnn]\nmodel = my-cnn\nbatch = 8\ncommand = fake_train {batch} ok {technique}\n' >"$TMP/n.sweep"
"$PEAKFIT" run "$TMP/n.sweep" -o "$TMP/n" >/dev/null 2>"$TMP/log" || fail "run without technique: $(cat "$TMP/log")"
expect_eq "a command job without technique" "$("$CSVQ" "$TMP/n/peaks.csv" point_id technique status command)" \
    "cnn/my-cnn/cpu/train/sdpa/b8/s1/st2/r0	train	ok	'fake_train' '8' 'ok' 'train'"
printf '[w]\nmodel = tiny\nbatch = 1\nseq_len = 8\n' >"$TMP/nw.sweep"
err=$("$PEAKFIT" grid "$TMP/nw.sweep" 2>&1 >/dev/null)
expect_eq "a worker's job without technique" "$err" "peakfit: $TMP/nw.sweep:1: job [w] has no technique (set it here or in [global])"
exit 0
