# A command job's process killed with SIGKILL, its child killed, and the
# runner itself killed with SIGKILL: each leaves a correct row (or none for
# the point in flight) and a clean resume, as for peakfit's worker; the
# processes a command leaves behind when it ends do not outlive its point.
source "$(dirname "$0")/lib.sh"
TOOLS=$(dirname "$CSVQ")
export PATH=$TOOLS:$PATH
export FAKE_TRAIN_PIDS=$TMP/pids
mkdir -p "$FAKE_TRAIN_PIDS"

sweep() { # FILE BATCHES
    printf '[global]\nmodel = tiny\ntechnique = full\nseq_len = 1\ntimeout = 60\n' >"$1"
    printf '[mine]\nbatch = %s\ncommand = fake_train {batch}\n' "$2" >>"$1"
}

# alive PID: running (a zombie that init has not reaped yet is not)
alive() {
    local state
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ]
}

# wait_for FILE: until a fake_train wrote it (at most 20 s)
wait_for() {
    for _ in $(seq 200); do [ -s "$1" ] && return 0; sleep 0.1; done
    fail "no $1"
}

# kill_one WHICH DIR: runs one point whose child holds its memory until
# killed, and kills WHICH (parent.pid or child.pid) with SIGKILL.
kill_one() {
    rm -f "$FAKE_TRAIN_PIDS"/*
    sweep "$TMP/one.sweep" 8
    FAKE_TRAIN_HOLD=1 "$PEAKFIT" run "$TMP/one.sweep" -o "$TMP/$2" 2>"$TMP/$2.log" &
    local runner=$!
    wait_for "$FAKE_TRAIN_PIDS/child.pid"
    kill -9 "$(cat "$FAKE_TRAIN_PIDS/$1")"
    wait "$runner"
    "$CSVQ" "$TMP/$2/peaks.csv" status exit_code signal error
}

expect_eq "the command killed" "$(kill_one parent.pid cmd)" "killed	-1	9	command killed by signal 9 (Killed)"
# Its child, left holding 8 MiB, went with it (its process group).
sleep 0.3
! alive "$(cat "$FAKE_TRAIN_PIDS/child.pid")" || fail "the killed command's child outlived its point"
expect_eq "its child killed" "$(kill_one child.pid child)" \
    "error	1	0	exit status 1: Traceback (most recent call last): |   File \"train.py\", line 7, in <module> | ValueError: the child did not finish"
# Both rows stand: a resume runs nothing.
for d in cmd child; do
    "$PEAKFIT" run "$TMP/one.sweep" -o "$TMP/$d" 2>"$TMP/log" || true
    grep -q "resuming: 1 of 1 points already in" "$TMP/log" || fail "$d: resume: $(cat "$TMP/log")"
    expect_eq "$d: rows after resume" "$(grep -c '^"*mine' "$TMP/$d/peaks.csv")" 1
done

# The runner killed with SIGKILL during the second point: the first row is
# whole, the second point is not recorded, and the resume measures it.
rm -f "$FAKE_TRAIN_PIDS"/*
sweep "$TMP/two.sweep" "8, 16"
FAKE_TRAIN_HOLD=1 "$PEAKFIT" run "$TMP/two.sweep" -o "$TMP/runner" 2>"$TMP/log" &
runner=$!
wait_for "$FAKE_TRAIN_PIDS/child.pid"
first=$(cat "$FAKE_TRAIN_PIDS/child.pid")
rm -f "$FAKE_TRAIN_PIDS"/* # before the kill: the second point's files come after it
kill -9 "$first" # the first point ends (an error row)
wait_for "$FAKE_TRAIN_PIDS/child.pid" # the second point is under way
second=$(cat "$FAKE_TRAIN_PIDS/parent.pid")
kill -9 "$runner"
wait "$runner" 2>/dev/null
sleep 0.3
! alive "$second" || fail "the command outlived its runner (PR_SET_PDEATHSIG)"
kill -9 "$(cat "$FAKE_TRAIN_PIDS/child.pid")" 2>/dev/null # an orphaned grandchild: see docs/own-script.md
expect_eq "rows when the runner died" "$("$CSVQ" "$TMP/runner/peaks.csv" batch status)" "8	error"
"$PEAKFIT" run "$TMP/two.sweep" -o "$TMP/runner" 2>"$TMP/log" || fail "resume: $(cat "$TMP/log")"
expect_eq "rows after the resume" "$("$CSVQ" "$TMP/runner/peaks.csv" batch status | tr '\n\t' ' :')" "8:error 16:ok "
exit 0
