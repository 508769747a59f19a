# bench/run and bench/entries.tsv: every file and directory directly under
# bench/results/ names the entry that made it (a file's first line, a
# directory's ENTRY: "bench/run NAME:", by bench/run or, for a result made
# before it, bench/run --adopt), no text file under it says it was edited
# by hand, every entry's result is committed (or its row says none is yet),
# docs/benchmarks.md's table is `bench/run --list`, and bench/run itself
# runs an entry (header, lock, a failed entry leaving the result as it was)
# and refuses a bad name, usage or registry with exit 2 and its message.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
cd "$root" || fail "no $root"

# results_problems ROOT: what is wrong with ROOT's bench/entries.tsv and
# bench/results/, one line each (nothing when all is well).
results_problems() (
    cd "$1" || exit 1
    # name, script, result and whether a result is committed yet ("no
    # result committed" in its row says not), tab-separated
    entries=$(awk -F'\t' '!/^#/ && NF == 7 && n++ {
        split($2, w, " "); s = ""; for (i = 1; i in w; i++) if (w[i] !~ /=/) { s = w[i]; break }
        print $1 "\t" s "\t" $5 "\t" ($6 ~ /no result committed/ ? "none yet" : "committed") }' bench/entries.tsv)
    while IFS=$'\t' read -r name script result committed; do
        if [ "$committed" = committed ]; then
            [ -e "$result" ] || echo "entry $name: its result $result is not there"
        else
            [ ! -e "$result" ] || echo "entry $name: its row says no result is committed, but $result is there"
        fi
        [ "$script" = historical ] || [ -x "$script" ] || echo "entry $name: its command $script is not an executable file"
    done <<<"$entries"
    for path in bench/results/*; do
        name=$(awk -F'\t' -v p="$path" '$3 == p { print $1 }' <<<"$entries")
        [ -n "$name" ] || { echo "$path is no entry's result (bench/entries.tsv)"; continue; }
        if [ -d "$path" ]; then
            if [ ! -f "$path/ENTRY" ]; then
                echo "$path has no ENTRY naming its entry (bench/run $name, or bench/run --adopt $name)"
            else
                case $(head -n 1 "$path/ENTRY") in "bench/run $name: "*) ;;
                *) echo "$path/ENTRY does not name bench/run $name: $(head -n 1 "$path/ENTRY")" ;; esac
            fi
        else
            head -n 1 "$path" | grep -qF "bench/run $name: " ||
                echo "$path's first line does not name bench/run $name (bench/run $name, or bench/run --adopt $name)"
        fi
    done
    # A result is its entry's output: one that says a person edited it is not
    # (notes written by hand go beside the script, e.g. bench/auto-sweep-notes.md).
    { grep -rIniE --exclude='*.csv' '\b(by hand|hand-?written|hand-edited)\b' bench/results || true; } |
        sed 's/^\([^:]*:[0-9]*\):.*/\1: a result says it was edited by hand (move the note beside its script)/'
)

n_entries=$(awk -F'\t' '!/^#/ && NF == 7 && n++' bench/entries.tsv | wc -l)
[ "$n_entries" -gt 30 ] || fail "bench/entries.tsv: too few entries read: $n_entries"
results_problems "$root" >"$TMP/problems" || fail "results_problems failed"
[ ! -s "$TMP/problems" ] || fail "bench/results: $(cat "$TMP/problems")"

# The same checks fail on a tree that breaks them: a result edited by hand,
# a directory without ENTRY, a row whose committed result is missing.
bad=$TMP/bad
mkdir -p "$bad/bench/results/dir" "$bad/bench/results/cheap"
printf '#!/bin/sh\n' >"$bad/bench/make.sh"
chmod +x "$bad/bench/make.sh"
{
    printf 'name\tcommand\tneeds\tcost\tresult\tmeasures\tnoise\n'
    printf 'one\tbench/make.sh\t-\t1 s\tbench/results/one.txt\ta figure\texact\n'
    printf 'dir\tbench/make.sh\t-\t1 s\tbench/results/dir\tfigures\texact\n'
    printf 'gone\tbench/make.sh\t-\t1 s\tbench/results/gone.txt\ta figure\texact\n'
    printf 'later\tbench/make.sh\t-\t1 s\tbench/results/later.txt\ta figure; no result committed yet\texact\n'
    printf 'cheap\tbench/make.sh\t-\t1 s\tbench/results/cheap\tfigures\texact\n'
} >"$bad/bench/entries.tsv"
printf '# bench/run one: commit x\nfigure 1\n# the last row finished By Hand\n' >"$bad/bench/results/one.txt"
printf 'bench/run cheap: commit x\n' >"$bad/bench/results/cheap/ENTRY"
printf 'a,b\n"by hand",1\n' >"$bad/bench/results/cheap/peaks.csv"
expect_eq "a broken tree's problems" "$(results_problems "$bad")" "entry gone: its result bench/results/gone.txt is not there
bench/results/dir has no ENTRY naming its entry (bench/run dir, or bench/run --adopt dir)
bench/results/one.txt:3: a result says it was edited by hand (move the note beside its script)"

# docs/benchmarks.md's table is bench/run --list's
bench/run --list >"$TMP/list" || fail "bench/run --list failed"
tests/tools/doc-splice.sh docs/benchmarks.md "$TMP/benchmarks.md" <"$TMP/list" || fail "doc-splice.sh failed"
diff -u docs/benchmarks.md "$TMP/benchmarks.md" >"$TMP/diff" ||
    fail "docs/benchmarks.md's table is not bench/run --list's (make docs): $(head -20 "$TMP/diff")"
expect_eq "--list: a row per entry" "$(grep -c '^| `' "$TMP/list")" "$n_entries"

# bad names and usage
bench/run no-such-entry >/dev/null 2>"$TMP/err"
expect_eq "unknown entry: exit status" "$?" 2
expect_eq "unknown entry: message" "$(cat "$TMP/err")" 'bench/run: no entry named "no-such-entry" (bench/run --list lists them)'
bench/run >/dev/null 2>"$TMP/err"
expect_eq "no name: exit status" "$?" 2
expect_eq "no name: message" "$(cat "$TMP/err")" \
    "bench/run: usage: bench/run NAME [OUT [ARG...]] | bench/run --list | bench/run --adopt NAME"
bench/run smollm2-1.13 >/dev/null 2>"$TMP/err"
expect_eq "historical entry: exit status" "$?" 2
expect_eq "historical entry: message" "$(cat "$TMP/err")" \
    "bench/run: smollm2-1.13 is historical: its protocol is gone and nothing reruns it (bench/results/smollm2-135m-cpu)"

# A registry of our own, in a copy of bench/run's place: two entries run for real.
repo=$TMP/repo
mkdir -p "$repo/bench" "$repo/build/tests/tools"
cp bench/run "$repo/bench/run"
# bench/run makes the tests' csvq where it is missing; here it is there.
printf '#!/bin/sh\n' >"$repo/build/tests/tools/csvq"
chmod +x "$repo/build/tests/tools/csvq"
cat >"$repo/bench/write.sh" <<'EOF'
#!/usr/bin/env bash
# writes "figure N" to OUT (a file) or OUT/figures.txt (a directory); FAIL=1: fails after writing
if [ -d "$OUT" ]; then echo "figure $1" >"$OUT/figures.txt"; else echo "figure $1" >"$OUT"; fi
[ -z "${FAIL:-}" ]
EOF
chmod +x "$repo/bench/write.sh"
{
    printf 'name\tcommand\tneeds\tcost\tresult\tmeasures\tnoise\n'
    printf 'one\tbench/write.sh 1\t-\t1 s\tbench/results/one.txt\ta figure | with a pipe\texact\n'
    printf 'dir\tbench/write.sh 2\t-\t1 s\tbench/results/dir\tfigures in a folder\texact\n'
    printf 'broken\tFAIL=1 bench/write.sh 3\t-\t1 s\tbench/results/one.txt\ta failure\texact\n'
} >"$repo/bench/entries.tsv"
export BENCH_LOCK=$TMP/lock PEAKFIT
expect_eq "--list escapes a pipe" "$("$repo/bench/run" --list | grep '^| `one`')" \
    '| `one` | a figure \| with a pipe | - | 1 s | `bench/results/one.txt` | exact |'
"$repo/bench/run" one 2>"$TMP/err" || fail "bench/run one: $(cat "$TMP/err")"
result=$repo/bench/results/one.txt
expect_eq "a file result: its lines" "$(wc -l <"$result")" 2
grep -qE "^# bench/run one: commit [^,]+, .+, $(nproc) cores, [0-9.]+ GiB, [0-9T:-]+Z, load [0-9. ]+ at start, [0-9. ]+ at end$" \
    "$result" || fail "a file result's header: $(head -n 1 "$result")"
expect_eq "a file result: the entry's output after its header" "$(tail -n 1 "$result")" "figure 1"
"$repo/bench/run" broken >/dev/null 2>&1
expect_eq "a failing entry: exit status" "$?" 1
expect_eq "a failing entry leaves the result as it was" "$(tail -n 1 "$result")" "figure 1"
[ ! -e "$result.new" ] || fail "a failing entry left $result.new"
"$repo/bench/run" one "$TMP/elsewhere.txt" 2>/dev/null || fail "bench/run one OUT failed"
expect_eq "OUT given" "$(tail -n 1 "$TMP/elsewhere.txt")" "figure 1"
# the lock: a second entry waits while another holds it
flock "$BENCH_LOCK" sh -c 'touch "$1"; sleep 2' sh "$TMP/held" &
for _ in $(seq 100); do [ -e "$TMP/held" ] && break; sleep 0.1; done
[ -e "$TMP/held" ] || fail "the lock was not taken by the test's own flock"
"$repo/bench/run" dir 2>"$TMP/err" || fail "bench/run dir: $(cat "$TMP/err")"
grep -qF "bench/run: dir waits for $BENCH_LOCK (another benchmark is measuring)" "$TMP/err" ||
    fail "bench/run did not wait for the lock: $(cat "$TMP/err")"
wait
expect_eq "a directory result" "$(cat "$repo/bench/results/dir/figures.txt")" "figure 2"
grep -qE "^bench/run dir: commit " "$repo/bench/results/dir/ENTRY" || fail "ENTRY: $(cat "$repo/bench/results/dir/ENTRY")"
# bench/check: an entry made again and compared within its noise, the
# committed result untouched; a figure that moved beyond it fails, naming it.
cp bench/check bench/check_result.py "$repo/bench/"
git -C "$repo" init -q && git -C "$repo" add -A && git -C "$repo" -c user.email=t@t -c user.name=t commit -qm t
"$repo/bench/check" one "$TMP/check1" >"$TMP/out" 2>&1 || fail "bench/check one: $(cat "$TMP/out")"
grep -qx "bench/check one: made again in $TMP/check1/one.txt, within its noise (exact)" "$TMP/out" ||
    fail "bench/check one: $(tail -n 1 "$TMP/out")"
expect_eq "bench/check leaves the committed result" "$(tail -n 1 "$result")" "figure 1"
{
    printf 'moved\tbench/write.sh 1.04\t-\t1 s\tbench/results/one.txt\tthe same result, 4 %% off\t5 %%\n'
    printf 'tight\tbench/write.sh 1.06\t-\t1 s\tbench/results/one.txt\tthe same result, 6 %% off\t5 %%\n'
    printf 'shape\tbench/write.sh 7\t-\t1 s\tbench/results/one.txt\tonly its shape\tstructure\n'
} >>"$repo/bench/entries.tsv"
"$repo/bench/check" moved "$TMP/check2" >"$TMP/out" 2>&1 || fail "4 % within 5 %: $(cat "$TMP/out")"
"$repo/bench/check" shape "$TMP/check3" >"$TMP/out" 2>&1 || fail "structure: $(cat "$TMP/out")"
"$repo/bench/check" tight "$TMP/check4" >"$TMP/out" 2>&1
expect_eq "6 % beyond 5 %: exit status" "$?" 1
grep -qxF "one.txt:2: 1.06, committed 1 (+6.0%)" "$TMP/out" || fail "6 % beyond 5 %: $(cat "$TMP/out")"
# ", verdicts": a point's inside/outside and the R^2 flag drawn from a
# figure at its threshold are noise; any other word is not.
mkdir -p "$TMP/verdict/old" "$TMP/verdict/new"
printf '# bench/run v: x\n  8  631.4  +2.54  yes\nflags: too few; R^2 0.827 below 0.9: the fit explains the peaks poorly\n' \
    >"$TMP/verdict/old/v.txt"
printf '# bench/run v: y\n  8  624.0  +4.05   no\nflags: too few\n' >"$TMP/verdict/new/v.txt"
python3 bench/check_result.py "$TMP/verdict/old/v.txt" "$TMP/verdict/new/v.txt" "structure, verdicts" >"$TMP/out" ||
    fail "verdicts as noise: $(cat "$TMP/out")"
python3 bench/check_result.py "$TMP/verdict/old/v.txt" "$TMP/verdict/new/v.txt" structure >"$TMP/out"
expect_eq "verdicts not stated as noise: exit status" "$?" 1
expect_eq "verdicts not stated as noise: differences" "$(grep -c 'another line' "$TMP/out")" 2
python3 bench/check_result.py "$TMP/verdict/old/v.txt" "$TMP/verdict/new/v.txt" "5 %, verdicts" >"$TMP/out"
grep -qxF "v.txt:2: 4.05, committed 2.54 (+59.4%)" "$TMP/out" ||
    fail "N %, verdicts: the figures still compared: $(cat "$TMP/out")"
printf '# bench/run v: y\n  8  624.0  +4.05  maybe\nflags: too few\n' >"$TMP/verdict/new/v.txt"
python3 bench/check_result.py "$TMP/verdict/old/v.txt" "$TMP/verdict/new/v.txt" "structure, verdicts" >"$TMP/out"
expect_eq "a word that is no verdict: exit status" "$?" 1
python3 bench/check_result.py "$TMP/verdict/old/v.txt" "$TMP/verdict/new/v.txt" "exact, verdicts" >/dev/null 2>"$TMP/err"
expect_eq "exact has no verdicts: message" "$(cat "$TMP/err")" \
    "check_result.py: noise must be exact, structure or N % (the last two may add \", verdicts\"), not 'exact, verdicts'"
"$repo/bench/check" no-such-entry >/dev/null 2>"$TMP/err"
expect_eq "bench/check, unknown entry: exit status" "$?" 2
expect_eq "bench/check, unknown entry: message" "$(cat "$TMP/err")" \
    'bench/check: no entry named "no-such-entry" (bench/run --list lists them)'

# a need bench/run does not know
printf 'odd\tbench/write.sh 4\tnumpy, a quiet room\t1 s\tbench/results/odd.txt\tnothing\texact\n' >>"$repo/bench/entries.tsv"
"$repo/bench/run" odd >/dev/null 2>"$TMP/err"
expect_eq "an unknown need: exit status" "$?" 2
expect_eq "an unknown need: message" "$(cat "$TMP/err")" \
    'bench/run: bench/entries.tsv: odd needs "a quiet room", which bench/run does not know'
[ ! -e "$repo/bench/results/odd.txt" ] || fail "an entry with an unknown need ran"
# a registry row with a field missing
printf 'short\tbench/write.sh\t-\tbench/results/x\tno cost\texact\n' >>"$repo/bench/entries.tsv"
"$repo/bench/run" one >/dev/null 2>"$TMP/err"
expect_eq "a short row: exit status" "$?" 2
expect_eq "a short row: message" "$(cat "$TMP/err")" "bench/entries.tsv:9: expected 7 tab-separated fields, got 6"
