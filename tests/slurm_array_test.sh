# A Slurm array stays the sweep it was written for (no Slurm needed: the
# job script is run as a task would be). The script runs a frozen copy of
# the sweep in DIR, so an edit of the original changes nothing; a task
# whose grid no longer has the array's size refuses before measuring; an
# array past Slurm's default MaxArraySize (1001) is chunked and says so;
# `slurm` into a directory holding another sweep's rows is refused at once;
# a task whose own points all failed exits 1 though other tasks' rows
# stand.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/s.sweep" <<'EOF2'
[j]
model = tiny
threads = 1
technique = load
repeats = 2
EOF2
D=$TMP/out
"$PEAKFIT" slurm "$TMP/s.sweep" -o "$D" >/dev/null 2>"$TMP/err" || fail "slurm: $(cat "$TMP/err")"
cmp -s "$TMP/s.sweep" "$D/sweep.sweep" || fail "no frozen copy of the sweep in DIR"
grep -q "run '$D/sweep.sweep' -o '$D' --point \"\$SLURM_ARRAY_TASK_ID\" --chunk 1 --sweep-points 2\$" "$D/peakfit.sbatch" ||
    fail "the script does not run the frozen copy: $(grep run "$D/peakfit.sbatch")"

# The original edited (a third repeat): task 1 runs the frozen sweep's point 1.
sed -i 's/repeats = 2/repeats = 3/' "$TMP/s.sweep"
SLURM_ARRAY_TASK_ID=1 bash "$D/peakfit.sbatch" 2>"$TMP/err" || fail "task 1: $(cat "$TMP/err")"
expect_eq "task 1's row" "$("$CSVQ" "$D/peaks.csv" repeat status)" "1	ok"

# The frozen copy itself edited: every task refuses, measuring nothing.
cp "$TMP/s.sweep" "$D/sweep.sweep"
rc=0
SLURM_ARRAY_TASK_ID=0 bash "$D/peakfit.sbatch" 2>"$TMP/err" || rc=$?
expect_eq "changed grid: exit status" "$rc" 2
expect_eq "changed grid: message" "$(cat "$TMP/err")" "peakfit: $D/sweep.sweep has 3 points, but this Slurm array was \
written for 2: the sweep changed since \`peakfit slurm\`; write the job script again, into a new -o DIR"
expect_eq "rows after the refusal" "$("$CSVQ" "$D/peaks.csv" repeat)" 1

# Past MaxArraySize: 1500 points, two a task.
{ echo "[j]"; echo "model = tiny"; echo "technique = inference"
  echo "seq_len = $(seq -s, 1 30)"; echo "batch = $(seq -s, 1 25)"; echo "repeats = 2"; } >"$TMP/big.sweep"
"$PEAKFIT" slurm "$TMP/big.sweep" -o "$TMP/big" >/dev/null 2>"$TMP/err" || fail "slurm big: $(cat "$TMP/err")"
expect_eq "big: message" "$(cat "$TMP/err")" \
    "peakfit: 1500 points: 2 points per task (--chunk 2), so that the array fits Slurm's default MaxArraySize of 1001"
expect_eq "big: array" "$(grep '^#SBATCH --array' "$TMP/big/peakfit.sbatch")" "#SBATCH --array=0-749"
"$PEAKFIT" slurm "$TMP/big.sweep" -o "$TMP/big1" --chunk 1 >/dev/null 2>"$TMP/err" || fail "slurm big --chunk 1"
grep -q "^peakfit: warning: --chunk 1 makes 1500 tasks, past Slurm's default MaxArraySize of 1001" "$TMP/err" ||
    fail "no warning for --chunk 1: $(cat "$TMP/err")"

# Into a directory holding another sweep's rows: refused now, nothing written.
rc=0
"$PEAKFIT" slurm "$TMP/big.sweep" -o "$D" >/dev/null 2>"$TMP/err" || rc=$?
expect_eq "another sweep's directory: exit status" "$rc" 2
grep -q "belongs to another sweep" "$TMP/err" || fail "another sweep's directory: $(cat "$TMP/err")"
grep -q "repeats = 3" "$D/sweep.sweep" || fail "the frozen sweep was replaced"

# A task whose own point failed, beside another task's good row: exit 1.
load_sweep "$TMP/f.sweep" "repeats = 2"
"$PEAKFIT" run "$TMP/f.sweep" -o "$TMP/f" --point 0 2>"$TMP/err" || fail "task 0: $(cat "$TMP/err")"
rc=0
PEAKFIT_FAULT=exit PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" run "$TMP/f.sweep" -o "$TMP/f" --point 1 2>"$TMP/err" || rc=$?
expect_eq "failed task: exit status" "$rc" 1
expect_eq "failed task: message" "$(tail -1 "$TMP/err")" \
    "peakfit: no point succeeded (1 failed: see the status and error columns of $TMP/f/peaks.csv)"
