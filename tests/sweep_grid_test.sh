# `peakfit grid`: the count and the longest time by the timeouts; a point
# that two jobs share listed once, with a warning naming both jobs and
# lines; a BOM and inline comments read as the README says. And the
# worker's options: the sweep keys' ranges and messages.
source "$(dirname "$0")/lib.sh"
set -o pipefail
printf '\xef\xbb\xbf' >"$TMP/s.sweep"
cat >>"$TMP/s.sweep" <<'EOF'
[global]
model = tiny   # the preset
timeout = 30m ; per point
batch = 1, 2
seq_len = 8

[a]
technique = full, load

[b]
technique = full
batch = 2, 4
EOF
ids=$("$PEAKFIT" grid "$TMP/s.sweep" 2>"$TMP/err") || fail "grid failed: $(cat "$TMP/err")"
expect_eq "ids" "$ids" "a/tiny/cpu/full/sdpa/b1/s8/st2/r0
a/tiny/cpu/full/sdpa/b2/s8/st2/r0
a/tiny/cpu/load/b0/s0/st2/r0
b/tiny/cpu/full/sdpa/b4/s8/st2/r0"
expect_eq "grid's stderr" "$(cat "$TMP/err")" "peakfit: warning: $TMP/s.sweep:10: job [b] repeats 1 point of job [a] (line 7); each is measured once
peakfit: $TMP/s.sweep: 4 points; at most 2:00:00 by their timeouts"

# worker_fails MESSAGE ARGS...: the worker exits 2 with MESSAGE first
worker_fails() {
    local want=$1 err rc
    shift
    err=$("$PEAKFIT" worker "$@" 2>&1); rc=$?
    expect_eq "worker $*: exit status" "$rc" 2
    expect_eq "worker $*: message" "$(head -1 <<<"$err")" "$want"
}
worker_fails 'peakfit worker: --batch: batch must be a whole number from 1 to 1000000, not "0"' \
    --model tiny --technique full --batch 0 --seq-len 8
# The worker reads each option as one value (a model path may hold a comma):
# a list is no number.
worker_fails 'peakfit worker: --batch: batch must be a whole number from 1 to 1000000, not "1,2"' \
    --model tiny --technique full --batch 1,2 --seq-len 8
worker_fails 'peakfit worker: --lora-rank: lora_rank must be a whole number from 1 to 65536, not "70000"' \
    --model tiny --technique lora --lora-rank 70000 --batch 1 --seq-len 8
worker_fails 'peakfit worker: --threads: threads must be a whole number from 0 to 4096, not "5000"' \
    --model tiny --technique load --threads 5000
