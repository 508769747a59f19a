# A model whose canonical path holds a comma (a folder "a,b", reached here
# through a link) is one model: the sweep file's list is split where it
# is written, but the worker takes its one --model whole, so the point is
# measured and the row reads back.
source "$(dirname "$0")/lib.sh"
mkdir "$TMP/a,b"
cp "$TESTS/fixtures/models/gpt2/config.json" "$TMP/a,b/"
ln -s "a,b" "$TMP/link"
printf '[j]\nmodel = link/config.json\ntechnique = load\nthreads = 1\n' >"$TMP/c.sweep"
"$PEAKFIT" run "$TMP/c.sweep" -o "$TMP/c" >/dev/null 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
expect_eq "the point" "$("$CSVQ" "$TMP/c/peaks.csv" status error model_source)" "ok		$TMP/a,b/config.json"
"$PEAKFIT" run "$TMP/c.sweep" -o "$TMP/c" >/dev/null 2>"$TMP/log" || fail "resume: $(cat "$TMP/log")"
"$PEAKFIT" worker --model "$TMP/a,b/config.json" --technique load --report-fd 1 >/dev/null 2>"$TMP/log" ||
    fail "worker --model with a comma: $(cat "$TMP/log")"
# A worker that refuses its options (exit status 2, its message on
# stderr) says so in the row's error too.
printf '#!/bin/sh\necho "peakfit-worker: no such option" >&2\nexit 2\n' >"$TMP/refusing"
chmod +x "$TMP/refusing"
PEAKFIT_WORKER=$TMP/refusing "$PEAKFIT" run "$TMP/c.sweep" -o "$TMP/r" >/dev/null 2>&1
expect_eq "a refused option's row" "$("$CSVQ" "$TMP/r/peaks.csv" status error)" \
    "error	the worker refused its options (exit status 2): its message is on the run's stderr"
