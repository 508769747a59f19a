#!/usr/bin/env bash
# make-current-cases.sh BASE DIR: the bad peaks.csv cases made from BASE, a
# peaks.csv of this version written by `peakfit run resume.sweep` (so they
# follow this version's columns, whichever they are), into DIR, with their
# lines of tests/bad-csvs/EXPECTED's form in DIR/EXPECTED.
set -eu
base=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
cd "$2"
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
# swap_columns FILE A B: every line with fields A and B exchanged
swap_columns() { awk -F, -v OFS=, -v a="$2" -v b="$3" '{ t = $a; $a = $b; $b = t; print }' "$1"; }
new_header=$(head -1 $base)
n_old=$(col $base error)
printf '%s,future_column\n' "$new_header" >newer-version.csv
cut -d, -f1-"$n_old" $base >run-old-header.csv
swap_columns $base "$(col $base seed)" "$(col $base threads_requested)" >run-reordered-columns.csv
# set_row_field FILE LINE COLUMN VALUE
set_row_field() { awk -F, -v OFS=, -v l="$2" -v n="$(col "$1" "$3")" -v v="$4" 'NR == l { $n = v } { print }' "$1"; }
set_row_field $base 3 seed 5 >run-other-seed.csv
set_row_field $base 2 config_hash 00000000deadbeef >run-other-config.csv
sed '2,$s/^j\//k\//' $base >run-other-sweep.csv
set_row_field $base 2 peak_rss_mib lots >run-bad-number.csv
{ cat $base; sed -n 2p $base; } >run-duplicate-ids.csv
{ cat $base; sed -n 3p $base | cut -c1-50 | tr -d '\n'; } >run-truncated.csv
id2=$(sed -n 2p $base | cut -d, -f1)
id3=$(sed -n 3p $base | cut -d, -f1)

tab=$'\t'
cat >EXPECTED <<END
newer-version.csv${tab}fit${tab}2${tab}peakfit: @P@:1: header differs from this version's peaks.csv at column $(($(head -1 $base | tr ',' '\n' | wc -l) + 1)) ("future_column", expected no more columns): it is from another peakfit version
run-old-header.csv${tab}run${tab}2${tab}peakfit: @P@:1: header differs from this version's peaks.csv at column $((n_old + 1)) (no column, expected "model_source"): it is from another peakfit version; use another -o DIR or move peaks.csv away
run-reordered-columns.csv${tab}run${tab}2${tab}peakfit: @P@:1: header differs from this version's peaks.csv at column $(col $base seed) ("threads_requested", expected "seed"); use another -o DIR or move peaks.csv away
run-other-seed.csv${tab}run${tab}2${tab}peakfit: @P@:3: point $id3 was measured with seed 5; the sweep now says 0: use another -o DIR or move peaks.csv away
run-other-config.csv${tab}run${tab}2${tab}peakfit: @P@:2: point $id2 was measured with config_hash 00000000deadbeef; the sweep now says (none): use another -o DIR or move peaks.csv away
run-other-sweep.csv${tab}run${tab}2${tab}peakfit: @P@ holds 3 points that @S@ does not define (first: k${id2#j} at line 2): it belongs to another sweep; use another -o DIR
run-bad-number.csv${tab}run${tab}2${tab}peakfit: @P@:2: peak_rss_mib "lots" is not a finite number; fix or remove that row before resuming
run-duplicate-ids.csv${tab}run${tab}0${tab}peakfit: @P@:5: point $id2 again (first at line 2): the later row is used
run-truncated.csv${tab}run${tab}0${tab}peakfit: @P@:5: truncated last row removed (an interrupted write); its point will run again
END
