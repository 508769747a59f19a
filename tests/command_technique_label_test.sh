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
    "mine/my-cnn/cpu/ddp-zero1/sdpa/b8/s1/st1/r0 ddp-zero1 ok;mine/my-cnn/cpu/ddp-zero1/sdpa/b16/s1/st1/r0 ddp-zero1 ok;mine/my-cnn/cpu/ddp-zero1/sdpa/b32/s1/st1/r0 ddp-zero1 ok;mine/my-cnn/cpu/full/sdpa/b8/s1/st1/r0 full ok;mine/my-cnn/cpu/full/sdpa/b16/s1/st1/r0 full ok;mine/my-cnn/cpu/full/sdpa/b32/s1/st1/r0 full ok;"
expect_eq "{technique}" "$("$CSVQ" "$TMP/t/peaks.csv" command | head -n 1)" "'fake_train' '8' 'ok' 'ddp-zero1'"
"$PEAKFIT" fit "$TMP/t" >"$TMP/fit" 2>&1 || fail "fit: $(cat "$TMP/fit")"
grep -q '^my-cnn  *cpu  *ddp-zero1  *tensor  *3 ' "$TMP/fit" || fail "no fit of ddp-zero1: $(cat "$TMP/fit")"
"$PEAKFIT" report "$TMP/t" >/dev/null 2>"$TMP/log" || fail "report: $(cat "$TMP/log")"
grep -q '^| ddp-zero1 | none: per sample | ' "$TMP/t/report.md" ||
    fail "report.md's summary has no ddp-zero1 row: $(grep '^| ' "$TMP/t/report.md" | head -5)"
expect_eq "calc --technique ddp-zero1" \
    "$("$PEAKFIT" calc "$TMP/t" --technique ddp-zero1 --budget 1GiB 2>&1 | head -n 1 | sed -E 's/[0-9a-f]{16}/HASH/')" \
    "plan for my-cnn / cpu / ddp-zero1 / sdpa / measured_by command HASH, per sample (measured without a sequence: seq_len 1)"

# The same label in a job of peakfit's worker: refused, exit 2, at its line.
printf '[global]\nmodel = tiny\nseq_len = 1\nbatch = 1\ntechnique = full, ddp-zero1\n[worker]\n' >"$TMP/w.sweep"
rc=0
"$PEAKFIT" run "$TMP/w.sweep" -o "$TMP/w" 2>"$TMP/log" || rc=$?
expect_eq "a label for the worker: exit" "$rc" 2
expect_eq "a label for the worker: message" "$(cat "$TMP/log")" \
    "peakfit: $TMP/w.sweep:5: technique must be one of load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16, not \"ddp-zero1\""
# A name that is not safe is refused in a command job too.
printf '[j]\nmodel = my-cnn\ntechnique = a/b\nbatch = 1\ncommand = fake_train {batch} ok\n' >"$TMP/u.sweep"
rc=0
"$PEAKFIT" run "$TMP/u.sweep" -o "$TMP/u" 2>"$TMP/log" || rc=$?
expect_eq "an unsafe label: exit" "$rc" 2
expect_eq "an unsafe label: message" "$(cat "$TMP/log")" \
    "peakfit: $TMP/u.sweep:3: technique must be one of load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16, not \"a/b\""
exit 0
