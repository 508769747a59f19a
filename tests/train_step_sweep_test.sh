# examples/transformers/train_step.py swept as a command job (#20 item 5):
# one peakfit run measures a small llama config (bench/transformers/
# configs/tiny.json) at four batches through the built-in worker and
# through the example on the pinned torch 2.13 and transformers; each row
# is ok and says how it was measured, the two jobs are two groups of the
# fit, their allocator-level A agree within 1%, the report shows them side
# by side, and a second run resumes with nothing to measure.
source "$(dirname "$0")/lib.sh"
source "$TESTS/torch_python.sh"
ROOT=$(cd "$TESTS/.." && pwd)
cat >"$TMP/s.sweep" <<SWEEP
[global]
model = $ROOT/bench/transformers/configs/tiny.json
technique = full
seq_len = 128
batch = 2, 4, 8, 16
timeout = 5m
threads = 1

[builtin]

[script]
command = $PYTHON $ROOT/examples/transformers/train_step.py --config {model} --batch {batch} --seq-len {seq_len} --technique {technique} --attention {attention} --threads {threads}
SWEEP
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/run" 2>"$TMP/run.log" || fail "run: $(tail -n 5 "$TMP/run.log")"
rows=$("$CSVQ" "$TMP/run/peaks.csv" job batch status memory_method measured_by)
expect_eq "rows" "$(sed -E 's/command [0-9a-f]{16}$/command HASH/' <<<"$rows" | sort | tr '\t\n' ' ;')" \
    "builtin 16 ok vmhwm worker;builtin 2 ok vmhwm worker;builtin 4 ok vmhwm worker;builtin 8 ok vmhwm worker;script 16 ok tree-poll command HASH;script 2 ok tree-poll command HASH;script 4 ok tree-poll command HASH;script 8 ok tree-poll command HASH;"

"$PEAKFIT" fit "$TMP/run" >"$TMP/fit.txt" 2>&1 || fail "fit: $(cat "$TMP/fit.txt")"
# measured_by, metric, n, A: the tensor rows of the two groups
a=$("$CSVQ" "$TMP/run/fit.csv" measured_by metric n A_mib_per_token | awk -F'\t' '$2 == "tensor"')
expect_eq "two tensor groups of 4 points" "$(cut -f1,3 <<<"$a" | sed -E 's/ [0-9a-f]{16}//' | sort | tr '\t\n' ' ;')" \
    "command 4;worker 4;"
ratio=$(awk -F'\t' '$1 == "worker" { w = $4 } $1 != "worker" { c = $4 } END { printf "%.4f", c / w }' <<<"$a")
awk -v r="$ratio" 'BEGIN { exit !(r > 0.99 && r < 1.01) }' || fail "A command / worker is $ratio, not within 1%"

"$PEAKFIT" report "$TMP/run" >/dev/null 2>&1 || fail "report failed"
grep -q '^## The same points, measured two ways$' "$TMP/run/report.md" || fail "report.md has no side-by-side section"
line=$(grep -E '^\*\*tiny / cpu / full / sdpa\*\*, tensor metric: A ' "$TMP/run/report.md")
expect_eq "report's tensor ratio" "${line##*ratio }" "$ratio."

# A second run measures nothing: every point is in peaks.csv.
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/run" 2>"$TMP/rerun.log" || fail "rerun: $(tail -n 3 "$TMP/rerun.log")"
expect_eq "rows after a rerun" "$("$CSVQ" "$TMP/run/peaks.csv" point_id | wc -l)" 8
grep -q 'starting point' "$TMP/rerun.log" && fail "the rerun measured again: $(cat "$TMP/rerun.log")"
exit 0
