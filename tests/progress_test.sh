# run says which point it starts and, while a point runs long (a large
# model's build, a slow step), that it still runs: a run used to print
# nothing for 112 s, verify for 5 minutes. PEAKFIT_PROGRESS_EVERY_S=1
# stands in for the 30 s between lines; the worker hangs (PEAKFIT_FAULT)
# until its 3 s timeout.
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep" 'technique = full' 'batch = 1' 'seq_len = 8' 'timeout = 3'
sed -i '/^technique = load$/d' "$TMP/s.sweep"
PEAKFIT_FAULT=hang PEAKFIT_WORKER=$FAULT_WORKER PEAKFIT_PROGRESS_EVERY_S=1 "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/err"
id=j/tiny/cpu/full/sdpa/b1/s8/st2/r0
expect_eq "the first line names the point started" "$(head -n 1 "$TMP/err")" "peakfit: starting point 1 of 1: $id"
grep -q "^peakfit: still running point 1 of 1 ([12] s so far\(, RSS +[0-9]* MiB above its baseline\)\?): $id\$" "$TMP/err" ||
    fail "no line while the point ran: $(cat "$TMP/err")"
expect_eq "then its result" "$(grep -c '^\[1/1\] j tiny full b=1 s=8 r0: timeout' "$TMP/err")" 1
# Without the override, a short point gets its start line and no other.
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/quick" 2>"$TMP/err2" || true
grep -q '^peakfit: still running' "$TMP/err2" && fail "a 1-second point said it was still running: $(cat "$TMP/err2")"
expect_eq "start line without the override" "$(head -n 1 "$TMP/err2")" "peakfit: starting point 1 of 1: $id"
