# A command's report is read strictly: a value that is not a number in its
# key's range (nan, 1e308, 12abc, a negative, a fraction where a whole
# number goes), a NUL byte, a key given twice make the row an error that
# names the line and the fault; the row never holds a value that peakfit
# could not read back, so the next run resumes over it. step_s and loss
# come once a step: the last loss stands; a key said again with the same
# value is one answer. A reported baseline is the row's
# own: one above the tree's peak is that row's error, it never lifts the
# row's memory limit, and it never sets another job's prediction.
source "$(dirname "$0")/lib.sh"
export PATH=$(dirname "$CSVQ"):$PATH # fake_train

cases=(
    "nan_loss|loss=nan|report line 2: loss \"nan\" is not a number from 0 to 1e+12"
    "inf_loss|loss=inf|report line 2: loss \"inf\" is not a number from 0 to 1e+12"
    "huge_peak|tensor_peak_bytes=1e308|report line 2: tensor_peak_bytes \"1e308\" is not a number from 0 to 1.15292e+18"
    "abc_loss|loss=abc|report line 2: loss \"abc\" is not a number from 0 to 1e+12"
    "trailing|tensor_peak_bytes=12abc|report line 2: tensor_peak_bytes \"12abc\" is not a number from 0 to 1.15292e+18"
    "negative|weight_bytes=-5|report line 2: weight_bytes \"-5\" is not a number from 0 to 1.15292e+18"
    "fraction|params=1.5|report line 2: params \"1.5\" is not a whole number from 0 to 1e+15"
    "hex|baseline_tensor_bytes=0x10|report line 2: baseline_tensor_bytes \"0x10\" is not a number from 0 to 1.15292e+18"
    "empty|step_s=|report line 2: step_s \"\" is not a number from 0 to 1e+12"
    "nul|\\0loss=1|report line 2: holds a NUL byte"
    "twice|baseline_rss_kib=2048|report line 2: \"baseline_rss_kib\" again with another value (first on line 1)"
)
{
    one_point_global
    for c in "${cases[@]}"; do
        IFS='|' read -r name line _ <<<"$c"
        printf '[%s]\ncommand = printf '"'"'baseline_rss_kib=1024\\n%s\\n'"'"' >&3\n' "$name" "$line"
    done
    # One line a step: the last loss stands, every step counts.
    printf '[steps]\ncommand = printf '"'"'params=7\\nstep_s=0.5\\nloss=2\\nstep_s=0.25\\nloss=1.5\\nparams=7\\n'"'"' >&3\n'
} >"$TMP/r.sweep"
"$PEAKFIT" run "$TMP/r.sweep" -o "$TMP/r" 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
for c in "${cases[@]}"; do
    IFS='|' read -r name _ want <<<"$c"
    got=$("$CSVQ" "$TMP/r/peaks.csv" job status error | awk -F'\t' -v j="$name" '$1 == j { print $2 "\t" $3 }')
    expect_eq "$name" "$got" "error	$want"
done
expect_eq "steps" "$("$CSVQ" "$TMP/r/peaks.csv" job status loss step1_s step_mean_s params | grep '^steps')" \
    "steps	ok	1.50000	0.5000	0.2500	7"

# Every row reads back: the next run resumes over them and measures nothing.
"$PEAKFIT" run "$TMP/r.sweep" -o "$TMP/r" 2>"$TMP/log" || fail "resume: $(cat "$TMP/log")"
grep -q 'starting point' "$TMP/log" && fail "the resume measured again: $(cat "$TMP/log")"
expect_eq "rows after the resume" "$("$CSVQ" "$TMP/r/peaks.csv" status | wc -l)" "$((${#cases[@]} + 1))"

# --- a reported baseline ---------------------------------------------------
# 100,000,000 KiB (95 GiB, bytes written as KiB would do as well): above the
# tree's peak, so the row's error; under mem_limit the watchdog still stops
# a tree that holds 64 MiB over a 16 MiB limit; and [after], a job of its
# own, is predicted from its own baseline, not refused for lack of 95 GiB.
{ one_point_global; cat <<'SWEEP'; } >"$TMP/b.sweep"
[false]
command = printf 'step_s=1\nbaseline_rss_kib=100000000\n' >&3
[limited]
mem_limit = 16MiB
command = printf 'baseline_rss_kib=100000000\n' >&3; FAKE_TRAIN_HOLD=1 exec fake_train 64 no-baseline
[after]
command = printf 'baseline_rss_kib=1024\n' >&3
SWEEP
"$PEAKFIT" run "$TMP/b.sweep" -o "$TMP/b" 2>"$TMP/log" || fail "baseline run: $(cat "$TMP/log")"
rows=$("$CSVQ" "$TMP/b/peaks.csv" job status error)
grep -qE "^false	error	report line 2: baseline_rss_kib 100000000 \(97656\.2 MiB\) is above the process tree's peak, [0-9]+\.[0-9] MiB$" <<<"$rows" ||
    fail "a baseline above the peak: $rows"
grep -qE "^limited	oom	RSS passed the memory limit of 16\.0 MiB above baseline \(read [0-9.]+ MiB\); worker killed$" <<<"$rows" ||
    fail "a baseline lifted the memory limit: $rows"
expect_eq "[after]" "$(grep '^after' <<<"$rows")" "after	ok	"
exit 0
