# verify runs its plan on this machine: a budget past this machine's memory
# (on cpu) or a plan past the largest micro-batch a sweep runs is refused
# before anything starts, naming the option, with no directory left behind
# and without blaming the sweep file verify would have written.
source "$(dirname "$0")/lib.sh"
set -o pipefail
# Points well above tiny's floor (T = 512 to 2048), so that RSS's fit has a
# slope under any heap: at b = 1 to 3 and s = 64 a heap with a fixed mmap
# threshold leaves all three on the floor (A = 0), and verify then refuses
# for that reason before it reaches the budgets below.
write_sweep "$TMP/v.sweep" <<'SWEEP'
[j]
model = tiny
threads = 1
technique = full
batch = 4, 8, 16
seq_len = 128
SWEEP
dir=$TMP/r
"$PEAKFIT" run "$TMP/v.sweep" -o "$dir" 2>/dev/null || fail "run: exit status $?"

refused() { # WHAT BUDGET EXPECTED-START
    local rc=0
    "$PEAKFIT" verify "$dir" --budget "$2" --technique full >/dev/null 2>"$TMP/err" || rc=$?
    expect_eq "$1: exit status" "$rc" 2
    grep -q "^$3" "$TMP/err" || fail "$1: message: $(cat "$TMP/err")"
    grep -q "verify.sweep" "$TMP/err" && fail "$1: blames its own sweep file: $(cat "$TMP/err")"
    ls -d "$dir"/verify-* 2>/dev/null && fail "$1: left a directory behind"
    true
}
refused "8000000TiB" 8000000TiB "peakfit: verify: the plan's micro-batch [0-9]* (and [0-9]*) is past the largest a sweep runs, 1000000"
machine_kib=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
refused "twice this machine's memory" "$((machine_kib / 512))MiB" \
    "peakfit: verify: --budget [0-9]* MiB is more than this machine's memory ([0-9]* MiB)"
