# A setting is its row plus the code that uses it: docs/adding-a-setting.md's
# worked example (weight_decay) is the tree's own change, and nothing else
# lists it. In a copy of the tree the page's changes are taken out: the
# copy builds, knows no weight_decay, and no source file there names it;
# the page's changes put back as it shows them give the tree again, in at
# most five files. Then the real setting reaches every surface: the sweep
# key with its range check, docs/sweeps.md and docs/peaks-csv.md (make
# docs), the worker's option, peaks.csv, a command job's {weight_decay},
# fit.csv and fit.json, calc's and verify's choice by --weight-decay, and
# grid --peaks' and auto's groups. Builds peakfit at -O0 in the copy
# (about a minute of one core) and measures 8 points of the tiny model.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
page=$root/docs/adding-a-setting.md
tree=$TMP/tree
mkdir "$tree"
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$tree" 2>/dev/null) ||
    fail "cannot copy the tree (git ls-files in $root)"

# block FILE: the page's code block for FILE (its info string names it).
block() { awk -v f="file=$1" '$0 ~ "^```" && index($0, f) { on = 1; next } /^```/ { on = 0 } on' "$page"; }
files=$(awk '/^```.* file=/ { sub(/.* file=/, ""); print }' "$page" | sort -u)
rows=settings/setting_rows.h
block $rows >"$TMP/rows"
[ -s "$TMP/rows" ] || fail "$page has no block for $rows"

# The row is the tree's, the last of SETTING_ROWS (each line but its last
# continued with a backslash): take it out of the copy.
awk -v rows="$TMP/rows" '
    BEGIN { while ((getline l < rows) > 0) want[++n] = l }
    { line[NR] = $0; bare = $0; sub(/ *\\$/, "", bare); plain[NR] = bare }
    END {
        for (s = 1; s + n - 1 <= NR; s++) {
            for (i = 1; i <= n && plain[s + i - 1] == want[i]; i++);
            if (i > n) break
        }
        if (s + n - 1 > NR) exit 3
        for (k = 1; k < s - 1; k++) print line[k]
        print plain[s - 1]
        for (k = s + n; k <= NR; k++) print line[k]
    }' "$root/$rows" >"$tree/$rows" || fail "$rows has no row as the page writes it (the page's example is stale)"
# Each diff's + lines are the tree's: back to its - lines in the copy.
for f in $files; do
    [ "$f" = $rows ] && continue
    block "$f" >"$TMP/diff"
    grep -q '^+' "$TMP/diff" && grep -q '^-' "$TMP/diff" || fail "$page has no - and + lines for $f"
    awk -v d="$TMP/diff" '
        BEGIN { while ((getline l < d) > 0) { if (l ~ /^-/) old[++n] = substr(l, 2); else if (l ~ /^\+/) new[++m] = substr(l, 2) } }
        { for (i = 1; i <= m; i++) if ($0 == new[i]) { print old[i]; hit[i] = 1; next } print }
        END { for (i = 1; i <= m; i++) if (!hit[i]) exit 3 }' "$root/$f" >"$tree/$f" ||
        fail "$f has not every + line of the page's diff (the page's example is stale)"
done

changed=$(cd "$root" && git ls-files | while read -r f; do cmp -s "$f" "$tree/$f" || echo "$f"; done)
expect_eq "files the example changes" "$(echo $changed)" "$(echo $files)"
[ "$(echo "$changed" | wc -l)" -le 5 ] || fail "the example changes more than 5 files: $changed"
# (The shim's AdamW has a weight_decay of libtorch's own, the setting's or not.)
# shellcheck disable=SC2046 # the C source folders, one word each
named=$(cd "$tree" && grep -rlwE 'weight_decay|weight-decay' --include='*.[ch]' \
    $(tests/tools/layout-graph.sh layers | sed 's/ shim / /'))
expect_eq "source files that name weight_decay without the example" "$named" ""
make -C "$tree" -s B=build BIN=bin CFLAGS=-O0 bin/peakfit >"$TMP/make.out" 2>&1 ||
    fail "the copy without the example does not build: $(tail -20 "$TMP/make.out")"
"$tree/bin/peakfit" keys | grep -q weight_decay && fail "the copy without the example has a weight_decay key"
"$tree/bin/peakfit" columns | grep -q weight_decay && fail "the copy without the example has a weight_decay column"

# The page's changes, made as it shows them, give the tree back.
awk -v rows="$TMP/rows" '
    index($0, "#define SETTING_ROWS(") == 1 { in_macro = 1 }
    in_macro && !/\\$/ { printf "%s \\\n", $0; n = 0
        while ((getline l < rows) > 0) lines[++n] = l
        for (i = 1; i <= n; i++) print lines[i] (i < n ? " \\" : ""); in_macro = 0; next }
    { print }' "$tree/$rows" >"$TMP/new" && mv "$TMP/new" "$tree/$rows"
for f in $files; do
    if [ "$f" != $rows ]; then
        block "$f" >"$TMP/diff"
        awk -v d="$TMP/diff" '
            BEGIN { while ((getline l < d) > 0) { if (l ~ /^-/) old[++n] = substr(l, 2); else if (l ~ /^\+/) new[++m] = substr(l, 2) } }
            { for (i = 1; i <= n; i++) if ($0 == old[i]) { print new[i]; next } print }' "$tree/$f" >"$TMP/new" &&
            mv "$TMP/new" "$tree/$f"
    fi
    cmp -s "$root/$f" "$tree/$f" || fail "the page's change to $f does not give the tree's: $(diff "$root/$f" "$tree/$f")"
done

# The surfaces, with the tree's own programs.
# The row's one help text, wherever the setting is described.
help="AdamW's decoupled weight decay, 0 … 1"
grep -qF "| \`weight_decay\` | a list, \`,\` between values, of: $help | 0.01 |" "$root/docs/sweeps.md" ||
    fail "docs/sweeps.md has no weight_decay key: $(grep decay "$root/docs/sweeps.md")"
grep -qF "| \`{weight_decay}\` | the point's \`weight_decay\`, as peakfit's worker gets it: $help |" "$root/docs/own-script.md" ||
    fail "docs/own-script.md has no {weight_decay} placeholder: $(grep decay "$root/docs/own-script.md")"
"$PEAKFIT" auto --help | grep -qF -- "--weight-decay D     $help" ||
    fail "peakfit auto --help does not say the row's help: $("$PEAKFIT" auto --help | grep decay)"
grep -qF '| `weight_decay` | number | setting |' "$root/docs/peaks-csv.md" || fail "docs/peaks-csv.md has no weight_decay column"
"$PEAKFIT" worker --help | grep -q -- '--weight-decay VALUE' || fail "peakfit worker --help has no --weight-decay"

printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 8\nthreads = 1\nweight_decay = 2\n' >"$TMP/bad.sweep"
"$PEAKFIT" grid "$TMP/bad.sweep" >/dev/null 2>"$TMP/err"
expect_eq "weight_decay = 2: exit status" "$?" 2
expect_eq "weight_decay = 2: message" "$(cat "$TMP/err")" \
    "peakfit: $TMP/bad.sweep:7: weight_decay must be a number from 0 to 1, not \"2\""

# Two weight decays listed by one job, measured: each its own group.
out=$TMP/out
write_sweep "$TMP/wd.sweep" <<'EOF'
[wd]
model = tiny
technique = full
seq_len = 16
batch = 1, 2, 3, 4
threads = 1
steps = 1
warm = 1
weight_decay = 0.01, 0.1
EOF
"$PEAKFIT" run "$TMP/wd.sweep" -o "$out" >/dev/null 2>"$TMP/err" || fail "run: exit status $?: $(tail -5 "$TMP/err")"
expect_eq "peaks.csv's weight_decay" "$("$CSVQ" "$out/peaks.csv" weight_decay | sort | uniq -c | tr -s ' \n' ' ')" \
    " 4 0.01 4 0.1 "
expect_eq "the ids name the weight decay" "$("$CSVQ" "$out/peaks.csv" point_id | grep -c '/wd0\.1$')" 4
"$PEAKFIT" fit "$out" >/dev/null 2>"$TMP/err" || fail "fit: exit status $?: $(tail -5 "$TMP/err")"
expect_eq "fit.csv's weight_decay" "$("$CSVQ" "$out/fit.csv" weight_decay | sort -u | tr '\n' ' ')" "0.01 0.1 "
grep -q '"weight_decay": "0.1"' "$out/fit.json" || fail "fit.json has no weight_decay 0.1"

# calc names the two and --weight-decay picks one.
err=$("$PEAKFIT" calc "$out" --budget 2GiB 2>&1 >/dev/null)
expect_eq "calc, two weight decays" "$err" \
    "peakfit: $out holds more than one weight_decay with technique full: choose one with --weight-decay (weight_decays: 0.01, 0.1)"
"$PEAKFIT" calc "$out" --budget 2GiB --weight-decay 0.1 --json >"$TMP/plan" 2>"$TMP/err"
[ $? -le 6 ] || fail "calc --weight-decay 0.1: $(cat "$TMP/err")"
grep -q '"weight_decay": "0.1"' "$TMP/plan" || fail "calc --weight-decay 0.1 planned another group: $(cat "$TMP/plan")"

# verify chooses by it too (its run is not this test's: a worker that is
# not there stops it after the choice).
err=$("$PEAKFIT" verify "$out" --budget 2GiB 2>&1 >/dev/null)
expect_eq "verify, two weight decays" "$err" \
    "peakfit: $out holds more than one weight_decay with technique full: choose one with --weight-decay (weight_decays: 0.01, 0.1)"
PEAKFIT_WORKER=$TMP/none "$PEAKFIT" verify "$out" --budget 2GiB --weight-decay 0.1 >/dev/null 2>"$TMP/err"
grep -q "choose one\|no weight_decay\|unknown option" "$TMP/err" && fail "verify --weight-decay 0.1: $(cat "$TMP/err")"
grep -rqx "weight_decay = 0.1" "$out"/verify-*/verify.sweep 2>/dev/null ||
    fail "verify --weight-decay 0.1 wrote no sweep with weight_decay = 0.1: $(ls "$out"): $(cat "$TMP/err")"

# grid --peaks predicts each point from its own group's fit.
sed 's/^weight_decay = 0.01, 0.1$/weight_decay = 0.3, 0.1/' "$TMP/wd.sweep" >"$TMP/other.sweep"
"$PEAKFIT" grid "$TMP/other.sweep" -o "$out" >/dev/null 2>"$TMP/err" || fail "grid -o: exit status $?"
expect_eq "grid --peaks: points of 0.1 from the fit" \
    "$(grep -c '^  wd/.*/wd0\.1: expected peak [0-9]* MiB (fit)$' "$TMP/err")" 4
expect_eq "grid --peaks: points of 0.3 (not measured) by arithmetic" \
    "$(grep -c '^  wd/.*/wd0\.3: expected peak [0-9]* MiB (arithmetic)$' "$TMP/err")" 4

# auto's sweep and its fit are the chosen weight decay's.
"$PEAKFIT" auto tiny --technique full --seq-len 16 --threads 1 --points 3 --weight-decay 0.1 -o "$TMP/auto" \
    >"$TMP/auto.out" 2>&1 || fail "auto --weight-decay 0.1: exit status $?: $(tail -5 "$TMP/auto.out")"
grep -qx "weight_decay = 0.1" "$TMP/auto/auto.sweep" || fail "auto.sweep has no weight_decay = 0.1: $(cat "$TMP/auto/auto.sweep")"
expect_eq "auto's points' weight_decay" "$("$CSVQ" "$TMP/auto/peaks.csv" weight_decay | sort -u)" "0.1"

# A command job's {weight_decay} is the point's.
printf '[c]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 8\nweight_decay = 0.1\ncommand = true --wd={weight_decay}\n' \
    >"$TMP/command.sweep"
"$PEAKFIT" run "$TMP/command.sweep" -o "$TMP/command" >/dev/null 2>&1
expect_eq "a command job's {weight_decay}" "$("$CSVQ" "$TMP/command/peaks.csv" command)" "'true' '--wd=0.1'"
echo "adding_a_setting_test: the worked example is $(echo "$changed" | wc -l) files and reaches every surface"
