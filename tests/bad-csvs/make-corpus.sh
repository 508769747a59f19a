#!/usr/bin/env bash
# Regenerates the bad peaks.csv corpus from the real fixture (run it again
# if peaks.csv gains columns). Each file has no usable row, so `peakfit fit`
# must say why and exit 2; EXPECTED holds the exact line it must print.
set -eu
cd "$(dirname "$0")"
src=../fixtures/tiny-cpu-peaks.csv
header=$(head -1 "$src")
row=$(sed -n 2p "$src")
col() { head -1 "$src" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
# set_field N VALUE: the fixture's first row with field N replaced
set_field() { awk -F, -v OFS=, -v n="$1" -v v="$2" '{ $n = v; print }' <<<"$row"; }
: >empty.csv
printf '\001\002,\177"x\n%s\n' "$row" >binary.csv
printf 'a,b,c\n1,2,3\n' >wrong-header.csv
printf '%s\n' "$header" >header-only.csv
printf '%s\nx,y,z\n' "$header" >wrong-column-count.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col peak_above_baseline_mib)" nan)" >nan-peak.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col tensor_peak_mib)" 1e999)" >huge-number.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col batch)" -4)" >negative-batch.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col tokens)" 999)" >tokens-mismatch.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col job)" '"full')" >unterminated-quote.csv
printf '%s\n%s' "$header" "${row:0:40}" >truncated.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col step_mean_s)" fast)" >text-in-number.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col peak_above_baseline_mib)" '')" >ok-without-peak.csv
printf '%s\n%s\n' "$header" "$header" >header-twice.csv
printf '%s\n%s\n' "$header" "$(set_field "$(col status)" oom)" >only-failures.csv
cat >EXPECTED <<'END'
empty.csv	peakfit: @P@: empty, no header line
binary.csv	peakfit: @P@: the header line does not parse
wrong-header.csv	peakfit: @P@:1: no column model: not a peakfit peaks.csv
header-only.csv	peakfit: @P@: no successful points to fit
wrong-column-count.csv	peakfit: @P@:2: skipped: has 3 fields, the header has 37
nan-peak.csv	peakfit: @P@:2: skipped: peak_above_baseline_mib "nan" is not a finite number
huge-number.csv	peakfit: @P@:2: skipped: tensor_peak_mib "1e999" is not a finite number
negative-batch.csv	peakfit: @P@:2: skipped: batch "-4" or seq_len "64" is not a whole number from 0 to 1000000
tokens-mismatch.csv	peakfit: @P@:2: skipped: tokens 999 is not batch x seq_len = 64
unterminated-quote.csv	peakfit: @P@:2: skipped: malformed CSV (error parsing data while strict checking enabled)
truncated.csv	peakfit: @P@:2: skipped: truncated last row (the file ends inside it)
text-in-number.csv	peakfit: @P@:2: skipped: step_mean_s "fast" is not a finite number
ok-without-peak.csv	peakfit: @P@:2: skipped: status ok but no peak_above_baseline_mib
header-twice.csv	peakfit: @P@:2: skipped: batch "batch" or seq_len "seq_len" is not a whole number from 0 to 1000000
only-failures.csv	peakfit: @P@: no successful points to fit
END
