# Every command against the exit-status contract of util/exit_status.h:
# 0 done, 1 I/O failure (or nothing usable measured), 2 bad input,
# 130 interrupted; the worker's own statuses (0, 2, 4) for its runner.
source "$(dirname "$0")/lib.sh"
set -o pipefail
# expect_status WHAT STATUS COMMAND...: runs it (output to $TMP/out, $TMP/err)
expect_status() {
    local what=$1 want=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    [ "$rc" = "$want" ] || fail "$what: exit status $rc, expected $want; stderr: $(cat "$TMP/err")"
}
write_sweep "$TMP/ok.sweep" <<'SWEEP'
[global]
model = tiny
threads = 1
[j]
technique = inference
batch = 1, 2, 4
seq_len = 8
SWEEP
load_sweep "$TMP/load.sweep"
printf '[j]\nmodel = tiny\ntechnique = fulll\n' >"$TMP/bad.sweep"
touch "$TMP/file"
good=$TMP/good
mkdir "$good"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$good/peaks.csv"
cp "$TESTS/fixtures/tiny-cpu.sweep" "$good/sweep.sweep"
bad=$TMP/badcsv
mkdir "$bad"
cp "$TESTS/bad-csvs/empty.csv" "$bad/peaks.csv"

# peakfit itself
expect_status "--help" 0 "$PEAKFIT" --help
expect_status "no command" 2 "$PEAKFIT"
expect_status "unknown command" 2 "$PEAKFIT" fitt
expect_status "--version" 0 "$PEAKFIT" --version

# run (and all, which runs first)
expect_status "run: done" 0 "$PEAKFIT" run "$TMP/ok.sweep" -o "$TMP/run"
expect_status "run: bad sweep" 2 "$PEAKFIT" run "$TMP/bad.sweep" -o "$TMP/run-bad"
[ ! -e "$TMP/run-bad" ] || fail "run: a bad sweep created its output directory"
expect_status "run: missing -o" 2 "$PEAKFIT" run "$TMP/ok.sweep"
expect_status "run: output under a file" 1 "$PEAKFIT" run "$TMP/ok.sweep" -o "$TMP/file/out"
PEAKFIT_FAULT=exit PEAKFIT_WORKER=$FAULT_WORKER expect_status "run: no point succeeded" 1 "$PEAKFIT" run "$TMP/load.sweep" -o "$TMP/run-failed"

# slurm writes its script (no sbatch needed without --submit)
expect_status "slurm: done" 0 "$PEAKFIT" slurm "$TMP/ok.sweep" -o "$TMP/slurm"
expect_status "slurm: bad sweep" 2 "$PEAKFIT" slurm "$TMP/bad.sweep" -o "$TMP/slurm-bad"
[ ! -e "$TMP/slurm-bad" ] || fail "slurm: a bad sweep created its output directory"
expect_status "slurm: bad --time" 2 "$PEAKFIT" slurm "$TMP/ok.sweep" -o "$TMP/slurm" --time '1;rm'
expect_status "slurm: output under a file" 1 "$PEAKFIT" slurm "$TMP/ok.sweep" -o "$TMP/file/out"

# SIGHUP (a closed terminal) stops a run as SIGINT does: 130, resumable.
PEAKFIT_FAULT=hang PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" run "$TMP/load.sweep" -o "$TMP/hup" 2>"$TMP/hup.err" &
pid=$!
for _ in $(seq 100); do [ -f "$TMP/hup/peaks.csv" ] && break; sleep 0.1; done
sleep 0.5
kill -HUP $pid; wait $pid; rc=$?
expect_eq "run: SIGHUP: exit status" "$rc" 130
grep -q "run the same command again to resume" "$TMP/hup.err" || fail "run: SIGHUP: no resume hint: $(cat "$TMP/hup.err")"

expect_status "all: done" 0 "$PEAKFIT" all "$TMP/ok.sweep" -o "$TMP/all"
expect_status "all: bad sweep" 2 "$PEAKFIT" all "$TMP/bad.sweep" -o "$TMP/all-bad"
expect_status "all: output under a file" 1 "$PEAKFIT" all "$TMP/ok.sweep" -o "$TMP/file/out"
# Nothing to fit: no gnuplot on an empty script, no report of nothing.
expect_status "all: nothing to fit" 1 "$PEAKFIT" all "$TMP/load.sweep" -o "$TMP/all-load"
expect_eq "all: nothing to fit: message" "$(tail -n 1 "$TMP/err")" \
    "peakfit: $TMP/all-load: nothing to fit (no technique but load has points enough to fit a line); the measurements are in $TMP/all-load/peaks.csv; no fit, chart or report written"
[ ! -e "$TMP/all-load/plots" ] && [ ! -e "$TMP/all-load/report.md" ] || fail "all: nothing to fit, yet charts or a report"

# grid
expect_status "grid: done" 0 "$PEAKFIT" grid "$TMP/ok.sweep"
expect_status "grid: bad sweep" 2 "$PEAKFIT" grid "$TMP/bad.sweep"
expect_status "grid: missing sweep" 2 "$PEAKFIT" grid "$TMP/none.sweep"

# fit, plot, report, calc on recorded measurements
expect_status "fit: done" 0 "$PEAKFIT" fit "$good"
expect_status "fit: bad peaks.csv" 2 "$PEAKFIT" fit "$bad"
expect_status "fit: no such directory" 2 "$PEAKFIT" fit "$TMP/none"
cp -r "$good" "$TMP/fit-io" && rm -f "$TMP/fit-io/fit.csv" && mkdir "$TMP/fit-io/fit.csv"
expect_status "fit: fit.csv cannot be written" 1 "$PEAKFIT" fit "$TMP/fit-io"

expect_status "plot: done" 0 "$PEAKFIT" plot "$good"
expect_status "plot: bad peaks.csv" 2 "$PEAKFIT" plot "$bad"
cp -r "$good" "$TMP/plot-io" && rm -rf "$TMP/plot-io/plots" && touch "$TMP/plot-io/plots"
expect_status "plot: plots/ cannot be made" 1 "$PEAKFIT" plot "$TMP/plot-io"

expect_status "report: done" 0 "$PEAKFIT" report "$good"
expect_status "report: bad peaks.csv" 2 "$PEAKFIT" report "$bad"
expect_status "report: missing reference" 2 "$PEAKFIT" report "$good" --reference "$TMP/none.csv"
cp -r "$good" "$TMP/report-io" && rm -f "$TMP/report-io/report.md" && mkdir "$TMP/report-io/report.md"
expect_status "report: report.md cannot be written" 1 "$PEAKFIT" report "$TMP/report-io"

expect_status "calc: done" 0 "$PEAKFIT" calc "$good" --budget 2GiB
expect_status "calc: bad budget" 2 "$PEAKFIT" calc "$good" --budget lots
expect_status "calc: bad peaks.csv" 2 "$PEAKFIT" calc "$bad" --budget 2GiB
expect_status "calc: does not fit" 4 "$PEAKFIT" calc "$good" --budget 100MiB
# Between the estimate and the upper end of its interval: 3.
plan=$("$PEAKFIT" calc "$good" --budget 100GiB --micro-batch 8 --json)
between=$(awk -v p="$(grep -o '"predicted_peak_mib": [^,]*' <<<"$plan" | cut -d' ' -f2)" \
    -v c="$(grep -o '"predicted_peak_ci95_mib": [^,]*' <<<"$plan" | cut -d' ' -f2)" 'BEGIN { printf "%.3f", p + c / 2 }')
expect_status "calc: fits at the estimate only" 3 "$PEAKFIT" calc "$good" --budget "${between}MiB" --micro-batch 8
grep -q "fits at the estimate, not within its interval$" "$TMP/out" || fail "calc: outcome 3 says: $(cat "$TMP/out")"
expect_status "calc: standalone" 0 "$PEAKFIT" calc --per-sample 0.5GB --micro-batch 4 --accum 8
expect_status "verify: bad budget" 2 "$PEAKFIT" verify "$good" --budget lots
expect_status "verify: bad peaks.csv" 2 "$PEAKFIT" verify "$bad" --budget 2GiB

# params
expect_status "params: done" 0 "$PEAKFIT" params tiny
expect_status "params: missing config" 2 "$PEAKFIT" params "$TMP/none/config.json"
expect_status "params: bad option" 2 "$PEAKFIT" params tiny --lora-rank 0

# worker: its statuses are its runner's (protocol/point_result.h)
expect_status "worker: done" 0 "$PEAKFIT" worker --model tiny --technique load
expect_status "worker: bad option" 2 "$PEAKFIT" worker --model tiny --technique fulll
expect_status "worker: bad model" 2 "$PEAKFIT" worker --model "$TMP/none/config.json" --technique load
# A device this libtorch lacks fails inside the worker (run refuses it earlier).
expect_status "worker: point failed" 4 "$PEAKFIT" worker --model tiny --technique load --device mps
true
