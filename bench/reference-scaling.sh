#!/usr/bin/env bash
# report --reference on a long published table: one series of N rows
# (batch 1..N of one technique and seq_len), before and after the series
# links were made once at load (a sort) instead of a scan of every row for
# every row. "Before" is peakfit built from BEFORE (a commit, default the
# one before that change), "after" from AFTER (default the change's own
# commit; AFTER=HEAD: this tree's); both run here, in one go, on the same
# reference and results, and their reports must be the same. Writes OUT
# (default bench/results/reference-scaling.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
before_rev=${BEFORE:-e3a985d^}
after_rev=${AFTER:-e3a985d}
out=${OUT:-bench/results/reference-scaling.txt}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench/old-build.sh "$before_rev" "$tmp/before" bin/peakfit
if [ "$after_rev" = HEAD ]; then
    make -s bin/peakfit
    cp bin/peakfit "$tmp/after-peakfit"
else
    bench/old-build.sh "$after_rev" "$tmp/after" bin/peakfit
    cp "$tmp/after/bin/peakfit" "$tmp/after-peakfit"
fi
mkdir "$tmp/results"
cp "$tmp/before/tests/fixtures/tiny-cpu-peaks.csv" "$tmp/results/peaks.csv" # the results of their day

reference() { # N: rows of one full series at seq_len 64, peak growing with batch
    awk -v n="$1" 'BEGIN { print "work,technique,batch,seq_len,peak_above_baseline_mb"
                           for (b = 1; b <= n; b++) printf "full_training,full,%d,64,%d\n", b, 100 + 7 * b }'
}
seconds() { # BINARY REFERENCE: wall seconds of one report
    local start end
    start=$(date +%s.%N)
    "$1" report "$tmp/results" --reference "$2" 2>/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
same_report() { # the two reports, the time they were written aside
    grep -v '^| report written' "$tmp/results/report.md" >"$tmp/$1.md"
}
{
    echo "report --reference, one series of N rows; before: $(git rev-parse --short "$before_rev"), after: $(git rev-parse --short "$after_rev")"
    echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%8s %10s %10s %8s\n' rows before_s after_s ratio
    for n in 10000 20000 40000; do
        reference "$n" >"$tmp/ref.csv"
        b=$(seconds "$tmp/before/bin/peakfit" "$tmp/ref.csv"); same_report before
        a=$(seconds "$tmp/after-peakfit" "$tmp/ref.csv"); same_report after
        cmp -s "$tmp/before.md" "$tmp/after.md" ||
            { echo "reports differ at $n rows:" >&2; diff "$tmp/before.md" "$tmp/after.md" | head -20 >&2; exit 1; }
        printf '%8d %10s %10s %8.0f\n' "$n" "$b" "$a" "$(awk -v b="$b" -v a="$a" 'BEGIN { print b / (a > 0.01 ? a : 0.01) }')"
    done
} | tee "$out"
