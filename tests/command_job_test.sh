# A command job from end to end: the argv it gets (no value of a param,
# quotes, ;, $( ), backquotes, a leading -, spaces, changes it beyond its
# own argument, with or without shell = true, bare, in a word or inside
# "..."; with shell = true the shell never sees a value), the peak of its whole process
# tree (its memory is in a child), its report read strictly, its failures
# as rows, and fit and report on its rows.
source "$(dirname "$0")/lib.sh"
TOOLS=$(dirname "$CSVQ")
export PATH=$TOOLS:$PATH # the commands below are found on PATH, as python3 would be

# --- argv: every value is exactly one argument ------------------------------
# Param values are one line of a sweep file: no newline and no empty value
# can come from one (tests/command_template_test.c checks those too).
values=("a'b" 'a"b' "'" 'x; touch '"$TMP"'/pwned' '$(touch '"$TMP"'/pwned)' '`touch '"$TMP"'/pwned`' -rf \
        --batch=9 'a  b' '\' 'a#b' '$HOME' '*' 'a|b&c>d' '{x}')
for shell in false true; do
    {
        printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 3\nseq_len = 5\nshell = %s\n' "$shell"
        for i in "${!values[@]}"; do printf 'param.v%d = %s\n' "$i" "${values[$i]}"; done
        printf 'command = argv_print {batch} x{seq_len}y'
        for i in "${!values[@]}"; do printf ' {param.v%d} -{param.v%d}- "[{param.v%d} x]"' "$i" "$i" "$i"; done
        printf '\n'
    } >"$TMP/argv-$shell.sweep"
    # {x} in a value is text: {{ }} in the sweep would be the way to write braces
    ARGV_OUT=$TMP/argv-$shell.out "$PEAKFIT" run "$TMP/argv-$shell.sweep" -o "$TMP/argv-$shell" 2>"$TMP/log" ||
        fail "argv run (shell = $shell): $(cat "$TMP/log")"
    {
        printf '%s\0' 3 x5y
        for v in "${values[@]}"; do printf '%s\0' "$v" "-$v-" "[$v x]"; done
    } >"$TMP/argv.want"
    cmp -s "$TMP/argv-$shell.out" "$TMP/argv.want" ||
        fail "shell = $shell: argv differs: $(tr '\0' '\n' <"$TMP/argv-$shell.out" | head -40)"
    [ ! -e "$TMP/pwned" ] || fail "shell = $shell: a value ran a command"
done
# What peaks.csv says was run: each word shell-quoted, after the values
# the shell reads from the environment.
col=$("$CSVQ" "$TMP/argv-false/peaks.csv" command)
expect_eq "command column" "${col:0:42}" "'argv_print' '3' 'x5y' 'a'\\''b' '-a'\\''b-'"
col=$("$CSVQ" "$TMP/argv-true/peaks.csv" command)
expect_eq "command column, shell" "${col:0:46}" "PEAKFIT_BATCH='3' PEAKFIT_SEQ_LEN='5' PEAKFIT_"
# A placeholder inside '...' would reach the shell as text: refused.
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 1\nshell = true\ncommand = echo x'"'{batch}'"'\n' >"$TMP/sq.sweep"
rc=0
"$PEAKFIT" run "$TMP/sq.sweep" -o "$TMP/sq" 2>"$TMP/log" || rc=$?
expect_eq "placeholder inside '...': exit" "$rc" 2
expect_eq "placeholder inside '...'" "$(cat "$TMP/log")" \
    "peakfit: $TMP/sq.sweep:7: command: {batch} is inside '...', where the shell would not expand it (put it outside quotes or inside \"...\")"

# --- a real job: the tree's peak, the report, fit and report ------------------
cat >"$TMP/train.sweep" <<'EOF'
[global]
model = tiny
technique = full
seq_len = 1
timeout = 60

[mine]
batch = 16, 32, 64
command = fake_train {batch}
EOF
"$PEAKFIT" run "$TMP/train.sweep" -o "$TMP/train" 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
rows=$("$CSVQ" "$TMP/train/peaks.csv" batch status memory_method peak_above_baseline_mib tensor_peak_mib loss step1_s)
expect_eq "rows" "$(wc -l <<<"$rows")" 3
while IFS=$'\t' read -r batch status method above tensor loss step; do
    expect_eq "b$batch: status" "$status" ok
    expect_eq "b$batch: method" "$method" tree-poll
    # The child's MIB are the parent's memory only as a tree: the parent alone holds ~1 MiB.
    expect_gt "b$batch: tree peak above baseline" "$above" "$batch"
    expect_gt "b$batch: tree peak within reason" "$((batch + 32))" "$above"
    expect_eq "b$batch: reported tensor peak" "$tensor" "$batch.000"
    expect_eq "b$batch: reported loss, step" "$loss $step" "1.50000 0.2500"
done <<<"$rows"
"$PEAKFIT" fit "$TMP/train" >"$TMP/log" 2>&1 || fail "fit: $(cat "$TMP/log")"
"$PEAKFIT" report "$TMP/train" >"$TMP/log" 2>&1 || fail "report: $(cat "$TMP/log")"
grep -q 'mine' "$TMP/train/report.md" || fail "report.md does not show the command job"

# The walk of kernels without /proc/PID/task/TID/children finds the child too.
PEAKFIT_PROC_TREE=scan "$PEAKFIT" run "$TMP/train.sweep" -o "$TMP/scan" 2>"$TMP/log" || fail "scan: $(cat "$TMP/log")"
expect_gt "scan walk: tree peak" "$("$CSVQ" "$TMP/scan/peaks.csv" peak_above_baseline_mib | tail -n 1)" 64

# --- the report, read strictly; failures as rows ------------------------------
one_point() { # NAME MODE [KEY = VALUE]...: one point of fake_train 16 MODE
    local name=$1 mode=$2
    shift 2
    printf '[global]\ntimeout = 30\n[%s]\nmodel = tiny\ntechnique = full\nbatch = 16\nseq_len = 1\n' "$name" >"$TMP/$name.sweep"
    printf 'command = fake_train {batch} %s\n' "$mode" >>"$TMP/$name.sweep"
    printf '%s\n' "$@" >>"$TMP/$name.sweep"
    "$PEAKFIT" run "$TMP/$name.sweep" -o "$TMP/$name" 2>"$TMP/$name.log"
    "$CSVQ" "$TMP/$name/peaks.csv" status exit_code signal error
}
expect_eq "unknown key" "$(one_point unknown unknown-key)" "error	0	0	report line 5: unknown key \"peak_gb\""
expect_eq "long line" "$(one_point long long-line)" "error	0	0	report line 2: longer than 4095 bytes"
expect_eq "no baseline: ok, taken as 0" "$(one_point nobase no-baseline)" "ok	0	0	"
expect_eq "no baseline column" "$("$CSVQ" "$TMP/nobase/peaks.csv" baseline_rss_mib)" "0.000"
expect_eq "CUDA out of memory in stderr" "$(one_point oom oom)" \
    "oom	1	0	exit status 1: Traceback (most recent call last): |   File \"train.py\", line 9, in <module> | torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
expect_eq "exit 1: the last lines of stderr" "$(one_point failed fail)" \
    "error	1	0	exit status 1: Traceback (most recent call last): |   File \"train.py\", line 7, in <module> | ValueError: the child did not finish"
expect_eq "watchdog on the tree" "$(one_point limited ok 'mem_limit = 8MiB' | cut -f1-3)" "oom	-1	9"

# A hang and endless output: stopped at the timeout, and the tree with them.
# This test's fake_train only (its binary: another suite, from another
# build, may run its own fake_train 16 at the same time).
fakes() {
    local p n=0 exe
    exe=$(readlink -f "$TOOLS/fake_train")
    for p in $(pgrep -f 'fake_train 16' || true); do
        [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$exe" ] && n=$((n + 1))
    done
    echo "$n"
}
before=$(fakes)
expect_eq "hang" "$(one_point hang hang 'timeout = 2' | cut -f1-3)" "timeout	-1	9"
expect_eq "endless output" "$(one_point spew spew 'timeout = 2' | cut -f1-3)" "timeout	-1	9"
sleep 0.5
expect_eq "processes left behind" "$(fakes)" "$before"

# Output is read as it comes, and only its tail kept: 200 MiB of lines
# (64 s at a 64 KiB read per 20 ms look) end well inside a 30 s timeout,
# and the error column has the last three lines.
{ one_point_global; printf '[out]\ncommand = yes 0123456789abcdef 2>/dev/null | head -c 209715200; echo last line >&2; exit 1\n'; } \
    >"$TMP/out.sweep"
"$PEAKFIT" run "$TMP/out.sweep" -o "$TMP/out" 2>"$TMP/log"
expect_eq "200 MiB of output" "$("$CSVQ" "$TMP/out/peaks.csv" status error)" \
    "error	exit status 1: 0123456789abcdef | 0123456789abcdef | 0123last line"

# The out-of-memory words are searched in the output as it comes, read by
# read: one cut between two reads is found too.
{ one_point_global; printf '[cut]\ncommand = printf "OutOfMemoryError: CUDA out of"; sleep 0.3; echo " memory."; exit 1\n'; } \
    >"$TMP/cut.sweep"
"$PEAKFIT" run "$TMP/cut.sweep" -o "$TMP/cut" 2>"$TMP/log"
expect_eq "a message cut between reads" "$("$CSVQ" "$TMP/cut/peaks.csv" status error)" \
    "oom	exit status 1: OutOfMemoryError: CUDA out of memory."

# An oom, a watchdog kill and a timeout are rows like any other: a resume
# keeps each and measures nothing again.
for d in oom limited hang; do
    "$PEAKFIT" run "$TMP/$d.sweep" -o "$TMP/$d" 2>"$TMP/$d.resume"
    expect_eq "$d: rows after a resume" "$("$CSVQ" "$TMP/$d/peaks.csv" status | wc -l)" 1
    grep -q 'starting point' "$TMP/$d.resume" && fail "$d: the resume measured again: $(cat "$TMP/$d.resume")"
done
exit 0
