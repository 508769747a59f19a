# --process: a whole-process (RSS) plan for a Python trainer is the worker's
# fit plus the process term of the technique's class (the rows the build
# reads from bench/results/process-term/term.txt, read here from there), its
# interval the worker's scaled by 1 + proportional with the term's own
# spread and its runs' spread (a fraction of the worker's peak) in
# quadrature; the plan's first line names the process; a GPU or
# allocator-level plan adds nothing; a bad value is refused by calc, verify
# and grid alike (exit 2).
source "$(dirname "$0")/lib.sh"
set -o pipefail

dir=$TMP/tiny
mkdir -p "$dir"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$dir/peaks.csv"

# check_term TECHNIQUE CLASS: calc's figures at three micro-batches (the
# worker's peak below and inside the class's measured range), worker's
# against python's, as the table's row of CLASS says they differ.
check_term() {
    local b p
    for b in 1 8 150; do
        for p in worker python; do
            "$PEAKFIT" calc "$dir" --budget 64GiB --technique "$1" --micro-batch "$b" --process "$p" --json \
                >"$TMP/$p-$b.json" || [ $? -eq 6 ] || fail "calc --technique $1 --micro-batch $b --process $p"
        done
    done
    out=$(python3 - "$TESTS/../bench/results/process-term/term.txt" "$2" "$TMP" <<'PY'
import json, math, re, sys
src, cls, tmp = sys.argv[1:]
num = r"([-0-9.]+)"
row = re.search(r'X\("%s", %s\)' % (re.escape(cls), ", ".join([num] * 8)), open(src).read())
if not row:
    sys.exit(f"no row {cls} in {src}")
a, k, sd, dof, run_sd, run_dof, lo, hi = (float(v) for v in row.groups())
own = {}
for b in (1, 8, 150):
    w, p = (json.load(open(f"{tmp}/{side}-{b}.json")) for side in ("worker", "python"))
    y = w["predicted_peak_mib"] - w["baseline_mib"]
    term = a + k * min(max(y, lo), hi)  # held at the measured range's ends
    scale = 1 + k if lo < y < hi else 1
    got = p["predicted_peak_mib"] - w["predicted_peak_mib"]
    if abs(got - term) > 1e-6 * max(1, abs(term)) or abs(p["process_term_mib"] - term) > 1e-6 * max(1, abs(term)):
        sys.exit(f"{cls} b{b}: python - worker = {got}, process_term_mib {p['process_term_mib']}, the table's term {term}")
    if w["process_term_mib"] != 0:
        sys.exit(f"{cls} b{b}: the worker's plan has a process term {w['process_term_mib']}")
    own[y] = p["predicted_peak_ci95_mib"] ** 2 - (scale * w["predicted_peak_ci95_mib"]) ** 2
# The interval's own part is (t sd)^2 + (t' run_sd y)^2, t and t' 95 % t
# quantiles (each dof at least 5: 1.96 to 2.571): two micro-batches give its
# two constants, the third must lie on them.
(y1, o1), (y2, o2), (y3, o3) = sorted(own.items())
c1 = (o3 - o1) / (y3 * y3 - y1 * y1)
c0 = o1 - c1 * y1 * y1
if abs(c0 + c1 * y2 * y2 - o2) > 1e-6 * o2:
    sys.exit(f"{cls}: the interval's own part at y {y2:.1f} is {o2}, not {c0 + c1 * y2 * y2} (from the other two)")
for what, c, s in (("the term's sd", c0, sd), ("the runs' sd", c1, run_sd)):
    t = math.sqrt(max(c, 0)) / s if s > 0 else 0
    if s > 0 and not 1.959 < t < 2.572:
        sys.exit(f"{cls}: {what} {s} enters the interval as {math.sqrt(max(c, 0))}: {t} x, not a 95 % t quantile")
    if s == 0 and abs(c) > 1e-6 * o2:
        sys.exit(f"{cls}: {what} is 0, yet the interval's own part has {c}")
print("ok")
PY
) || fail "$1: $out"
}
check_term full full
check_term full+ckpt full+ckpt
check_term lora lora
check_term lora+ckpt lora

# The largest micro-batch at the estimate is the term's inverse: its
# predicted peak fits the budget, the next one's does not (budgets where the
# worker's peak lies below, inside and above the measured range).
for budget in 600 5000 9000; do
    est=$("$PEAKFIT" calc "$dir" --budget "${budget}MiB" --json | grep -o '"max_micro_batch_at_estimate": [0-9]*' |
        cut -d' ' -f2)
    [ "${est:-0}" -ge 1 ] || fail "no micro-batch fits ${budget} MiB at the estimate"
    for b in "$est" $((est + 1)); do
        peak=$("$PEAKFIT" calc "$dir" --budget "${budget}MiB" --micro-batch "$b" --json |
            grep -o '"predicted_peak_mib": [0-9.]*' | cut -d' ' -f2)
        if [ "$b" = "$est" ]; then
            awk -v p="$peak" -v u="$budget" 'BEGIN { exit !(p <= u) }' || fail "${budget} MiB: b = $b predicts $peak"
        else
            expect_gt "${budget} MiB: b = $b, one past the estimate" "$peak" "$budget"
        fi
    done
done

# The first line names the process; python is the default.
first() { "$PEAKFIT" calc "$dir" --budget 2GiB "$@" | head -n 1; }
expect_eq "default first line" "$(first)" "plan for tiny / cpu / full / eager, seq_len 256 (a Python trainer's whole process)"
expect_eq "--process worker first line" "$(first --process worker)" \
    "plan for tiny / cpu / full / eager, seq_len 256 (peakfit's worker's own process)"
expect_eq "--metric tensor first line" "$(first --metric tensor)" \
    "plan for tiny / cpu / full / eager, seq_len 256 (the allocator level: no process term)"
# figures P ARGS...: the plan's figures, for process P.
figures() {
    local p=$1
    shift
    "$PEAKFIT" calc "$@" --process "$p" --json >"$TMP/figures.json" || [ $? -eq 6 ] || fail "calc $* --process $p"
    grep -oE '"(predicted_peak[a-z0-9_]*|max_micro_batch)": [^,]*' "$TMP/figures.json" ||
        fail "calc $* --process $p: no figures: $(cat "$TMP/figures.json")"
}
python=$(figures python "$dir" --budget 2GiB --metric tensor) || exit 1
expect_eq "--metric tensor: no term" "$python" "$(figures worker "$dir" --budget 2GiB --metric tensor)"

# A GPU plan is the device's memory: the same for either process.
gpu=$TMP/gpu
mkdir -p "$gpu"
cp "$TESTS/fixtures/gpu-peaks.csv" "$gpu/peaks.csv"
python=$(figures python "$gpu" --budget 40GiB --device cuda --model SmolLM2-135M) || exit 1
expect_eq "a GPU plan, python against worker" "$python" \
    "$(figures worker "$gpu" --budget 40GiB --device cuda --model SmolLM2-135M)"
expect_eq "a GPU plan's first line" \
    "$("$PEAKFIT" calc "$gpu" --budget 40GiB --device cuda --model SmolLM2-135M | head -n 1 | sed 's/.*(//')" "the GPU's memory: no process term)"

# Bad values: the option's message, exit 2, from each command.
for cmd in calc verify grid; do
    operand=$dir
    [ "$cmd" = grid ] && operand=$TESTS/fixtures/tiny-cpu.sweep
    err=$("$PEAKFIT" "$cmd" "$operand" --budget 2GiB --process nope 2>&1 >/dev/null)
    rc=$?
    [ "$cmd" = grid ] && { err=$("$PEAKFIT" grid "$operand" --process nope 2>&1 >/dev/null); rc=$?; }
    expect_eq "$cmd --process nope: exit status" "$rc" 2
    expect_eq "$cmd --process nope: message" "$(head -n 1 <<<"$err")" \
        "peakfit $cmd: --process must be one of worker, python, command, not \"nope\""
done
err=$("$PEAKFIT" calc "$dir" --budget 2GiB --process 2>&1 >/dev/null)
expect_eq "calc --process without a value: exit status" "$?" 2
grep -q "^peakfit calc: --process needs a value: --process P, " <<<"$err" || fail "calc --process: $err"
echo "ok"
