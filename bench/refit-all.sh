#!/usr/bin/env bash
# Refits every committed results directory that has a fit.json, from its
# committed peaks.csv, measuring nothing, with the commands that made it:
#   smollm2-135m-cpu          bench/smollm2-refit.sh (fit and report; its smollm2-refit.txt
#                             is left to bench/run smollm2-refit)
#   smollm2-135m-cpu-heldout  REFIT=1 bench/smollm2-heldout.sh (fit, report, summary.txt)
#   smollm2-135m-cpu-2.13     REFIT=1 bench/reproduce-smollm2.sh (fit, charts, the report
#                             beside the published table, with its notes)
#   smollm2-peers-2.13        bench/command-peers.sh's fit and report, and its
#                             summary.txt's side-by-side section from the new report.md
#   auto-sweep/* and the rest the fit (fit.txt where one is committed) and, where
#                             there is one, the report
# and its charts where it has a plots/ (peakfit plot). A report.md whose only
# change would be its "report written" line is left as committed.
# then writes bench/results/refit-all.txt: per directory and group, F and A
# (fit.csv's), the floor, and the held-out points' errors (fit.json's), before
# (the committed files at REFIT_BEFORE, default HEAD) -> after.
# usage: bench/refit-all.sh   (about a minute on 2 cores; no big memory)
set -euo pipefail
cd "$(dirname "$0")/.."
before=${REFIT_BEFORE:-HEAD}
out=${OUT:-bench/results/refit-all.txt}
make -s bin/peakfit build/tests/tools/csvq
csvq=build/tests/tools/csvq
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dirs=$(git ls-files 'bench/results/*fit.json' | xargs -n1 dirname | sort)

# report.md where the refit changed more than its "report written" line;
# otherwise the committed one stays (a date is no refresh).
report_if_changed() {
    cp "$1/report.md" "$tmp/report.md"
    bin/peakfit report "$1" "${@:2}"
    if diff -q <(grep -v '^| report written |' "$tmp/report.md") <(grep -v '^| report written |' "$1/report.md") >/dev/null
    then cp "$tmp/report.md" "$1/report.md"; fi
}

# Each script is told its own OUT: the one bench/run gives this script is
# refit-all.txt's, and smollm2-refit.txt is its own entry's result.
refit() {
    case $1 in
    bench/results/smollm2-135m-cpu) OUT=$tmp/smollm2-refit.txt bench/smollm2-refit.sh >/dev/null ;;
    bench/results/smollm2-135m-cpu-heldout) REFIT=1 OUT=$1 bench/smollm2-heldout.sh >/dev/null ;;
    bench/results/smollm2-135m-cpu-2.13) REFIT=1 OUT=$1 bench/reproduce-smollm2.sh >/dev/null ;;
    bench/results/smollm2-peers-2.13)
        bin/peakfit fit "$1" >"$1/fit.txt" 2>&1
        report_if_changed "$1" >/dev/null
        # summary.txt: its run's lines as they were, then the new side-by-side section
        { sed '/^# The fits (peakfit fit/q' "$1/summary.txt"; echo
          awk '/^## The same points, measured two ways/ { on = 1 } on && /^## / && !/measured two ways/ { exit } on' \
              "$1/report.md"; } >"$tmp/summary.txt"
        cp "$tmp/summary.txt" "$1/summary.txt" ;;
    *)
        # fit.txt where its entry wrote one (make demo, for one, does not)
        if [ -f "$1/fit.txt" ]; then bin/peakfit fit "$1" >"$1/fit.txt"; else bin/peakfit fit "$1" >/dev/null; fi
        if [ -f "$1/report.md" ]; then report_if_changed "$1" >/dev/null 2>&1 || true; fi ;;
    esac
    # its charts, where it has them (bench/reproduce-smollm2.sh drew them)
    if [ -d "$1/plots" ]; then bin/peakfit plot "$1" >/dev/null; fi
}

# One line per group of a fit.csv: its key, then F, A and the floor ("-"
# where none), read by peakfit's own CSV reader. The key holds what tells a
# directory's groups apart: a command job's measured_by and a slice's layers
# (the fit from slices: "N (slices ...)"), columns older files lack.
groups() {
    local extra=() name
    for name in measured_by layers; do
        head -1 "$1" | tr , '\n' | grep -qx "$name" && extra+=("$name")
    done
    "$csvq" "$1" technique attention lora_rank metric F_mib A_mib_per_token floor floor_mib "${extra[@]}" |
        awk -F'\t' -v extra="${extra[*]}" '
            BEGIN { n = split(extra, names, " "); for (i = 1; i <= n; i++) col[names[i]] = 8 + i }
            { key = $1 "/" $2; if ($3 != "") key = key "/lora" $3
              by = ("measured_by" in col) ? $col["measured_by"] : ""
              if (by != "" && by != "worker") { gsub(/ /, "-", by); key = key "/" substr(by, 1, 16) }
              layers = ("layers" in col) ? $col["layers"] : ""
              if (layers != "") { gsub(/ /, "-", layers); key = key "/layers" layers }
              print key "/" $4, ($5 == "" ? "-" : $5), ($6 == "" ? "-" : $6), ($7 == 1 ? $8 : "-") }' | sort
}

# Per group of a fit.json with held-out points: how many inside, and the mean |error|.
heldout() {
    jq -r '.groups[] | select((.holdout // []) | length > 0) |
        [.technique + "/" + .attention + "/" + .metric, ([.holdout[] | select(.inside_interval)] | length),
         (.holdout | length), ([.holdout[] | .error_pct | if . < 0 then -. else . end] | add / length)] | @tsv' "$1" | sort
}

for d in $dirs; do
    git show "$before:$d/fit.csv" >"$tmp/before.csv"
    git show "$before:$d/fit.json" >"$tmp/before.json"
    refit "$d"
    echo "$d"
    join -a 1 <(groups "$tmp/before.csv") <(groups "$d/fit.csv") |
        awk '{ a = ($3 == $6 && $2 == $5 && $4 == $7) ? "unchanged" : "changed"
               printf "  %-28s F %9s -> %-9s A %9s -> %-9s floor %s -> %s  %s\n", $1, $2, $5, $3, $6, $4, $7, a }'
    join -t $'\t' <(heldout "$tmp/before.json") <(heldout "$d/fit.json") |
        awk -F'\t' '{ printf "  held out %-22s inside %d of %d -> %d of %d, mean |error| %.2f%% -> %.2f%%\n", $1, $2, $3, $5, $6, $4, $7 }'
done >"$tmp/refit.txt"
{
    echo "Every committed fit refitted from its committed peaks.csv (bench/refit-all.sh, $(date -u +%Y-%m-%d), $(git rev-parse --short HEAD)); nothing measured"
    echo "before: the files committed at $before; after: this fit. F (MiB) and A (MiB/token) as fit.csv gives them"
    echo "(rss: the allocator-level line plus the heap's gap, fit/group_gap.c); floor: P (MiB) where one was found."
    echo
    cat "$tmp/refit.txt"
} | tee "$out"
