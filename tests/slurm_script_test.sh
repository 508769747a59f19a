# The job script `peakfit slurm` writes, checked without a Slurm (that is
# slurm_test.sh): sbatch splits #SBATCH lines at every isspace() character,
# reads `#` as a comment and `%` as a pattern, so a hostile output directory
# (\v \f \r # % ' $ and a newline in its name) must put no option of its
# own on a directive line; the script then logs into that directory itself.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/s.sweep" <<'EOF2'
[j]
model = tiny
threads = 1
technique = inference
batch = 1
seq_len = 8
EOF2

# Every directive is "#SBATCH --name=value" with a value of plain characters.
check_directives() {
    local script=$1 bad
    bad=$(grep -a '^#SBATCH' "$script" | LC_ALL=C grep -av '^#SBATCH --[a-z-]*\(=[A-Za-z0-9/_.,+:%-]*\)\?$') || true
    [ -z "$bad" ] || fail "directive lines an sbatch would split or cut: $(printf '%q' "$bad")"
}

for name in $'r\v--export=ALL,BASH_ENV=/tmp/evil.sh\v#' $'f\f--wrap=id' $'cr\r--x' 'hash#cut' 'pct%A' \
    "it's \$HOME" $'new\nline'; do
    dir=$TMP/out/$name
    "$PEAKFIT" slurm "$TMP/s.sweep" -o "$dir" >"$TMP/printed" 2>"$TMP/err" ||
        fail "slurm -o $(printf '%q' "$dir"): $(cat "$TMP/err")"
    check_directives "$dir/peakfit.sbatch"
done

# The last one run as Slurm runs a task: its log lands in the directory.
SLURM_JOB_ID=9 SLURM_ARRAY_JOB_ID=9 SLURM_ARRAY_TASK_ID=0 bash "$dir/peakfit.sbatch" 2>"$TMP/err" >&2 ||
    fail "task 0: $(cat "$TMP/err" "$dir"/slurm-*.out 2>/dev/null)"
[ -f "$dir/slurm-9_0.out" ] || fail "no task log in the directory: $(ls -A "$dir")"
grep -q ': ok peak' "$dir/slurm-9_0.out" || fail "task log: $(cat "$dir/slurm-9_0.out")"
expect_eq "rows" "$("$CSVQ" "$dir/peaks.csv" status)" ok

# A plain directory keeps its --output directive.
"$PEAKFIT" slurm "$TMP/s.sweep" -o "$TMP/plain" >/dev/null 2>"$TMP/err" || fail "slurm: $(cat "$TMP/err")"
expect_eq "plain --output" "$(grep '^#SBATCH --output' "$TMP/plain/peakfit.sbatch")" \
    "#SBATCH --output=$(cd "$TMP/plain" && pwd -P)/slurm-%A_%a.out"
