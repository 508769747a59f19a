# A Slurm job's tasks run DIR/sweep.sweep, a copy in another directory: a
# model or weights path relative to the sweep file must still name its
# file there (every task failed with "cannot open model config", exit 2).
# The copy holds them resolved, slurm checks the copy the tasks run, and a
# task, run as Slurm would (no Slurm needed), measures its point. A path
# given absolute, a preset and a comment stay as written.
source "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/sweeps/configs" "$TMP/elsewhere"
cp -r "$TESTS/fixtures/models/gpt2" "$TMP/sweeps/configs/"
cat >"$TMP/sweeps/s.sweep" <<'SWEEP'
[j]
model = configs/gpt2/config.json  # relative to this file
threads = 1
technique = load
batch = 1
seq_len = 8
SWEEP
dir=$TMP/out
(cd "$TMP/elsewhere" && "$PEAKFIT" slurm ../sweeps/s.sweep -o "$dir" >"$TMP/printed" 2>"$TMP/err") ||
    fail "slurm: $(cat "$TMP/err")"
expect_eq "the copy's model line" "$(grep '^model' "$dir/sweep.sweep")" \
    "model = $(cd "$TMP/sweeps" && pwd -P)/configs/gpt2/config.json # relative to this file"
expect_eq "the copy's other lines" "$(grep -v '^model' "$dir/sweep.sweep")" "$(grep -v '^model' "$TMP/sweeps/s.sweep")"
# The task, from another directory, as a Slurm node would run it.
(cd / && SLURM_ARRAY_TASK_ID=0 bash "$dir/peakfit.sbatch" >"$TMP/task" 2>&1) || fail "the task: $(cat "$TMP/task")"
expect_eq "the task's point" "$("$CSVQ" "$dir/peaks.csv" status)" "ok"
# A weights path too (one file, not a list: a comma is part of its name).
mkdir -p "$TMP/sweeps/w,1"
: >"$TMP/sweeps/w,1/model.safetensors"
sed 's|^seq_len = 8$|seq_len = 8\nweights = w,1/model.safetensors|' "$TMP/sweeps/s.sweep" >"$TMP/sweeps/w.sweep"
"$PEAKFIT" slurm "$TMP/sweeps/w.sweep" -o "$TMP/w" >/dev/null 2>"$TMP/err" || fail "slurm, weights: $(cat "$TMP/err")"
expect_eq "the copy's weights line" "$(grep '^weights' "$TMP/w/sweep.sweep")" \
    "weights = $(cd "$TMP/sweeps" && pwd -P)/w,1/model.safetensors"
# A command job's relative program (command = ./train.sh) is found where
# `peakfit slurm` checked it: the task starts in that directory, wherever
# sbatch was run.
mkdir -p "$TMP/project"
cp "$(dirname "$CSVQ")/fake_train" "$TMP/project/train"
printf '[mine]\nmodel = my-cnn\ntechnique = full\nbatch = 4\ncommand = ./train {batch} ok\n' >"$TMP/project/c.sweep"
(cd "$TMP/project" && "$PEAKFIT" slurm c.sweep -o "$TMP/c" >/dev/null 2>"$TMP/err") || fail "slurm, command: $(cat "$TMP/err")"
(cd / && SLURM_ARRAY_TASK_ID=0 bash "$TMP/c/peakfit.sbatch" >"$TMP/task" 2>&1) || fail "the command's task: $(cat "$TMP/task")"
expect_eq "the command's point, run from /" "$("$CSVQ" "$TMP/c/peaks.csv" status error)" "ok	"
true
