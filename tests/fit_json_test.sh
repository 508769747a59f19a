# fit writes DIR/fit.json; calc plans from it exactly as from DIR (the
# same output, the same exit status), so a fit can be shared without its
# measurements. A broken fit.json is refused with its file and reason.
source "$(dirname "$0")/lib.sh"
set -o pipefail

dir=$TMP/tiny
mkdir -p "$dir"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$dir/peaks.csv"
"$PEAKFIT" fit "$dir" >/dev/null || fail "fit: exit status $?"
[ -s "$dir/fit.json" ] || fail "fit wrote no fit.json"
grep -q '"decomposition"' "$dir/fit.json" && grep -q '"covariance"' "$dir/fit.json" &&
    grep -q '"environment"' "$dir/fit.json" && grep -q '"seq_lens"' "$dir/fit.json" || fail "fit.json lacks a part"

# Carried elsewhere, without peaks.csv.
mkdir "$TMP/elsewhere"
cp "$dir/fit.json" "$TMP/elsewhere/shared-fit.json"
shared=$TMP/elsewhere/shared-fit.json

# same_plan ARGS...: calc from DIR and from fit.json agree, text and JSON.
same_plan() {
    local a b rc_a rc_b
    a=$("$PEAKFIT" calc "$dir" "$@" 2>&1); rc_a=$?
    b=$("$PEAKFIT" calc "$shared" "$@" 2>&1); rc_b=$?
    expect_eq "calc $*: exit status from fit.json" "$rc_b" "$rc_a"
    expect_eq "calc $*: output from fit.json" "$b" "$a"
    a=$("$PEAKFIT" calc "$dir" "$@" --json 2>&1)
    b=$("$PEAKFIT" calc "$shared" "$@" --json 2>&1)
    expect_eq "calc $* --json: from fit.json" "$b" "$a"
}
same_plan --budget 2GiB
same_plan --budget 2GiB --target-batch 512 --replicas 4 --seq-len 256
same_plan --budget 1GiB --micro-batch 4 --accum 8
same_plan --budget 300MiB --micro-batch 64
same_plan --budget 2GiB --technique lora
same_plan --budget 2GiB --technique inference
same_plan --budget 2GiB --seq-len 2048
same_plan --budget 2GiB --replicas 4 --zero 3

# Broken files: the file and what is wrong, exit 2.
expect_error() {
    local what=$1 expected=$2 err rc
    err=$("$PEAKFIT" calc "$3" --budget 2GiB 2>&1 >/dev/null); rc=$?
    expect_eq "$what: exit status" "$rc" 2
    expect_eq "$what: message" "$(head -n 1 <<<"$err")" "$expected"
}
echo '{}' >"$TMP/empty.json"
expect_error "no groups" "peakfit: $TMP/empty.json: no \"groups\" array: not a peakfit fit.json" "$TMP/empty.json"
printf '{"groups": [\n  1,\n' >"$TMP/cut.json"
expect_error "cut short" "peakfit: $TMP/cut.json:3: ']' expected near end of file" "$TMP/cut.json"
sed 's/"baseline_mib": [^,]*/"baseline_mib": "lots"/' "$shared" >"$TMP/typed.json"
expect_error "a mistyped field" "peakfit: $TMP/typed.json: group 0: \"baseline_mib\" must be a number or null" \
    "$TMP/typed.json"
true
