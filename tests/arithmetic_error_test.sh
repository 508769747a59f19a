# grid --peaks prints, beside estimates by arithmetic, how far the
# arithmetic was from the measured peak RSS: the figures of
# bench/results/arithmetic-error.txt's "all" row (bench/arithmetic-error.py),
# which the build reads (the Makefile defines them from it); estimates
# all from a fit print no such line. docs/auto-sweep.md cites the row too.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
read -r n min max < <(awk '$1 == "all" { printf "%s %.1f %.1f\n", $2, $3, $5 }' "$root/bench/results/arithmetic-error.txt")
[ -n "$n" ] || fail "bench/results/arithmetic-error.txt has no \"all\" row"
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 2\nseq_len = 8\n' >"$TMP/a.sweep"
"$PEAKFIT" grid "$TMP/a.sweep" --peaks >/dev/null 2>"$TMP/err" || fail "grid --peaks: exit status $?"
expect_eq "the arithmetic's measured error" "$(grep "rough estimate" "$TMP/err")" \
    "peakfit: the arithmetic is a rough estimate: $(printf '%+.1f' "$min") % to $(printf '%+.1f' "$max") % off the measured peak RSS over $n points (bench/results/arithmetic-error.txt); measure a point for a number to plan with"
# docs/auto-sweep.md cites the same row.
read -r median < <(awk '$1 == "all" { printf "%.1f\n", $4 }' "$root/bench/results/arithmetic-error.txt")
doc=$(tr '\n' ' ' <"$root/docs/auto-sweep.md" | tr -s ' ')
cited="the measured peak RSS over the committed points: $(printf '%+.1f' "$min") % to $(printf '%+.1f' "$max") % over $n points (median $(printf '%+.1f' "$median") %"
case $doc in *"$cited"*) ;; *) fail "docs/auto-sweep.md does not cite bench/results/arithmetic-error.txt's \"all\" row: '$cited'" ;; esac
