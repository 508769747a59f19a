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
expect_error "a mistyped field" \
    "peakfit: $TMP/typed.json: group 0: \"baseline_mib\" must be a number from 0 to 1e+15, or null" "$TMP/typed.json"

# Every number is checked against its range on the way in: a negative
# baseline planned b = 187,774,689; a negative t quantile was taken; an
# intercept of 1e100 aborted calc inside GSL (exit 134).
# edited NAME PYTHON: the shared fit.json with group 0 (g) changed
edited() {
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); g = d['groups'][0]; $2; json.dump(d, open(sys.argv[2], 'w'))" \
        "$shared" "$TMP/$1.json" || fail "editing fit.json for $1"
}
edited baseline "g['baseline_mib'] = -1e9"
expect_error "a negative baseline" \
    "peakfit: $TMP/baseline.json: group 0: \"baseline_mib\" must be a number from 0 to 1e+15, or null" "$TMP/baseline.json"
edited intercept "g[g['model_choice']]['coefficients'][0] = 1e100"
expect_error "an intercept of 1e100" \
    "peakfit: $TMP/intercept.json: group 0: \"coefficients\" must be a number from -1e+15 to 1e+15, or null" \
    "$TMP/intercept.json"
edited quantile "g['prediction']['t975'] = -2.5"
expect_error "a negative t quantile" \
    "peakfit: $TMP/quantile.json: group 0: \"t975\" must be a number from 0 to 12.8, or null" "$TMP/quantile.json"
edited narrow "g['prediction']['t975'] = 1.0"
expect_error "a t quantile not its dof's" \
    "peakfit: $TMP/narrow.json: group 0: \"t975\" must be t(0.975) at its dof 7, 2.364624252" "$TMP/narrow.json"
edited variance "g['linear']['covariance'][1][1] = -1.0"
expect_error "a negative variance" \
    "peakfit: $TMP/variance.json: group 0: \"covariance\" must be a number from 0 to 1e+30, or null" "$TMP/variance.json"
edited lower "g['prediction']['lower_bound'] = {'coefficients': ['a', 1.0], 'floor_mib': None}"
expect_error "a lower bound's coefficient not a number" \
    "peakfit: $TMP/lower.json: group 0: \"lower_bound\" must be a number from -1e+15 to 1e+15, or null" "$TMP/lower.json"
edited spread "g['prediction']['between_runs']['rel_sd'] = 50"
expect_error "a spread between runs of 5000%" \
    "peakfit: $TMP/spread.json: group 0: \"rel_sd\" must be a number from 0 to 10, or null" "$TMP/spread.json"
true
