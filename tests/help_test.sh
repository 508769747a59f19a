# --help, -h and help print usage on stdout and exit 0, for peakfit and for
# each command (caught before the command reads its arguments: `fit --help`
# is not a directory); --version names peakfit's and libtorch's versions;
# an unknown command is named, with the commands there are; --output is -o.
source "$(dirname "$0")/lib.sh"
set -o pipefail
commands="run grid all fit plot report calc verify params columns worker slurm"
for ask in --help -h help; do
    out=$("$PEAKFIT" $ask 2>"$TMP/err") || fail "peakfit $ask: exit status $?"
    expect_eq "peakfit $ask: stderr" "$(cat "$TMP/err")" ""
    expect_eq "peakfit $ask: first line" "$(head -n 1 <<<"$out")" \
        "usage: peakfit COMMAND ...    (peakfit COMMAND --help, peakfit --version)"
    for c in $commands; do
        grep -q "^  $c " <<<"$out" || fail "peakfit $ask does not list $c"
    done
done
mkdir "$TMP/cwd"
for c in $commands; do
    out=$(cd "$TMP/cwd" && "$PEAKFIT" $c --help 2>"$TMP/err") || fail "peakfit $c --help: exit status $?"
    expect_eq "peakfit $c --help: stderr" "$(cat "$TMP/err")" ""
    grep -q "^usage: peakfit $c " <<<"$out" || fail "peakfit $c --help: $out"
done
# -h, after other arguments too, and nothing is read or written.
out=$(cd "$TMP/cwd" && "$PEAKFIT" fit some-dir -h) || fail "fit DIR -h: exit status $?"
expect_eq "fit DIR -h" "$(head -n 1 <<<"$out")" "usage: peakfit fit DIR"
out=$("$PEAKFIT" help calc) || fail "help calc: exit status $?"
grep -q "^usage: peakfit calc DIR --budget SIZE" <<<"$out" || fail "help calc: $out"
[ -z "$(ls "$TMP/cwd")" ] || fail "--help left files: $(ls "$TMP/cwd")"

out=$("$PEAKFIT" --version) || fail "--version: exit status $?"
grep -qx "peakfit [0-9]*\.[0-9]*\.[0-9]*" <<<"$(sed -n 1p <<<"$out")" || fail "--version: $out"
grep -qx "libtorch [0-9][0-9.]*" <<<"$(sed -n 2p <<<"$out")" || fail "--version: no libtorch: $out"
grep -qx "cuda \(compiled in\|not compiled in\)" <<<"$(sed -n 3p <<<"$out")" || fail "--version: no cuda line: $out"

err=$("$PEAKFIT" fitt DIR 2>&1); rc=$?
expect_eq "unknown command: exit status" "$rc" 2
expect_eq "unknown command: message" "$err" \
    "peakfit: unknown command \"fitt\" (commands: run, grid, all, fit, plot, report, calc, verify, params, columns, worker, slurm); peakfit --help for usage"
err=$("$PEAKFIT" help fitt 2>&1); rc=$?
expect_eq "help for an unknown command: exit status" "$rc" 2

load_sweep "$TMP/s.sweep"
"$PEAKFIT" run "$TMP/s.sweep" --output "$TMP/out" 2>"$TMP/err" || fail "run --output: $(cat "$TMP/err")"
expect_eq "run --output: rows" "$("$CSVQ" "$TMP/out/peaks.csv" status)" ok
