# Signals that reach the runner from its surroundings: a closed progress
# pipe (SIGPIPE) must not end the sweep, and a runner stopped (SIGSTOP,
# Ctrl-Z) for longer than a point's timeout must not record a point that
# finished meanwhile as a timeout.
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep" "repeats = 3" "timeout = 10"
# `run ... 2>&1 | head -1`: head leaves after the first progress line.
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/pipe" 2>&1 | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
expect_eq "progress into a closed pipe: exit status" "$rc" 0
expect_eq "progress into a closed pipe: rows" "$("$CSVQ" "$TMP/pipe/peaks.csv" status | tr '\n' ' ')" "ok ok ok "

# The runner stopped while its worker (in its own process group, so not
# stopped with it) finishes, for longer than the timeout.
load_sweep "$TMP/one.sweep" "timeout = 5"
"$PEAKFIT" run "$TMP/one.sweep" -o "$TMP/stopped" 2>"$TMP/log" &
runner=$!
worker=""
for _ in $(seq 300); do worker=$(pgrep -P $runner); [ -n "$worker" ] && break; sleep 0.05; done
[ -n "$worker" ] || fail "no worker started"
kill -STOP $runner
stopped_at=$(date +%s)
# Until the worker has ended (a zombie: its report is in the pipe) ...
for _ in $(seq 600); do
    state=$(awk '{ print $3 }' "/proc/$worker/stat" 2>/dev/null)
    [ "$state" = Z ] && break
    sleep 0.1
done
expect_eq "worker ended while the runner was stopped" "$state" Z
# ... and the runner has been stopped for longer than the timeout.
while [ $(( $(date +%s) - stopped_at )) -le 6 ]; do sleep 0.5; done
kill -CONT $runner
wait $runner || fail "run after SIGCONT: exit status $?: $(cat "$TMP/log")"
expect_eq "point finished while the runner was stopped" "$("$CSVQ" "$TMP/stopped/peaks.csv" status error)" "ok	"

# A stop that comes before the first worker starts (here: while the runner
# asks the worker whether the sweep's device is there; this stand-in says
# cuda is, so that the sweep passes the check) ends the run at once,
# interrupted (130), with no row: it used to wait forever for a worker it
# would never start.
cat >"$TMP/stop-early-worker" <<'SH'
#!/bin/sh
kill -INT $PPID
printf 'libtorch 0\ncuda_compiled 1\navailable cuda 1\n'
SH
chmod +x "$TMP/stop-early-worker"
load_sweep "$TMP/early.sweep" "device = cuda"
PEAKFIT_WORKER=$TMP/stop-early-worker timeout -s KILL 30 "$PEAKFIT" run "$TMP/early.sweep" -o "$TMP/early" 2>"$TMP/log"
rc=$?
expect_eq "stopped before the first point: exit status ($(cat "$TMP/log"))" "$rc" 130
expect_eq "stopped before the first point: rows" "$("$CSVQ" "$TMP/early/peaks.csv" point_id | wc -l)" 0
