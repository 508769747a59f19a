# A setting is its row plus the code that uses it: docs/adding-a-setting.md's
# worked example (learning_rate), made in a copy of the tree exactly as the
# page shows it, touches three files, builds, and reaches every surface: the
# sweep key with its range check, docs/sweeps.md's table and
# docs/peaks-csv.md (make docs), the worker's option and argv, and the
# point's peaks.csv column. A setting that needed a fourth file, or a page
# that no longer says how, fails here. Builds peakfit at -O0 in the copy
# (about a minute of one core).
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
page=$root/docs/adding-a-setting.md
tree=$TMP/tree
mkdir "$tree"
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$tree" 2>/dev/null) ||
    fail "cannot copy the tree (git ls-files in $root)"

# block FILE: the page's code block for FILE (its info string names it).
block() { awk -v f="file=$1" '$0 ~ "^```" && index($0, f) { on = 1; next } /^```/ { on = 0 } on' "$page"; }
# append_to_macro FILE MACRO: stdin's lines become the last rows of MACRO.
append_to_macro() {
    local rows=$TMP/rows
    cat >"$rows"
    [ -s "$rows" ] || fail "$page has no block for $1"
    awk -v m="#define $2(" -v rows="$rows" '
        index($0, m) == 1 { in_macro = 1 }
        in_macro && !/\\$/ { printf "%s \\\n", $0; n = 0
            while ((getline l < rows) > 0) lines[++n] = l
            for (i = 1; i <= n; i++) print lines[i] (i < n ? " \\" : ""); in_macro = 0; next }
        { print }' "$tree/$1" >"$TMP/new" && mv "$TMP/new" "$tree/$1"
}
block sweeps/setting_rows.h | append_to_macro sweeps/setting_rows.h SETTING_ROWS
block sweeps/peaks_columns.h | append_to_macro sweeps/peaks_columns.h PEAKS_COLUMNS
use=sweeps/job_train_options.c
old=$(block $use | sed -n 's/^-//p') new=$(block $use | sed -n 's/^+//p')
[ -n "$old" ] && [ -n "$new" ] || fail "$page has no - and + line for $use"
grep -qxF -- "$old" "$tree/$use" || fail "$use has no line '$old' (the page's example is stale)"
awk -v old="$old" -v new="$new" '$0 == old { print new; next } { print }' "$root/$use" >"$tree/$use"

changed=$(cd "$root" && git ls-files | while read -r f; do cmp -s "$f" "$tree/$f" || echo "$f"; done)
expect_eq "files the example changes" "$(echo $changed)" "sweeps/job_train_options.c sweeps/setting_rows.h sweeps/peaks_columns.h"

# peakfit, its use included (job_train_options is peakfit's as the worker's).
make -C "$tree" -s B=build BIN=bin CFLAGS=-O0 bin/peakfit >"$TMP/make.out" 2>&1 ||
    fail "the copy with the example does not build: $(tail -20 "$TMP/make.out")"
pf=$tree/bin/peakfit

(cd "$tree" && make -s BIN=bin docs >/dev/null) || fail "make docs in the copy"
grep -qF '| `learning_rate` | AdamW'"'"'s learning rate, 0 … 1 | 1e-4 |' "$tree/docs/sweeps.md" ||
    fail "docs/sweeps.md has no learning_rate key: $(grep learning "$tree/docs/sweeps.md")"
grep -qF '| `learning_rate` | number | setting | AdamW' "$tree/docs/peaks-csv.md" ||
    fail "docs/peaks-csv.md has no learning_rate column"
"$pf" worker --help | grep -q -- '--learning-rate VALUE' || fail "peakfit worker --help has no --learning-rate"

printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 8\nthreads = 1\nlearning_rate = 2\n' >"$TMP/bad.sweep"
"$pf" grid "$TMP/bad.sweep" >/dev/null 2>"$TMP/err"
expect_eq "learning_rate = 2: exit status" "$?" 2
expect_eq "learning_rate = 2: message" "$(cat "$TMP/err")" \
    "peakfit: $TMP/bad.sweep:7: learning_rate must be a number from 0 to 1, not \"2\""

# The runner passes it to the worker and records it: a stand-in worker
# writes down its argv and fails, and the failure is the point's row.
printf '#!/bin/sh\necho "$@" >"%s/argv"\nexit 4\n' "$TMP" >"$TMP/worker"
chmod +x "$TMP/worker"
sed 's/learning_rate = 2/learning_rate = 1e-3/' "$TMP/bad.sweep" >"$TMP/ok.sweep"
PEAKFIT_WORKER=$TMP/worker "$pf" run "$TMP/ok.sweep" -o "$TMP/out" >/dev/null 2>&1
grep -q -- '--learning-rate 0.001 ' "$TMP/argv" 2>/dev/null || fail "the worker's argv: $(cat "$TMP/argv" 2>&1)"
expect_eq "peaks.csv's learning_rate" "$("$CSVQ" "$TMP/out/peaks.csv" learning_rate)" "0.001"
echo "adding_a_setting_test: the worked example touches 3 files and reaches every surface"
