# calc prints text from fit.json (the model's name, the CPU
# a fit was measured on) and PEAKFIT_THIS_CPU to the terminal through its
# one escaper (util/term_text.h): an escape sequence is shown, never run,
# and a newline cannot forge a plan line of its own.
source "$(dirname "$0")/lib.sh"
mkdir "$TMP/d"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$TMP/d/peaks.csv"
"$PEAKFIT" fit "$TMP/d" >/dev/null 2>&1 || fail "fit"
# fit.json's strings, as a hand or another tool may have written them.
python3 -c 'import json, sys
def edit(o):
    if isinstance(o, dict):
        for k in o:
            if k in ("model", "cpu_model"):
                o[k] = sys.argv[2] if k == "model" else sys.argv[3]
            else:
                edit(o[k])
    elif isinstance(o, list):
        for v in o:
            edit(v)
j = json.load(open(sys.argv[1]))
edit(j)
json.dump(j, open(sys.argv[1], "w"))' "$TMP/d/fit.json" $'tiny\e]0;owned\a\nplan for forged' $'AMD\e[31m'
out=$(PEAKFIT_THIS_CPU=$'X\e[2J\nplan for forged too' "$PEAKFIT" calc "$TMP/d/fit.json" --budget 1GiB 2>&1)
grep -q $'\e' <<<"$out" && fail "calc printed an escape byte: $(cat -A <<<"$out" | head -3)"
grep -n '^plan for forged' <<<"$out" && fail "calc printed a forged line"
expect_eq "the plan's first line" "$(head -n 1 <<<"$out")" \
    'plan for tiny\x1b]0;owned\x07\x0aplan for forged / cpu / full / eager, seq_len 256 (a Python trainer'"'"'s whole process)'
grep -qF "the fit was measured on CPU AMD\\x1b[31m; this machine's CPU is X\\x1b[2J\\x0aplan for forged too; RSS differs" <<<"$out" ||
    fail "no escaped CPU name: $(sed -n 2p <<<"$out")"
# calc's errors name fit.json's models: through the same escaper.
err=$("$PEAKFIT" calc "$TMP/d/fit.json" --model nosuch --budget 1GiB 2>&1 >/dev/null)
expect_eq "an error naming fit.json's models" "$err" \
    "peakfit: $TMP/d/fit.json: no model \"nosuch\" with technique full (models: tiny\\x1b]0;owned\\x07\\x0aplan for forged)"
