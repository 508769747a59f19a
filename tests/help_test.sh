# --help, -h and help print usage on stdout and exit 0, for peakfit and for
# each command (caught before the command reads its arguments: `fit --help`
# is not a directory); --version names peakfit's and libtorch's versions;
# an unknown command is named, with the commands there are; --output is -o.
source "$(dirname "$0")/lib.sh"
set -o pipefail
commands="run grid all fit plot report calc verify params columns keys worker slurm"
for ask in --help -h help; do
    out=$("$PEAKFIT" $ask 2>"$TMP/err") || fail "peakfit $ask: exit status $?"
    expect_eq "peakfit $ask: stderr" "$(cat "$TMP/err")" ""
    expect_eq "peakfit $ask: first line" "$(head -n 1 <<<"$out")" \
        "usage: peakfit COMMAND ...    (peakfit COMMAND --help, peakfit --version or -V)"
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
# One behaviour everywhere: -V, and COMMAND --version or -V anywhere among
# its arguments, print the same and exit 0 (each used to fail its own way:
# "unexpected argument", "cannot open --version/peaks.csv", "unknown preset").
version=$out
expect_eq "peakfit -V" "$("$PEAKFIT" -V 2>&1)" "$version"
for c in $commands; do
    for ask in --version -V; do
        got=$(cd "$TMP/cwd" && "$PEAKFIT" $c $ask 2>&1) || fail "peakfit $c $ask: exit status $?"
        expect_eq "peakfit $c $ask" "$got" "$version"
    done
done
expect_eq "fit DIR --version" "$(cd "$TMP/cwd" && "$PEAKFIT" fit some-dir --version 2>&1)" "$version"
[ -z "$(ls "$TMP/cwd")" ] || fail "--version left files: $(ls "$TMP/cwd")"

# COMMAND --help lists that command's own options: calc's whole table
# (--zero, --device and --attention were missing), the worker's from the
# sweep key table.
out=$("$PEAKFIT" calc --help) || fail "calc --help: exit status $?"
for o in budget target-batch replicas seq-len technique model device attention margin micro-batch accum json \
    per-sample per-token fixed zero; do
    grep -q "^  --$o\b" <<<"$out" || fail "calc --help does not list --$o: $out"
done
out=$("$PEAKFIT" worker --help) || fail "worker --help: exit status $?"
for o in model technique attention batch seq-len steps mem-limit weights warm report-fd; do
    grep -q "^  --$o\b" <<<"$out" || fail "worker --help does not list --$o: $out"
done
# ... and the worker's own exit statuses, not the runner's.
expect_eq "worker --help: exit statuses" "$(tail -n 1 <<<"$out")" \
    "exit status: 0 ok, 2 a bad option, 3 out of memory, 4 any other failure (its error line says which)"
# A calc error is its message and one line pointing at --help, not the
# option list; bare calc says what it needs the same way.
err=$("$PEAKFIT" calc 2>&1); rc=$?
expect_eq "bare calc: exit status" "$rc" 2
expect_eq "bare calc" "$err" "peakfit calc: needs DIR
peakfit calc --help lists the options"
err=$("$PEAKFIT" calc "$TMP" --replicas 0 2>&1)
expect_eq "calc error" "$err" 'peakfit calc: --replicas must be a whole number from 1 to 1000000, not "0"
peakfit calc --help lists the options'

# peakfit-worker answers --help and --version (and -h, -V) as peakfit does.
out=$("$PEAKFIT_WORKER" --help) || fail "peakfit-worker --help: exit status $?"
expect_eq "peakfit-worker --help" "$(head -n 1 <<<"$out")" \
    "usage: peakfit-worker --model SPEC --technique T [--batch B --seq-len S] [options]"
grep -q "^  --attention\b" <<<"$out" || fail "peakfit-worker --help does not list --attention: $out"
expect_eq "peakfit-worker -h" "$("$PEAKFIT_WORKER" -h)" "$out"
out=$("$PEAKFIT_WORKER" --version) || fail "peakfit-worker --version: exit status $?"
expect_eq "peakfit-worker --version" "$out" "${version/peakfit /peakfit-worker }"
expect_eq "peakfit-worker -V" "$("$PEAKFIT_WORKER" -V)" "$out"

err=$("$PEAKFIT" fitt DIR 2>&1); rc=$?
expect_eq "unknown command: exit status" "$rc" 2
expect_eq "unknown command: message" "$err" \
    "peakfit: unknown command \"fitt\" (commands: run, grid, all, fit, plot, report, calc, verify, auto, params, columns, keys, placeholders, worker, slurm); peakfit --help for usage"
err=$("$PEAKFIT" help fitt 2>&1); rc=$?
expect_eq "help for an unknown command: exit status" "$rc" 2

load_sweep "$TMP/s.sweep"
"$PEAKFIT" run "$TMP/s.sweep" --output "$TMP/out" 2>"$TMP/err" || fail "run --output: $(cat "$TMP/err")"
expect_eq "run --output: rows" "$("$CSVQ" "$TMP/out/peaks.csv" status)" ok
# peakfit --help's exit statuses are README's table: every number in it
# (6 was missing), each once, from util/exit_status.h's rows.
root=$(cd "$TESTS/.." && pwd)
out=$("$PEAKFIT" --help) || fail "--help: exit status $?"
expect_eq "--help's exit statuses" "$(sed -n '/^exit status:/,$p' <<<"$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')" \
    "$(sed -n '/^| status | meaning |/,/^$/p' "$root/README.md" | awk -F'|' '$2 ~ /^ [0-9]+ $/ { printf "%d ", $2 }')"
expect_eq "--help: the exit status 6 line" "$(grep '^ *6 ' <<<"$out")" \
    "    6 calc: the plan fits, but the fit has fewer than 3 points above the knee"
