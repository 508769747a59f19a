# calc without measurements, as the seed's calculator: micro-batch 4,
# accumulation 8, 0.5 GB per sample -> E = 32, M = 2 GB; 4 replicas -> 128.
# With --fixed and --budget: the largest b and whether the plan fits, with
# the exit statuses of util/exit_status.h (0 fits, 4 does not).
source "$(dirname "$0")/lib.sh"
set -o pipefail

# json_value KEY JSON: a value's text in calc's one-line JSON object.
json_value() { grep -o "\"$1\": [^,}]*" <<<"$2" | cut -d' ' -f2; }

out=$("$PEAKFIT" calc --per-sample 0.5GB --micro-batch 4 --accum 8) || fail "seed example: exit status $?"
grep -q "^  effective batch E = b x a x g = 4 x 8 x 1 = 32$" <<<"$out" || fail "seed example E: $out"
grep -q "^  activation memory M = b x A_sample = 4 x 0.5 GB = 2 GB$" <<<"$out" || fail "seed example M: $out"

json=$("$PEAKFIT" calc --per-sample 0.5GB --micro-batch 4 --accum 8 --replicas 4 --json) || fail "4 replicas"
expect_eq "4 replicas: E" "$(json_value effective_batch "$json")" 128
expect_eq "4 replicas: M in bytes (per replica)" "$(json_value activation_bytes "$json")" 2000000000.0
grep -q '"fits"' <<<"$json" && fail "a plan without budget is not judged: $json"

# Per token: 1 MiB per token at seq_len 512 is 512 MiB per sample.
json=$("$PEAKFIT" calc --per-token 1MiB --seq-len 512 --micro-batch 2 --json) || fail "--per-token"
expect_eq "--per-token: A_sample" "$(json_value per_sample_mib "$json")" 512.0
expect_eq "--per-token: M" "$(json_value activation_mib "$json")" 1024.0

# 10 GiB fixed + b x 1 GiB in 24 GiB: b = 14 fits, 15 does not.
json=$("$PEAKFIT" calc --per-sample 1GiB --fixed 10GiB --budget 24GiB --json) || fail "largest b: exit status $?"
expect_eq "largest b" "$(json_value max_micro_batch "$json")" 14
expect_eq "largest b: plan" "$(json_value micro_batch "$json")" 14
expect_eq "largest b: outcome" "$(json_value outcome "$json")" '"fits"'
"$PEAKFIT" calc --per-sample 1GiB --fixed 10GiB --budget 24GiB --micro-batch 14 >/dev/null || fail "b = 14: exit $?"
out=$("$PEAKFIT" calc --per-sample 1GiB --fixed 10GiB --budget 24GiB --micro-batch 15); rc=$?
expect_eq "b = 15: exit status" "$rc" 4
grep -q "^  peak F + M = 25 GiB: does not fit$" <<<"$out" || fail "b = 15: $out"
# A target batch: E = 64 on 2 replicas in 24 GiB -> b = 8 (8 x 4 x 2), not 14.
json=$("$PEAKFIT" calc --per-sample 1GiB --fixed 10GiB --budget 24GiB --target-batch 64 --replicas 2 --json)
expect_eq "target: b" "$(json_value micro_batch "$json")" 8
expect_eq "target: a" "$(json_value accum_steps "$json")" 4

# Bad combinations name what is wrong (exit 2).
expect_calc_error "no micro-batch, no budget" \
    "peakfit calc: needs --micro-batch B, or --fixed F and --budget SIZE to find the largest that fits" --per-sample 1GiB
expect_calc_error "--per-token without --seq-len" \
    "peakfit calc: --per-token needs --seq-len S: a sample is S tokens" --per-token 1MiB --micro-batch 2
expect_calc_error "both" \
    "peakfit calc: --per-sample and --per-token are two ways to say one thing: give one" \
    --per-sample 1GiB --per-token 1MiB --seq-len 4 --micro-batch 1
expect_calc_error "budget without fixed" \
    "peakfit calc: without DIR, --fixed F and --budget SIZE go together: the budget holds F + b x A_sample" \
    --per-sample 1GiB --budget 24GiB
expect_calc_error "a DIR too" \
    "peakfit calc: --per-sample and --per-token plan without measurements: no DIR (\"$TMP\")" \
    "$TMP" --per-sample 1GiB --micro-batch 1
expect_calc_error "--fixed with a DIR" \
    "peakfit calc: --fixed is for a plan without measurements (with --per-sample or --per-token); DIR's fit measures F" \
    "$TMP" --budget 2GiB --fixed 1GiB
expect_calc_error "--per-sample without a unit" \
    'peakfit calc: --per-sample needs a unit (e.g. 24GiB, 512MiB), not "512"' --per-sample 512 --micro-batch 1
true
