# Killing the runner midway (SIGKILL, then SIGINT) and running the same
# command again: every point ends up in peaks.csv exactly once.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/s.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
[j]
technique = inference
batch = 1, 2, 3
seq_len = 8, 16
SWEEP
csv=$TMP/out/peaks.csv
rows() { [ -f "$csv" ] && "$CSVQ" "$csv" point_id | wc -l || echo 0; }
wait_for_rows() { # N: until peaks.csv has N rows (or 60 s)
    for _ in $(seq 600); do [ "$(rows)" -ge "$1" ] && return 0; sleep 0.1; done
    fail "peaks.csv never reached $1 rows"
}

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/log1" &
pid=$!
wait_for_rows 2
kill -KILL $pid; wait $pid 2>/dev/null
killed_at=$(rows)

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/log2" &
pid=$!
wait_for_rows $((killed_at + 1))
kill -INT $pid; wait $pid; rc=$?
expect_eq "exit status after SIGINT" "$rc" 130
grep -q "run the same command again to resume" "$TMP/log2" || fail "no resume hint after SIGINT: $(cat "$TMP/log2")"
grep -q "resuming: $killed_at of 6 points already in" "$TMP/log2" || fail "no resume notice: $(cat "$TMP/log2")"

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/log3" || fail "final run failed: $(cat "$TMP/log3")"
expect_eq "rows after resuming" "$(rows)" 6
expect_eq "distinct point ids" "$("$CSVQ" "$csv" point_id | sort -u | wc -l)" 6
expect_eq "statuses" "$("$CSVQ" "$csv" status | sort -u)" ok
# A finished sweep run again runs nothing and changes nothing.
before=$(md5sum <"$csv")
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>/dev/null || fail "rerun of a finished sweep failed"
expect_eq "peaks.csv after rerunning a finished sweep" "$(md5sum <"$csv")" "$before"
# A row cut short (the disk filled mid-write, the machine died) is removed
# on resume and its point run again.
last=$(tail -n 1 "$csv")
sed -i '$d' "$csv"
printf '%s' "${last:0:30}" >>"$csv"
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/log4" || fail "resume after a truncated row failed: $(cat "$TMP/log4")"
grep -q "peaks.csv:7: truncated last row removed (an interrupted write); its point will run again" "$TMP/log4" ||
    fail "no truncation notice: $(cat "$TMP/log4")"
expect_eq "rows after the truncated one was rerun" "$(rows)" 6
expect_eq "distinct point ids after rerun" "$("$CSVQ" "$csv" point_id | sort -u | wc -l)" 6
# A runner killed with SIGKILL takes its worker with it.
write_sweep "$TMP/hang.sweep" <<'SWEEP'
[j]
model = tiny
technique = load
timeout = 60
SWEEP
PEAKFIT_FAULT=hang PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" run "$TMP/hang.sweep" -o "$TMP/hang" 2>/dev/null &
runner=$!
worker=""
for _ in $(seq 100); do worker=$(pgrep -P $runner); [ -n "$worker" ] && break; sleep 0.1; done
[ -n "$worker" ] || fail "no worker started"
# Past its last report line (so no SIGPIPE could end it): in pause().
for _ in $(seq 200); do grep -q pause "/proc/$worker/wchan" 2>/dev/null && break; sleep 0.1; done
grep -q pause "/proc/$worker/wchan" || fail "worker never reached its hang"
kill -KILL $runner; wait $runner 2>/dev/null
for _ in $(seq 50); do kill -0 "$worker" 2>/dev/null || break; sleep 0.1; done
kill -0 "$worker" 2>/dev/null && { kill -KILL "$worker"; fail "worker $worker outlived its runner"; }
true

# A point that timed out under a shorter timeout, or that the watchdog
# stopped under a memory limit the sweep no longer has, is measured again;
# its new row is the one `fit` uses.
resume_peaks
mkdir "$TMP/limits"
col() { head -1 "$base" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
awk -F, -v OFS=, -v st="$(col status)" -v to="$(col timeout_s)" -v ex="$(col exit_code)" \
    -v ml="$(col mem_limit_mib)" -v pk="$(col peak_above_baseline_mib)" \
    'NR == 2 { $st = "timeout"; $to = 30; $pk = "" } NR == 3 { $st = "oom"; $ex = -1; $ml = 16 } { print }' \
    "$base" >"$TMP/limits/peaks.csv"
"$PEAKFIT" run "$TESTS/bad-csvs/resume.sweep" -o "$TMP/limits" 2>"$TMP/log5" || fail "rerun under new limits failed: $(cat "$TMP/log5")"
grep -q "resuming: 1 of 3 points already in" "$TMP/log5" || fail "short timeout / old limit not rerun: $(cat "$TMP/log5")"
expect_eq "statuses after the rerun" "$("$CSVQ" "$TMP/limits/peaks.csv" status | tr '\n' ' ')" "timeout oom ok ok ok "
"$PEAKFIT" run "$TESTS/bad-csvs/resume.sweep" -o "$TMP/limits" 2>"$TMP/log6" || fail "third run failed"
grep -q "resuming: 3 of 3 points already in" "$TMP/log6" || fail "rerun points not done: $(cat "$TMP/log6")"
