# --process command (reports/calibration.h): a real run of the tiny preset
# by peakfit's worker at 8 points and by a command job at 3 of them, the
# command being the same worker started by a wrapper that holds a known
# extra allocation (fake_train's child, HOLD_MIB) beside it. calc plans with
# the worker's fit plus the mean correction the command's points measured
# (each its whole tree's peak less the worker fit's prediction there, read
# here from peaks.csv and calc --process worker), the interval widened by
# t x a new run's sd about the mean in quadrature; the first line names the
# command; verify and grid --peaks follow it; a directory with both never
# picks one silently, and each refusal is exit 2 with its message.
source "$(dirname "$0")/lib.sh"
export PATH=$(dirname "$CSVQ"):$PATH # fake_train
export HOLD=$TMP/hold
HOLD_MIB=160
dir=$TMP/run
# The wrapper: fake_train's child touches HOLD_MIB and holds it (no report
# of its own); once it is there, the shell becomes the worker, with the
# point's settings as the built-in job passes them, its report unread (the
# tree's peak, baseline 0, is the command's figure).
cat >"$TMP/calib.sweep" <<SWEEP
[global]
model = tiny
device = cpu
technique = full
steps = 2
threads = 1
timeout = 120

[builtin]
batch = 1, 2, 4, 8
seq_len = 64, 128

[wrapped]
batch = 1, 2, 4
seq_len = 128
shell = true
command = mkdir -p "\$HOLD/{point_id}" && (FAKE_TRAIN_PIDS="\$HOLD/{point_id}" env -u PEAKFIT_REPORT_FD fake_train $HOLD_MIB hang &) && while [ ! -s "\$HOLD/{point_id}/child.pid" ]; do sleep 0.02; done && exec "$PEAKFIT_WORKER" --model {model} --device {device} --technique {technique} --batch {batch} --seq-len {seq_len} --steps {steps} --attention {attention} --seed {seed} --threads {threads} --warm {warm} --optimizer {optimizer} --zero-grad {zero_grad} --weight-decay {weight_decay} >/dev/null
SWEEP
"$PEAKFIT" run "$TMP/calib.sweep" -o "$dir" >"$TMP/run.log" 2>&1 || fail "run: $(tail -20 "$TMP/run.log")"
statuses=$("$CSVQ" "$dir/peaks.csv" job status | sort | uniq -c | awk '{ print $2 "=" $1 "," $3 }' | tr '\n' ' ')
expect_eq "rows" "$statuses" "builtin=8,ok wrapped=3,ok "
hash=$("$CSVQ" "$dir/peaks.csv" job measured_by | awk -F'\t' '$1 == "wrapped" { print $2; exit }')
[[ $hash == "command "* ]] || fail "the wrapped rows' measured_by: $hash"
# Plans here are for this machine, where the run measured.
export PEAKFIT_THIS_CPU=$("$CSVQ" "$dir/peaks.csv" cpu_model | head -n 1)
key="tiny / cpu / full / sdpa"

# Both in one directory: never one picked silently; the choices are named.
expect_calc_error "both, no choice" \
    "peakfit: $dir holds more than one measured_by with technique full: choose one with --measured-by (measured_bys: worker, $hash), or plan with the worker's fit calibrated by the command's points: --process command" \
    "$dir" --budget 1GiB

# plan B S PROCESS ARGS...: calc's JSON at micro-batch B, seq_len S.
plan() {
    local b=$1 s=$2 p=$3
    shift 3
    "$PEAKFIT" calc "$dir" --budget 64GiB --micro-batch "$b" --seq-len "$s" --process "$p" --json "$@" ||
        [ $? -eq 6 ] || fail "calc --micro-batch $b --seq-len $s --process $p $*"
}
# The worker fit's prediction at each of the command's points, beside the
# command's whole peak there (its baseline, 0 here, and its peak above it).
"$CSVQ" "$dir/peaks.csv" job batch seq_len baseline_rss_mib peak_above_baseline_mib |
    awk -F'\t' '$1 == "wrapped" { print $2, $3, $4 + $5 }' >"$TMP/command.txt"
while read -r b s whole; do
    echo "$whole $(plan "$b" "$s" worker --measured-by worker)"
done <"$TMP/command.txt" >"$TMP/points.txt"
for b in 2 12; do
    plan "$b" 128 worker --measured-by worker >"$TMP/worker-$b.json"
    plan "$b" 128 command >"$TMP/command-$b.json"
done
plan 12 128 command --measured-by "$hash" >"$TMP/named-12.json"
cmp -s "$TMP/command-12.json" "$TMP/named-12.json" || fail "--measured-by '$hash' plans otherwise than the only command"
out=$(python3 - "$TMP" "$hash" "$HOLD_MIB" <<'PY'
import json, math, sys
tmp, command, hold = sys.argv[1], sys.argv[2], float(sys.argv[3])
d, on_floor = [], 0
for line in open(f"{tmp}/points.txt"):
    whole, worker = line.split(" ", 1)
    d.append(float(whole) - json.loads(worker)["predicted_peak_mib"])
    on_floor += json.loads(worker)["set_by"] == "floor"
n = len(d)
mean = sum(d) / n
sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
se, new_run = sd / math.sqrt(n), sd * math.sqrt(1 + 1 / n)  # the mean's error; a new run's about the mean
t975 = {1: 12.706204736, 2: 4.302652730, 3: 3.182446305}[n - 1]  # Student's t, 97.5 %
# the correction is the wrapper's hold, as far as a 20 ms sample and the fit tell it
if abs(mean - hold) > 0.25 * hold:
    sys.exit(f"the mean correction {mean:.1f} MiB is far from the wrapper's {hold:.0f} MiB: {d}")
for b in (2, 12):
    w, c = (json.load(open(f"{tmp}/{side}-{b}.json")) for side in ("worker", "command"))
    want = {"process": "command", "calibrated_by": command, "calibrated_by_job": "wrapped", "calibration_points": n,
            "calibration_dof": n - 1, "calibration_points_on_floor": on_floor}
    got = {k: c.get(k) for k in want}
    if got != want:
        sys.exit(f"b{b}: {got}, expected {want}")
    for name, value, expected in (("figure", c["predicted_peak_mib"], w["predicted_peak_mib"] + mean),
                                  ("process_term_mib", c["process_term_mib"], mean),
                                  ("calibration_mib", c["calibration_mib"], mean),
                                  ("calibration_se_mib", c["calibration_se_mib"], se),
                                  ("calibration_new_run_mib", c["calibration_new_run_mib"], new_run)):
        if abs(value - expected) > 1e-3:
            sys.exit(f"b{b}: {name} {value}, expected {expected} (corrections {d})")
    wide = math.hypot(w["predicted_peak_ci95_mib"], t975 * new_run)
    if abs(c["predicted_peak_ci95_mib"] - wide) > 1e-3 or not c["predicted_peak_ci95_mib"] > w["predicted_peak_ci95_mib"]:
        sys.exit(f"b{b}: interval +-{c['predicted_peak_ci95_mib']}, expected +-{wide} "
                 f"(the worker's +-{w['predicted_peak_ci95_mib']} and t x a new run's sd {t975 * new_run})")
print(f"{mean:.6f}")
PY
) || fail "calibrated plan: $out"
mean=$out

expect_eq "first line" "$("$PEAKFIT" calc "$dir" --budget 1GiB --process command | head -n 1)" \
    "plan for $key, seq_len 128 (your command's process: the worker's fit calibrated by 3 points of $hash, job wrapped)"

# verify runs the worker under the limit at which the command's figure
# reaches the budget: the budget less the baseline and the correction. The
# budget is b = 12's calibrated upper end, as measured here (a sanitizer
# build's processes hold far more).
budget=$(python3 -c 'import json, math, sys; c = json.load(open(sys.argv[1]))
print(math.ceil(c["predicted_peak_mib"] + c["predicted_peak_ci95_mib"]) + 1)' "$TMP/command-12.json") ||
    fail "no budget from b = 12's plan"
"$PEAKFIT" verify "$dir" --budget "${budget}MiB" --process command >"$TMP/verify.out" 2>"$TMP/verify.err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || fail "verify exit $rc: $(cat "$TMP/verify.err" "$TMP/verify.out")"
base=$(grep -o '"baseline_mib": [0-9.]*' "$TMP/worker-2.json" | cut -d' ' -f2)
limit=$(awk -v b="$base" -v m="$mean" -v g="$budget" 'BEGIN { printf "%.1f", g - b - m }')
expect_eq "verify's first line" "$(head -n 1 "$TMP/verify.out")" \
    "verify $key, seq_len 128 (your command's process: the worker's fit calibrated by 3 points of $hash, job wrapped): memory limit $limit MiB above the baseline ($(printf %.1f "$base") MiB)"
grep -q "^  peakfit's worker runs the plan under the limit at which your command's predicted peak (the worker's plus the calibration by $hash, [+]" \
    "$TMP/verify.out" || fail "verify does not say how its limit was set: $(cat "$TMP/verify.out")"

# grid --peaks: each of the worker's points, the worker's figure plus the correction.
expected() { "$PEAKFIT" grid "$TMP/calib.sweep" -o "$dir" --process "$1" 2>&1 >/dev/null | grep '^  builtin/'; }
paste <(expected worker) <(expected command) | awk -v m="$mean" '
    { w = $4; c = $(NF - 2); if (c - w - m > 1 || c - w - m < -1) { print "off: " $0; bad = 1 } n++ }
    END { if (n != 8) print "points: " n; exit bad || n != 8 }' >"$TMP/grid.txt" || fail "grid --peaks: $(cat "$TMP/grid.txt")"

# The refusals, each exit 2 with its message.
expect_calc_error "--measured-by worker" \
    "peakfit: $dir: --process command calibrates the worker's fit by a command job's points: --measured-by names that command, not worker (commands at the worker's settings: $hash)" \
    "$dir" --budget 1GiB --process command --measured-by worker
expect_calc_error "another command named" \
    "peakfit: $dir: --process command: no command job \"command 0000000000000000\" measured technique full (rss metric) to calibrate the worker's group $key by (commands that did: $hash); run your command at a few of the worker's points in the same sweep (docs/own-script.md)" \
    "$dir" --budget 1GiB --process command --measured-by "command 0000000000000000"
col() { head -n 1 "$dir/peaks.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
# refused NAME AWK MESSAGE: calc --process command on a copy of the
# directory, its rows through AWK (-F, -v OFS=,), exits 2 with
# "peakfit: COPY: MESSAGE".
refused() {
    mkdir -p "$TMP/$1"
    awk -F, -v OFS=, -v att="$(col attention)" -v by="$(col measured_by)" "$2" "$dir/peaks.csv" >"$TMP/$1/peaks.csv"
    expect_calc_error "$1" "peakfit: $TMP/$1: $3" "$TMP/$1" --budget 1GiB --process command
}
refused one 'NR == 1 || $2 == "builtin" || ($2 == "wrapped" && !seen++)' \
    "--process command: $hash measured only 1 point of $key at the worker's settings: a calibration needs 2 or more, for the correction's spread"
refused eager '$2 == "wrapped" { $att = "eager" } 1' \
    "--process command: $hash measured technique full at other settings than the worker's group $key: attention eager (the worker's sdpa); a calibration needs the command at the worker's settings"
no_command="--process command: no command job measured technique full (rss metric) to calibrate the worker's group $key by; run your command at a few of the worker's points in the same sweep (docs/own-script.md)"
refused alone '$2 != "wrapped"' "$no_command"
refused two '1; $2 == "wrapped" { $1 = "other/" substr($1, 9); $2 = "other"; $by = "command 0000000000000abc"; print }' \
    "more than one command measured $key at the worker's settings: choose the one to calibrate by with --measured-by (measured_bys: $hash, command 0000000000000abc)"
"$PEAKFIT" fit "$dir" >/dev/null 2>&1 || fail "fit $dir"
expect_calc_error "fit.json" \
    "peakfit: $dir/fit.json: --process command needs the points $hash measured, and a fit.json holds none: give the results directory (its peaks.csv)" \
    "$dir/fit.json" --budget 1GiB --process command
err=$("$PEAKFIT" grid "$TMP/calib.sweep" -o "$TMP/alone" --process command 2>&1 >/dev/null)
expect_eq "grid --peaks without the command: exit status" "$?" 2
expect_eq "grid --peaks without the command: message" "$(tail -n 1 <<<"$err")" \
    "peakfit: builtin/tiny/cpu/full/sdpa/b1/s64/st2/r0: $TMP/alone: $no_command"
echo "ok"
