#!/usr/bin/env bash
# Reproduces the grid of the published SmolLM2-135M CPU table with peakfit
# and writes OUT/report.md: our peaks beside the published ones, savings per
# technique, where the time went, and why the numbers differ
# (bench/smollm2-notes.md). A benchmark, not a test (bench/run smollm2): 36
# minutes and 9 GiB on 2 cores with the torch-2.13 build
# (bench/results/smollm2-135m-cpu-2.13/run.txt). Points already in peaks.csv
# are not rerun; delete the directory for a fresh measurement.
#   PEAKFIT=bin/peakfit                   the build to measure with (the torch-2.13
#                                         build: build-torch2/bin/peakfit, after
#                                         `make test-torch2` or its build step)
#   OUT=bench/results/smollm2-135m-cpu-2.13  where peaks.csv and the report go
#   REFIT=1                               fit, plot and report OUT as it is, measuring
#                                         nothing (bench/refit-all.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-bench/results/smollm2-135m-cpu-2.13}
peakfit=${PEAKFIT:-bin/peakfit}
reference=${REFERENCE:-bench/reference/smollm2-135m-cpu.csv}
[ "$peakfit" != bin/peakfit ] || make -s all
if [ -z "${REFIT:-}" ]; then
    start=$(date +%s)
    before=0
    [ -f "$out/peaks.csv" ] && before=$(( $(wc -l <"$out/peaks.csv") - 1 ))
    "$peakfit" run sweeps/smollm2-135m-cpu.sweep -o "$out"
    seconds=$(( $(date +%s) - start ))
    after=$(( $(wc -l <"$out/peaks.csv") - 1 ))
    # The run that measured points is the one worth stating: a rerun that only
    # refits and rewrites the report keeps its line.
    [ "$after" -gt "$before" ] &&
        echo "\`bench/reproduce-smollm2.sh\` measured $((after - before)) points in ${seconds} s on $(date -u +%Y-%m-%d)" \
             "($before were already in peaks.csv and were not rerun)." >"$out/run.txt"
fi
"$peakfit" fit "$out" >"$out/fit.txt"
"$peakfit" plot "$out" || echo "charts not drawn" >&2
"$peakfit" report "$out" --reference "$reference" --html
{
    echo
    echo "## This run"
    echo
    cat "$out/run.txt"
    echo
    cat bench/smollm2-notes.md
} >>"$out/report.md"
echo "wrote $out/report.md"
