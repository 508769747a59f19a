# What a command leaves its tree by stays in reach: a grandchild that was
# double-forked (its parent ended) or that called setsid is measured with
# the tree, counted against mem_limit, and killed at the point's end
# (proc/orphans.h: the command and the runner are child subreapers).
source "$(dirname "$0")/lib.sh"
export PATH=$(dirname "$CSVQ"):$PATH # fake_train
export PIDS=$TMP/pids
command -v setsid >/dev/null || fail "no setsid (util-linux) on PATH"

alive() { # PID: running (a zombie is not)
    local state
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ]
}
# left_behind: the fake_trains of this test still running, by their pid files
left_behind() {
    local f
    for f in "$PIDS"/*/*.pid; do
        [ -s "$f" ] && alive "$(cat "$f")" && echo "${f#"$PIDS"/}:$(cat "$f")"
    done
}
# A failing check leaves none running either.
trap 'for p in $(left_behind | cut -d: -f2); do kill -9 "$p"; done; rm -rf "$TMP"' EXIT

# Each job's fake_train holds 48 MiB in its child until killed; the command
# waits until the memory is there, lets the runner look, and ends.
hold='env FAKE_TRAIN_HOLD=1 FAKE_TRAIN_PIDS="$PIDS/{job}" fake_train 48 no-baseline'
wait_held='while [ ! -s "$PIDS/{job}/child.pid" ]; do sleep 0.05; done; sleep 0.3'
{ one_point_global; cat <<SWEEP; } >"$TMP/t.sweep"
[double]
command = mkdir -p "\$PIDS/{job}"; ($hold &); $wait_held
[setsid]
command = mkdir -p "\$PIDS/{job}"; setsid -f $hold; $wait_held
[limited]
mem_limit = 24MiB
command = mkdir -p "\$PIDS/{job}"; ($hold &); $wait_held
SWEEP
"$PEAKFIT" run "$TMP/t.sweep" -o "$TMP/t" 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
rows=$("$CSVQ" "$TMP/t/peaks.csv" job status peak_above_baseline_mib)
for job in double setsid; do
    row=$(grep "^$job	" <<<"$rows")
    expect_eq "$job: status" "$(cut -f2 <<<"$row")" ok
    expect_gt "$job: the grandchild's 48 MiB in the tree's peak" "$(cut -f3 <<<"$row")" 48
done
expect_eq "limited: the watchdog saw the grandchild" "$(grep '^limited' <<<"$rows" | cut -f2)" oom

# None of them outlives its point.
sleep 0.3
expect_eq "processes left behind" "$(left_behind)" ""
[ -s "$PIDS/double/child.pid" ] && [ -s "$PIDS/setsid/child.pid" ] || fail "no pid files: $(ls -R "$PIDS")"
exit 0
