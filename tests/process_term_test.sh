# --process: a whole-process (RSS) plan for a Python trainer is the worker's
# fit plus the process term of the technique's class at the fit's zero_grad
# (the rows the build reads from bench/results/process-term/term.txt, read
# here from there; term.txt has a row for every class and zero_grad), its
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
# The same points measured with zero_grad zeros (the fixture predates the
# column: its rows are the setting's usual, none), under this version's
# header.
zeros=$TMP/tiny-zeros
mkdir -p "$zeros"
python3 - "$TESTS/fixtures/peaks-columns.txt" "$dir/peaks.csv" "$zeros/peaks.csv" <<'PY' || fail "the zeros copy"
import csv, sys
columns = open(sys.argv[1]).read().split()
with open(sys.argv[3], "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=columns, restval="")
    w.writeheader()
    for row in csv.DictReader(open(sys.argv[2])):
        w.writerow(dict(row, zero_grad="zeros"))
PY

# check_term DIR TECHNIQUE CLASS ZERO_GRAD: calc's figures from DIR at three
# micro-batches (the worker's peak below and inside the row's measured
# range), worker's against python's, as the table's row of CLASS at
# ZERO_GRAD says they differ.
check_term() {
    local b p
    for b in 1 8 150; do
        for p in worker python; do
            "$PEAKFIT" calc "$1" --budget 64GiB --technique "$2" --micro-batch "$b" --process "$p" --json \
                >"$TMP/$p-$b.json" || [ $? -eq 6 ] || fail "calc --technique $2 --micro-batch $b --process $p"
        done
    done
    out=$(python3 - "$TESTS/../bench/results/process-term/term.txt" "$3" "$4" "$TMP" <<'PY'
import json, math, re, sys
src, cls, zero_grad, tmp = sys.argv[1:]
num = r"([-0-9.]+)"
row = re.search(r'X\("%s", "%s", %s\)' % (re.escape(cls), zero_grad, ", ".join([num] * 8)), open(src).read())
if not row:
    sys.exit(f"no row {cls} at zero_grad {zero_grad} in {src}")
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
    if p["process_term_zero_grad"] != zero_grad:
        sys.exit(f"{cls} b{b}: the plan's term is zero_grad {p['process_term_zero_grad']}'s, not {zero_grad}'s")
    own[y] = p["predicted_peak_ci95_mib"] ** 2 - (scale * w["predicted_peak_ci95_mib"]) ** 2
# The interval's own part is (t sd)^2 + (t' run_sd y)^2, t and t' 95 % t
# quantiles at the row's dof and run_dof: two micro-batches give its two
# constants, the third must lie on them.
(y1, o1), (y2, o2), (y3, o3) = sorted(own.items())
c1 = (o3 - o1) / (y3 * y3 - y1 * y1)
c0 = o1 - c1 * y1 * y1
if abs(c0 + c1 * y2 * y2 - o2) > 1e-6 * o2:
    sys.exit(f"{cls}: the interval's own part at y {y2:.1f} is {o2}, not {c0 + c1 * y2 * y2} (from the other two)")
# t's 97.5 % quantile at 1 to 30 degrees of freedom (to 3 places).
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
for what, c, s, n in (("the term's sd", c0, sd, dof), ("the runs' sd", c1, run_sd, run_dof)):
    t = math.sqrt(max(c, 0)) / s if s > 0 else 0
    want = T975[int(n) - 1] if 1 <= n <= 30 else 2.0
    if s > 0 and abs(t - want) > (0.002 if n <= 30 else 0.045):
        sys.exit(f"{cls}: {what} {s} enters the interval as {math.sqrt(max(c, 0))}: {t} x, not t's 97.5 % "
                 f"quantile at {n:g} dof ({want})")
    if s == 0 and abs(c) > 1e-6 * o2:
        sys.exit(f"{cls}: {what} is 0, yet the interval's own part has {c}")
print("ok")
PY
) || fail "$2 at zero_grad $4: $out"
}
for z in none zeros; do
    d=$dir
    [ "$z" = zeros ] && d=$zeros
    check_term "$d" full full "$z"
    check_term "$d" full+ckpt full+ckpt "$z"
    check_term "$d" lora lora "$z"
    check_term "$d" lora+ckpt lora "$z"
done
# Those are every zero_grad a sweep can set (the setting's own list).
printf '[j]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 8\nzero_grad = nope\n' >"$TMP/zero-grad.sweep"
names=$("$PEAKFIT" grid "$TMP/zero-grad.sweep" 2>&1 | sed -n 's/.*zero_grad must be one of \(.*\), not.*/\1/p')
expect_eq "the zero_grads the term has rows for" "$names" "none, zeros"

# The largest micro-batch at the estimate is the term's inverse: with the
# budget a little (10 MiB, far less than a sample's 72) above b's predicted
# peak, it is b, and b + 1's peak is past the budget. b = 2, 60 and 150 put
# the worker's peak (96 + 72 b MiB above its baseline) below, inside and
# above the term's measured range (a few GiB to 7 GiB).
for b in 2 60 150; do
    peak=$("$PEAKFIT" calc "$dir" --budget 64GiB --micro-batch "$b" --json |
        grep -o '"predicted_peak_mib": [0-9.]*' | cut -d' ' -f2)
    budget=$(awk -v p="$peak" 'BEGIN { printf "%d", p + 10 }')
    est=$("$PEAKFIT" calc "$dir" --budget "${budget}MiB" --json | grep -o '"max_micro_batch_at_estimate": [0-9]*' |
        cut -d' ' -f2)
    expect_eq "${budget} MiB (b = $b predicts $peak): the largest micro-batch at the estimate" "$est" "$b"
    next=$("$PEAKFIT" calc "$dir" --budget "${budget}MiB" --micro-batch $((b + 1)) --json |
        grep -o '"predicted_peak_mib": [0-9.]*' | cut -d' ' -f2)
    expect_gt "${budget} MiB: b = $((b + 1)), one past the estimate" "$next" "$budget"
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
