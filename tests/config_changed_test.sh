# A config changed at the fitted path (its config_hash differs, as resume
# refuses) is another model: `grid -o DIR` says so (exit 2, as run's resume),
# and verify refuses to measure it against the old fit (it measured the
# new model and said "did not hold", exit 5).
source "$(dirname "$0")/lib.sh"
export PATH=$(dirname "$CSVQ"):$PATH # fake_train
mkdir "$TMP/m"
cp "$TESTS/fixtures/models/gpt2/config.json" "$TMP/m/"
printf '[j]\nmodel = m/config.json\ntechnique = full\nbatch = 1, 2, 4, 8\nseq_len = 16\ncommand = fake_train {batch} ok\n' \
    >"$TMP/c.sweep"
dir=$TMP/out
"$PEAKFIT" run "$TMP/c.sweep" -o "$dir" >/dev/null 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
"$PEAKFIT" grid "$TMP/c.sweep" -o "$dir" >/dev/null 2>"$TMP/log" || fail "grid -o DIR, same config: $(cat "$TMP/log")"
had=$("$CSVQ" "$dir/peaks.csv" config_hash | head -n 1)
printf '\n' >>"$TMP/m/config.json" # the same model, another file
"$PEAKFIT" run "$TMP/c.sweep" -o "$TMP/now" >/dev/null 2>&1 || fail "run on the changed config"
now=$("$CSVQ" "$TMP/now/peaks.csv" config_hash | head -n 1)
[ "$had" != "$now" ] || fail "the config's hash did not change ($had)"
err=$("$PEAKFIT" grid "$TMP/c.sweep" -o "$dir" 2>&1 >/dev/null)
expect_eq "grid -o DIR, changed config: exit status" "$?" 2
expect_eq "grid -o DIR, changed config: message" "$err" \
    "peakfit: $(realpath "$TMP/m/config.json") changed since $dir/peaks.csv was measured (config_hash $had there, $now now): its fit is another model's; use another -o DIR, or restore the config"
"$PEAKFIT" run "$TMP/c.sweep" -o "$dir" >/dev/null 2>&1
expect_eq "run -o DIR, changed config: exit status (resume refuses it too)" "$?" 2
# verify runs peakfit's worker: its rows here, as the worker would write them.
python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[1:]:
    r[h.index("measured_by")], r[h.index("command")] = "worker", ""
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)' "$dir/peaks.csv"
"$PEAKFIT" fit "$dir" >/dev/null 2>&1 || fail "fit"
err=$("$PEAKFIT" verify "$dir" --budget 1GiB 2>&1 >/dev/null)
expect_eq "verify, changed config: exit status" "$?" 2
expect_eq "verify, changed config: message" "$err" \
    "peakfit: verify: $(realpath "$TMP/m/config.json") changed since $dir/peaks.csv was measured (config_hash $had there, $now now): the fit is another model's; measure this one with run, or restore the config"
ls -d "$dir"/verify-* 2>/dev/null && fail "verify made a directory"
true
