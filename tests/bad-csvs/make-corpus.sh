#!/usr/bin/env bash
# Regenerates the committed bad peaks.csv corpus: the cases made from the
# real fixture (a peaks.csv of an older version: `fit` still reads those).
# The cases made from a peaks.csv of this version (newer-version.csv and
# the run-* ones) are made by tests/csv_errors_test.sh itself, from a run
# of resume.sweep, with make-current-cases.sh: a column added to peaks.csv
# (a setting's own, say) changes them with no file to remake.
# EXPECTED: file, command (fit: `peakfit fit DIR`; run: `peakfit run
# resume.sweep -o DIR`), exit status, and the exact line it must print (@P@:
# DIR/peaks.csv, @S@: the sweep). Names starting with @ are made by
# tests/csv_errors_test.sh itself (special files, a huge file).
set -eu
cd "$(dirname "$0")"
rm -f ./*.csv
src=../fixtures/tiny-cpu-peaks.csv
header=$(head -1 "$src")
row=$(sed -n 2p "$src")
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
# set_field N VALUE: the fixture's first row with field N replaced
set_field() { awk -F, -v OFS=, -v n="$1" -v v="$2" '{ $n = v; print }' <<<"$row"; }
# swap_columns FILE A B: every line with fields A and B exchanged
swap_columns() { awk -F, -v OFS=, -v a="$2" -v b="$3" '{ t = $a; $a = $b; $b = t; print }' "$1"; }
: >empty.csv
printf '\001\002,\177"x\n%s\n' "$row" >binary.csv
printf 'a,b,c\n1,2,3\n' >wrong-header.csv
printf '%s\n' "$header" >header-only.csv
printf '%s\nx,y,z\n' "$header" >wrong-column-count.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src peak_above_baseline_mib)" nan)" >nan-peak.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src tensor_peak_mib)" 1e999)" >huge-number.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src batch)" -4)" >negative-batch.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src tokens)" 999)" >tokens-mismatch.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src job)" '"full')" >unterminated-quote.csv
printf '%s\n%s' "$header" "${row:0:40}" >truncated.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src step_mean_s)" fast)" >text-in-number.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src peak_above_baseline_mib)" '')" >ok-without-peak.csv
printf '%s\n%s\n' "$header" "$header" >header-twice.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col $src status)" oom)" >only-failures.csv
swap_columns "$src" 2 3 >reordered-columns.csv
{ head -3 "$src"; sed -n 2p "$src"; } >duplicate-ids.csv
fixture_id=$(sed -n 2p "$src" | cut -d, -f1)

tab=$'\t'
cat >EXPECTED <<END
empty.csv${tab}fit${tab}2${tab}peakfit: @P@: empty, no header line
binary.csv${tab}fit${tab}2${tab}peakfit: @P@: the header line does not parse
wrong-header.csv${tab}fit${tab}2${tab}peakfit: @P@:1: header differs from this version's peaks.csv at column 1 ("a", expected "point_id")
header-only.csv${tab}fit${tab}2${tab}peakfit: @P@: no successful points to fit
wrong-column-count.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: has 3 fields, the header has 37
nan-peak.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: peak_above_baseline_mib "nan" is not a finite number
huge-number.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: tensor_peak_mib "1e999" is not a finite number
negative-batch.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: batch "-4" or seq_len "64" is not a whole number from 0 to 1000000
tokens-mismatch.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: tokens 999 is not batch x seq_len = 64
unterminated-quote.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: malformed CSV (error parsing data while strict checking enabled)
truncated.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: truncated last row (the file ends inside it)
text-in-number.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: step_mean_s "fast" is not a finite number
ok-without-peak.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: status ok but no peak_above_baseline_mib
header-twice.csv${tab}fit${tab}2${tab}peakfit: @P@:2: skipped: batch "batch" is not a whole number
only-failures.csv${tab}fit${tab}2${tab}peakfit: @P@: no successful points to fit
reordered-columns.csv${tab}fit${tab}2${tab}peakfit: @P@:1: header differs from this version's peaks.csv at column 2 ("model", expected "job")
duplicate-ids.csv${tab}fit${tab}0${tab}peakfit: @P@:4: point $fixture_id again (first at line 2): the later row is used
@directory${tab}fit${tab}2${tab}peakfit: @P@: is a directory, not a file
@fifo${tab}fit${tab}2${tab}peakfit: @P@: is a FIFO, not a regular file
@dev-zero${tab}fit${tab}2${tab}peakfit: @P@: is a character device, not a regular file
@many-short-lines${tab}fit${tab}2${tab}peakfit: @P@: has 25000000 lines; at most 5000000 rows are read
@directory${tab}run${tab}2${tab}peakfit: @P@: is a directory, not a file
@fifo${tab}run${tab}2${tab}peakfit: @P@: is a FIFO, not a regular file
@dev-zero${tab}run${tab}2${tab}peakfit: @P@: is a character device, not a regular file
@many-short-lines${tab}run${tab}2${tab}peakfit: @P@: has 25000000 lines; at most 5000000 rows are read
END
