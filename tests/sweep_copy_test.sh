# run keeps a copy of its sweep as DIR/sweep.sweep. Run from that very file
# (`run DIR/sweep.sweep -o DIR`, as a resume often is) it must stay whole:
# the copy used to open the destination for writing first, emptying the
# sweep, and the next resume failed with "empty grid".
source "$(dirname "$0")/lib.sh"
load_sweep "$TMP/s.sweep" "repeats = 2"
mkdir "$TMP/out"
cp "$TMP/s.sweep" "$TMP/out/sweep.sweep"
"$PEAKFIT" run "$TMP/out/sweep.sweep" -o "$TMP/out" 2>"$TMP/err" || fail "run from DIR/sweep.sweep: $(cat "$TMP/err")"
cmp -s "$TMP/s.sweep" "$TMP/out/sweep.sweep" || fail "DIR/sweep.sweep changed: '$(cat "$TMP/out/sweep.sweep")'"
"$PEAKFIT" run "$TMP/out/sweep.sweep" -o "$TMP/out" 2>"$TMP/err" || fail "resume from DIR/sweep.sweep: $(cat "$TMP/err")"
grep -q "resuming: 2 of 2 points already in" "$TMP/err" || fail "resume: $(cat "$TMP/err")"
# The same file by another name (a relative path, a hard link) too.
(cd "$TMP/out" && "$PEAKFIT" run ./sweep.sweep -o . 2>"$TMP/err") || fail "run ./sweep.sweep -o .: $(cat "$TMP/err")"
ln "$TMP/out/sweep.sweep" "$TMP/link.sweep"
"$PEAKFIT" run "$TMP/link.sweep" -o "$TMP/out" 2>"$TMP/err" || fail "run from a hard link: $(cat "$TMP/err")"
cmp -s "$TMP/s.sweep" "$TMP/out/sweep.sweep" || fail "DIR/sweep.sweep changed by another name"
# Another sweep's copy is replaced whole, with no temporary file left.
printf '# edited\n' >>"$TMP/s.sweep"
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/err" || fail "run after an edit: $(cat "$TMP/err")"
cmp -s "$TMP/s.sweep" "$TMP/out/sweep.sweep" || fail "the copy was not replaced"
expect_eq "files in DIR" "$(ls -A "$TMP/out" | tr '\n' ' ')" ".peakfit.lock peaks.csv sweep.sweep "

# The copy resolves a relative model path, unless the resolved path would
# read back otherwise (its folder's " #" would start a comment): then it
# keeps the path as written (sweeps/sweep_write.h's rule).
for folder in plain "hash #1"; do
    mkdir -p "$TMP/$folder/m"
    cp "$TESTS/fixtures/models/gpt2/config.json" "$TMP/$folder/m/"
    { one_point_global; printf '[j]\nmodel = m/config.json\ncommand = true\n'; } >"$TMP/$folder/s.sweep"
    "$PEAKFIT" run "$TMP/$folder/s.sweep" -o "$TMP/$folder/out" 2>"$TMP/err" || fail "run in $folder: $(cat "$TMP/err")"
done
expect_eq "a relative path, resolved" "$(grep '^model = .*config' "$TMP/plain/out/sweep.sweep")" \
    "model = $(cd "$TMP/plain" && pwd -P)/m/config.json"
expect_eq "a relative path kept as written" "$(grep '^model = .*config' "$TMP/hash #1/out/sweep.sweep")" "model = m/config.json"
