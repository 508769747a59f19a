# README's "Measure your own model": its params, printf (the sweep) and grid
# lines, run as written with ~/models/Qwen2.5-0.5B being the fixture's
# config, give what the README says they give.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
mkdir -p "$TMP/home/models" && ln -s "$TESTS/fixtures/models/Qwen2.5-0.5B" "$TMP/home/models/Qwen2.5-0.5B"
section=$(sed -n '/^## Measure your own model/,/^## /p' "$root/README.md")
line() { grep "^$1 " <<<"$section" | head -1 | sed 's/ *#.*$//'; }
[ -n "$(line 'bin/peakfit params')" ] && [ -n "$(line printf)" ] || fail "README's quick start lost its params or printf line"
cd "$TMP" || fail "no $TMP"
export PEAKFIT
run_line() { HOME=$TMP/home bash -c "$(sed 's|^bin/peakfit |"$PEAKFIT" |' <<<"$1")"; }
params=$(run_line "$(line 'bin/peakfit params')") || fail "README's params line failed"
expect_eq "params: 494M parameters" "$(grep '^params ' <<<"$params")" "params 494032768"
expect_eq "params: 7.9 GB for weights, gradients and AdamW" \
    "$(awk '/_bytes/ { s += $2 } END { printf "%.1f", s / 1e9 }' <<<"$params")" 7.9
run_line "$(line printf)" || fail "README's printf line failed"
points=$(run_line "$(line 'bin/peakfit grid')" 2>"$TMP/err") || fail "README's sweep: $(cat "$TMP/err")"
expect_eq "README's sweep: 12 points" "$(wc -l <<<"$points")" 12
grep -q '^peakfit: my.sweep: 12 points;' "$TMP/err" || fail "grid's summary: $(cat "$TMP/err")"
grep -q '^peakfit: expected peaks: largest 16203 MiB ' "$TMP/err" ||
    fail "README says grid --peaks gives a largest of 16203 MiB: $(cat "$TMP/err")"
