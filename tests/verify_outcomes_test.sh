# What verify concludes from runs that say less than "fits" or "does not
# fit": a timeout is no verdict (its own exit status, 7), and keeps the
# peak seen until the runner stopped it, without calling the runner's own
# kill a signal; a point measured over the limit (the watchdog reads every
# 20 ms) does not fit, never "passed within 2 %"; a fit a command job
# measured is not judged by peakfit's worker; a verify directory that
# cannot be written is one error, not two. Plans for the worker's own
# process (--process worker): what verify runs.
source "$(dirname "$0")/lib.sh"
set -o pipefail
json_value() { grep -o "\"$1\": [^,}]*" <<<"$2" | cut -d' ' -f2; }
# set_column FILE COLUMN VALUE [BATCH]: every row's (or batch BATCH's) value
set_column() {
    awk -F, -v OFS=, -v c="$2" -v v="$3" -v b="${4:-}" '
        NR == 1 { for (i = 1; i <= NF; i++) { k[$i] = i } print; next }
        b == "" || $k["batch"] == b { $k[c] = v } { print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

printf '[j]\nmodel = tiny\nthreads = 1\ntechnique = full\nbatch = 1, 2, 3, 4\nseq_len = 128\n' >"$TMP/v.sweep"
dir=$TMP/out
"$PEAKFIT" run "$TMP/v.sweep" -o "$dir" 2>/dev/null || fail "run: exit status $?"
# A budget that b = 1 fits within its interval. Which micro-batch is then
# the largest predicted to fit is this machine's fit's to say (tiny's
# points are near its floor, and the interval is wide where RSS is noisy):
# calc says it, and verify runs it and the next size up.
one=$("$PEAKFIT" calc "$dir" --process worker --budget 100GiB --micro-batch 1 --json)
budget=$(awk -v p="$(json_value predicted_peak_mib "$one")" -v c="$(json_value predicted_peak_ci95_mib "$one")" \
    'BEGIN { printf "%d", p + c + 1 }')
largest=$(json_value max_micro_batch "$("$PEAKFIT" calc "$dir" --process worker --budget "${budget}MiB" --json)")
[ "${largest:-0}" -ge 1 ] 2>/dev/null || fail "calc at ${budget} MiB names no largest micro-batch: ${largest:-nothing}"
next=$((largest + 1))
vdir=$dir/verify-tiny-cpu-full-sdpa-s128-${budget}MiB

# Timeouts: workers that hang under a 4 s timeout (on a loaded machine one
# may not have reported its baseline by then: its peak is then the RSS
# read, with no peak above a baseline to print).
set_column "$dir/peaks.csv" timeout_s 4
out=$(PEAKFIT_FAULT=hang PEAKFIT_WORKER=$FAULT_WORKER "$PEAKFIT" verify "$dir" --process worker --budget "${budget}MiB" 2>"$TMP/err"); rc=$?
expect_eq "timeouts: exit status" "$rc" 7
grep -q "^  b = $largest (predicted largest): timeout, predicted [0-9.]* MiB (95%: +-[0-9.]*)\(, peak seen before it ended [0-9.]* MiB above baseline\)\?$" \
    <<<"$out" || fail "timeouts: b = $largest's line: $out"
# Each run that reported its baseline before it hung shows its peak above it.
while read -r b base; do
    [ -z "$base" ] || grep -q "^  b = $b (.*): timeout, .*, peak seen before it ended [0-9.]* MiB above baseline$" <<<"$out" ||
        fail "timeouts: b = $b reported a baseline, but no peak seen is shown: $out"
done < <("$CSVQ" "$vdir/peaks.csv" batch baseline_rss_mib)
expect_eq "timeouts: the verdict" "$(tail -n 1 <<<"$out")" \
    "  no verdict: b = $largest ran out of time, which says nothing about memory; give the group's rows a longer timeout and verify again"
grep -q "did not fit\|did not hold" <<<"$out" && fail "timeouts judged as a boundary: $out"
expect_eq "timeout rows" "$("$CSVQ" "$vdir/peaks.csv" batch status | tr '\t\n' ' ;')" "$largest timeout;$next timeout;"
expect_eq "a timeout's error" "$("$CSVQ" "$vdir/peaks.csv" error | head -n 1)" "no result within the timeout; worker killed"
# (a hung worker holds what it had at its baseline: the peak is its RSS)
peak=$("$CSVQ" "$vdir/peaks.csv" peak_rss_mib | head -n 1)
expect_gt "a timeout keeps the peak seen" "${peak:-0}" 10
peak=$("$CSVQ" "$vdir/peaks.csv" peak_rss_mib | tail -n 1)
expect_gt "a timeout keeps the peak seen (b = $next)" "${peak:-0}" 10

# Measured over the limit, yet not stopped: it does not fit. The verify
# directory is resumed: its rows, changed, are judged again.
limit=$(sed -n 's/.*: memory limit \([0-9.]*\) MiB above the baseline.*/\1/p' <<<"$out")
over=$(awk -v l="$limit" 'BEGIN { printf "%.1f", l + 0.9 }')
set_column "$vdir/peaks.csv" status ok "$largest"
set_column "$vdir/peaks.csv" peak_above_baseline_mib "$over" "$largest"
set_column "$vdir/peaks.csv" error "" "$largest"
set_column "$vdir/peaks.csv" status oom "$next"
out=$("$PEAKFIT" verify "$dir" --process worker --budget "${budget}MiB" 2>"$TMP/err"); rc=$?
expect_eq "over the limit: exit status" "$rc" 5
grep -qx "  warning: b = $largest measured $over MiB, over the limit of $limit MiB (read every 20 ms, the limit missed it): it does not fit" \
    <<<"$out" || fail "over the limit: no warning: $out"
grep -q "passed within" <<<"$out" && fail "over the limit called a pass: $out"
expect_eq "over the limit: the verdict" "$(tail -n 1 <<<"$out")" \
    "  the predicted boundary did not hold: the predicted largest batch did not fit"

# A verify directory that cannot be made (a file where it goes; root
# writes anywhere else): one error, exit 1.
touch "$dir/verify-tiny-cpu-full-sdpa-s128-$((budget + 1))MiB"
err=$("$PEAKFIT" verify "$dir" --process worker --budget "$((budget + 1))MiB" 2>&1 >/dev/null); rc=$?
expect_eq "an unwritable verify directory: exit status" "$rc" 1
expect_eq "an unwritable verify directory: one error" "$(wc -l <<<"$err")" 1
grep -q "^peakfit: $dir/verify-tiny-cpu-full-sdpa-s128-$((budget + 1))MiB/verify.sweep" <<<"$err" ||
    fail "an unwritable verify directory: $err"

# refused WHAT COLUMN VALUE MESSAGE: verify of a copy of the fit's rows
# with COLUMN set to VALUE exits 2 with MESSAGE and writes no verify
# sweep.
refused() {
    local copy=$TMP/$2 err rc
    mkdir "$copy"
    cp "$dir/peaks.csv" "$copy/peaks.csv"
    set_column "$copy/peaks.csv" "$2" "$3"
    err=$("$PEAKFIT" verify "$copy" --process worker --budget "${budget}MiB" 2>&1 >/dev/null); rc=$?
    expect_eq "$1: exit status" "$rc" 2
    expect_eq "$1: message" "$err" "$4"
    ! ls "$copy"/verify-*/verify.sweep 2>/dev/null || fail "$1: a verify sweep was written"
}
# A command job's fit: verify would run peakfit's worker, another program.
refused "a command job's fit" measured_by "command 00000000000000ab" \
    "peakfit: verify: $TMP/measured_by: this fit was measured by a command job (measured_by command 00000000000000ab), and verify runs peakfit's own worker, another program: run your command at micro-batch $largest and $next with mem_limit = ${limit}MiB in its sweep to test the plan"
ls -d "$TMP/measured_by"/verify-* 2>/dev/null && fail "a command job's fit: a verify directory was made"
# A setting that a sweep line would misread (a weights path with " #", a
# comment there): bad input, and no verify sweep is written.
refused "a weights path with a comment" weights "/data/run #2/model.safetensors" \
    "peakfit: weights = \"/data/run #2/model.safetensors\" cannot be written into a sweep: a '#' or ';' at its start or after white space would start a comment"
true
