# The documents generated from the code's tables are up to date: the
# committed docs/peaks-csv.md is `peakfit columns`' output (make docs
# writes it), so a column added to settings/peaks_columns.h shows up here.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
"$PEAKFIT" columns >"$TMP/peaks-csv.md" || fail "peakfit columns failed"
diff -u "$root/docs/peaks-csv.md" "$TMP/peaks-csv.md" >"$TMP/diff" ||
    fail "docs/peaks-csv.md is not what \`peakfit columns\` prints (run make docs):
$(head -40 "$TMP/diff")"
"$PEAKFIT" columns extra 2>"$TMP/err" >/dev/null
expect_eq "columns with an argument: exit status" "$?" 2
expect_eq "columns with an argument: message" "$(cat "$TMP/err")" 'peakfit: columns takes no arguments (got "extra")'
# docs/sweeps.md's key table is `peakfit keys`' output (make docs splices it in).
"$PEAKFIT" keys | "$root/tests/tools/doc-splice.sh" "$root/docs/sweeps.md" "$TMP/sweeps.md" ||
    fail "peakfit keys | doc-splice.sh failed"
diff -u "$root/docs/sweeps.md" "$TMP/sweeps.md" >"$TMP/diff" ||
    fail "docs/sweeps.md's key table is not what \`peakfit keys\` prints (run make docs):
$(head -40 "$TMP/diff")"
"$PEAKFIT" keys extra 2>"$TMP/err" >/dev/null
expect_eq "keys with an argument: exit status" "$?" 2
expect_eq "keys with an argument: message" "$(cat "$TMP/err")" 'peakfit: keys takes no arguments (got "extra")'
# The README, docs/ and bench/ speak of the product: what is true and how to
# reproduce it, not a development log ("this session", "stop 27") nor a
# development machine's paths (/work/..., its lock files).
cd "$root" || fail "no $root"
if git rev-parse --git-dir >/dev/null 2>&1; then files=$(git ls-files README.md docs bench); else files=$(find README.md docs bench -type f); fi
log=$(grep -nIiE '\bsessions?\b|\bstops? [0-9]+|(^|[^A-Za-z0-9_.-])/work/|bigmem\.lock' $files)
[ -z "$log" ] || fail "README, docs/ or bench/ speak of development, not the product:
$(head -20 <<<"$log")"
# docs/benchmarks.md's table of benchmarks is `bench/run --list`'s output
# (make docs splices it in).
bench/run --list | tests/tools/doc-splice.sh docs/benchmarks.md "$TMP/benchmarks.md" ||
    fail "bench/run --list | doc-splice.sh failed"
diff -u docs/benchmarks.md "$TMP/benchmarks.md" >"$TMP/diff" ||
    fail "docs/benchmarks.md's table is not what \`bench/run --list\` prints (run make docs):
$(head -40 "$TMP/diff")"
# Every bench script is an entry's command (bench/entries.tsv), a part of
# one named in docs/benchmarks.md, or a research tool in bench/research/README.md;
# each result docs/benchmarks.md names is committed.
for f in $(grep -E '^bench/.*\.(sh|py|c)$' <<<"$files" | grep -v '^bench/results/'); do
    cut -f2 bench/entries.tsv | tr ' ' '\n' | grep -qxF "$f" || grep -qF "\`$f" docs/benchmarks.md ||
        grep -qF "\`${f#bench/research/}\`" bench/research/README.md ||
        fail "$f is no entry's command (bench/entries.tsv), nor named in docs/benchmarks.md or bench/research/README.md"
done
# (an entry whose row says "no result committed" names the path it will write)
for r in $(grep -o 'bench/results/[A-Za-z0-9_./-]*' docs/benchmarks.md | sort -u); do
    [ -e "$r" ] || awk -F'\t' -v r="$r" '$5 == r && $6 ~ /no result committed/ { found = 1 } END { exit !found }' \
        bench/entries.tsv || fail "docs/benchmarks.md names $r, which is not there"
done
# README.md and docs/ are reference pages: when a run was made (a date with
# its clock time), under what load, at which commit, for which issue belong
# in the result its entry writes or in the notes beside its script in bench/
# (bench/results/ holds only what entries write), the page keeping what
# holds and a link. diary FILE...: FILE:LINE:TEXT of each such line. A hash
# is a word of 7 to 40 hex digits with a digit and a letter, outside fenced
# code (example output may show a config's hash); a colour (#f2f2f2) is
# shorter.
diary() {
    local f
    for f in "$@"; do
        grep -HniE '[0-9]{4}-[0-9]{2}-[0-9]{2}[ T]+[0-9]{1,2}:[0-9]{2}|[0-9]{1,2}:[0-9]{2}( UTC)?,? (on )?[0-9]{4}-[0-9]{2}-[0-9]{2}|\bload( averages?)?( of| at)? [0-9]|loadavg|(^|[^A-Za-z0-9_&#/])#[0-9]+\b' "$f"
        awk '/^ *(```|~~~)/ { fence = !fence; print ""; next } { print fence ? "" : $0 }' "$f" |
            grep -noEw '[0-9a-f]{7,40}' | awk -F: -v f="$f" '$2 ~ /[0-9]/ && $2 ~ /[a-f]/ { print f ":" $0 }'
    done
}
cat >"$TMP/planted.md" <<'PLANTED'
Measured on 2026-11-03 14:05, one slice.
Quiet at 09:30 UTC on 2026-11-04 too.
The machine was busy (load average 6-8) meanwhile.
At commit 398e023 the suite passed.
Fixed for #18.
A colour #f2f2f2, a rank of 1000000, the hash 0123456789abcdef of a config in prose,
```
plan for tiny / cpu / full, measured_by worker 0123456789abcdef
```
the entity &#35; and the link [ranks](#ranks), the date 2026-12-04 alone.
PLANTED
expect_eq "the diary check on planted lines" "$(diary "$TMP/planted.md" | sed "s|^$TMP/||" | cut -d: -f1,2 | tr '\n' ' ')" \
    "planted.md:1 planted.md:2 planted.md:3 planted.md:5 planted.md:4 planted.md:6 "
found=$(diary README.md docs/*.md)
[ -z "$found" ] || fail "README.md or docs/ hold a run's diary (a dated clock time, a load average, a commit hash or an issue number: move it into the entry's result or the notes beside its script in bench/):
$(head -20 <<<"$found")"
