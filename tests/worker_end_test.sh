# How a worker's end is read. A runner that inherits SIGCHLD as ignored
# (`trap '' CHLD`, some daemons) must still wait for its workers: a
# segfault is recorded crashed, never ok. A timeout keeps the error line
# the worker wrote before it hung. An oom the worker's own allocator hit
# under a memory limit (CUDA's cap, exit 3) is measured again once the
# limit is raised, as the watchdog's is; one under no limit stands.
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep" "timeout = 120"

(trap '' CHLD; PEAKFIT_FAULT=segv PEAKFIT_WORKER=$FAULT_WORKER exec "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/segv" 2>"$TMP/log")
expect_eq "segfault under an ignored SIGCHLD" "$("$CSVQ" "$TMP/segv/peaks.csv" status signal)" "crashed	11"

# A worker that says what failed, then hangs.
cat >"$TMP/hanging-worker" <<'EOF2'
#!/bin/sh
echo "error=loading weights from /nfs/model: stalled" >&3
exec sleep 60
EOF2
chmod +x "$TMP/hanging-worker"
load_sweep "$TMP/t.sweep" "timeout = 1"
PEAKFIT_WORKER=$TMP/hanging-worker "$PEAKFIT" run "$TMP/t.sweep" -o "$TMP/t" 2>"$TMP/log"
expect_eq "timeout row" "$("$CSVQ" "$TMP/t/peaks.csv" status error)" \
    "timeout	no result within the timeout; worker killed; its last error: loading weights from /nfs/model: stalled"

# Rows of resume.sweep's points: the worker's own oom (exit 3) under a
# 16 MiB limit, and one under no limit. The sweep now has no limit.
resume_peaks
mkdir "$TMP/limits"
col() { head -1 "$base" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
awk -F, -v OFS=, -v st="$(col status)" -v ex="$(col exit_code)" -v ml="$(col mem_limit_mib)" \
    'NR == 2 { $st = "oom"; $ex = 3; $ml = 16 } NR == 3 { $st = "oom"; $ex = 3; $ml = "" } { print }' \
    "$base" >"$TMP/limits/peaks.csv"
"$PEAKFIT" run "$TESTS/bad-csvs/resume.sweep" -o "$TMP/limits" 2>"$TMP/log" || fail "rerun: $(cat "$TMP/log")"
grep -q "resuming: 2 of 3 points already in" "$TMP/log" || fail "the oom under a lower limit was not measured again: $(cat "$TMP/log")"
expect_eq "statuses after the rerun" "$("$CSVQ" "$TMP/limits/peaks.csv" status | tr '\n' ' ')" "oom oom ok ok "
