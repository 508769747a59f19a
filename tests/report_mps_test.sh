# The report says plainly when its points ran on MPS, which peakfit is
# built for but no Mac has run yet, and says nothing of it otherwise.
source "$(dirname "$0")/lib.sh"
line='**MPS is built but not yet checked on a Mac**'
mkdir "$TMP/mps" "$TMP/cpu"
sed 's/,cuda,/,mps,/g' "$TESTS/fixtures/two-devices-peaks.csv" >"$TMP/mps/peaks.csv"
cp "$TESTS/fixtures/two-devices-peaks.csv" "$TMP/cpu/peaks.csv"
grep -q ',mps,' "$TMP/mps/peaks.csv" || fail "the fixture has no cuda rows to turn into mps ones"
for d in mps cpu; do
    "$PEAKFIT" report "$TMP/$d" >/dev/null 2>"$TMP/err" || fail "report $d: exit status $?: $(cat "$TMP/err")"
done
grep -qF "$line" "$TMP/mps/report.md" || fail "a report of mps points does not say MPS is not yet run on a Mac"
grep -qF "$line" "$TMP/cpu/report.md" && fail "a report of cpu and cuda points speaks of MPS"
true
