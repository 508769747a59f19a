# calc on the command line: the group key (model, device, technique) picks
# the fit, a model is named by what peaks.csv's model column shows (or the
# folder of an old config.json path), ambiguity lists the choices, and
# every bad value names its option and range (exit 2, util/exit_status.h).
source "$(dirname "$0")/lib.sh"
set -o pipefail

# json_value KEY JSON: a number's text in calc's one-line JSON object.
json_value() { grep -o "\"$1\": [^,}]*" <<<"$2" | cut -d' ' -f2; }

# Two devices, cuda's peaks twice cpu's: each device gets its own fit.
devices=$TMP/devices
mkdir -p "$devices"
cp "$TESTS/fixtures/two-devices-peaks.csv" "$devices/peaks.csv"
expect_calc_error "two devices, no --device" \
    "peakfit: $devices holds more than one device with technique full: choose one with --device (devices: cpu, cuda)" \
    "$devices" --budget 2GiB
cpu=$("$PEAKFIT" calc "$devices" --budget 2GiB --device cpu --json) || fail "calc --device cpu"
cuda=$("$PEAKFIT" calc "$devices" --budget 2GiB --device cuda --json) || fail "calc --device cuda"
expect_eq "cuda plan's device" "$(json_value device "$cuda")" '"cuda"'
expect_gt "cuda's per-sample cost is its own (twice cpu's)" "$(json_value per_sample_mib "$cuda")" \
    "$(awk -v c="$(json_value per_sample_mib "$cpu")" 'BEGIN { print 1.9 * c }')"
expect_calc_error "an unmeasured device" \
    "peakfit: $devices: no device \"mps\" with technique full (devices: cpu, cuda)" "$devices" --budget 2GiB --device mps

# --metric tensor plans with the allocator-level fit (its own per-sample
# cost, below RSS's, which holds every live tensor byte and the heap);
# a name that is no fit's is refused with the list.
tensor=$("$PEAKFIT" calc "$devices" --budget 2GiB --device cpu --metric tensor --json) || fail "calc --metric tensor"
expect_eq "--metric tensor's metric" "$(json_value metric "$tensor")" '"tensor"'
expect_eq "the default on cpu" "$(json_value metric "$cpu")" '"rss"'
expect_gt "rss's per-sample cost over tensor's" "$(json_value per_sample_mib "$cpu")" "$(json_value per_sample_mib "$tensor")"
expect_calc_error "an unknown metric" 'peakfit calc: --metric must be one of rss, tensor, allocated, reserved, not "heap"' \
    "$devices" --budget 2GiB --device cpu --metric heap

# A measured plan and a standalone one judged against a budget write the
# members they share from one table each (reports/calc.h: plan_batch,
# plan_verdict): every member of the standalone's but its own is the measured's.
keys() { grep -o '"[a-z0-9_]*":' <<<"$1" | tr -d '":' | grep -vx 'mode\|per_token_mib\|seq_len\|activation_bytes'; }
alone=$("$PEAKFIT" calc --per-sample 100MiB --fixed 1GiB --budget 2GiB --json) || fail "a standalone plan"
expect_eq "standalone members" "$(keys "$alone" | tr '\n' ' ')" \
    "per_sample_mib micro_batch activation_mib accum_steps replicas effective_batch budget_mib margin usable_mib fixed_mib max_micro_batch fits outcome predicted_peak_mib "
expect_eq "standalone members the measured plan lacks" "$(comm -23 <(keys "$alone" | sort) <(keys "$cpu" | sort))" ""

# A given micro-batch with a target: a reaches E, as the standalone plan does.
given=$("$PEAKFIT" calc "$devices" --budget 2GiB --device cpu --target-batch 64 --micro-batch 4 --json)
expect_eq "DIR plan, b = 4 for E = 64: accumulation steps" "$(json_value accum_steps "$given")" 16
expect_eq "DIR plan, b = 4 for E = 64: effective batch" "$(json_value effective_batch "$given")" 64
alone=$("$PEAKFIT" calc --per-sample 100MiB --target-batch 64 --micro-batch 4 --json) || fail "standalone b = 4, E = 64"
expect_eq "standalone b = 4 for E = 64: accumulation steps" "$(json_value accum_steps "$alone")" 16
given=$("$PEAKFIT" calc "$devices" --budget 2GiB --device cpu --target-batch 64 --micro-batch 4)
grep -q "no micro-batch that fits makes" <<<"$given" && fail "b = 4 makes E = 64, yet: $given"

# Two models: one by an old-style config.json path, one by display name.
models=$TMP/models
mkdir -p "$models"
cp "$TESTS/fixtures/two-models-peaks.csv" "$models/peaks.csv"
expect_calc_error "two models, no --model" \
    "peakfit: $models holds more than one model with technique full: choose one with --model (models: alpha, beta)" \
    "$models" --budget 2GiB
expect_calc_error "an unknown model" \
    "peakfit: $models: no model \"gamma\" with technique full (models: alpha, beta)" "$models" --budget 2GiB --model gamma
by_folder=$("$PEAKFIT" calc "$models" --budget 2GiB --model alpha --json) || fail "calc --model alpha (folder name)"
by_path=$("$PEAKFIT" calc "$models" --budget 2GiB --model /models/alpha/config.json --json) || fail "calc --model PATH"
expect_eq "--model by folder name and by path" "$by_folder" "$by_path"
beta=$("$PEAKFIT" calc "$models" --budget 2GiB --model beta --process worker) || fail "calc --model beta"
grep -q "^plan for beta / cpu / full / eager, seq_len 256 (peakfit's worker's own process)$" <<<"$beta" ||
    fail "beta's plan: $beta"

# Inference trains nothing: no accumulation in its plan.
inference=$("$PEAKFIT" calc "$models" --budget 2GiB --model beta --technique inference) || fail "inference plan"
grep -qi "accumulation steps a =\|effective batch E" <<<"$inference" && fail "inference plan talks of accumulation: $inference"
grep -q "inference does not train: no accumulation" <<<"$inference" || fail "inference plan: $inference"
json=$("$PEAKFIT" calc "$models" --budget 2GiB --model beta --technique inference --json) || fail "inference --json"
grep -q '"accum_steps"\|"effective_batch"' <<<"$json" && fail "inference JSON has accumulation: $json"
expect_calc_error "inference with a target batch" \
    "peakfit calc: inference does not train: --target-batch and --accum apply to training techniques only" \
    "$models" --budget 2GiB --model beta --technique inference --target-batch 64

# Bad values name the option and its range.
d=$devices
expect_calc_error "--accum alone" \
    "peakfit calc: --accum needs --micro-batch: --micro-batch B --accum A checks a given plan" \
    "$d" --budget 2GiB --device cpu --accum 4
expect_calc_error "--budget without a unit" \
    'peakfit calc: --budget needs a unit (e.g. 24GiB, 512MiB), not "2048"' "$d" --budget 2048
expect_calc_error "--budget not a size" \
    'peakfit calc: --budget must be a size above 0 such as 24GiB or 512MiB, not "lots"' "$d" --budget lots
expect_calc_error "--replicas 0" \
    'peakfit calc: --replicas must be a whole number from 1 to 1000000, not "0"' "$d" --budget 2GiB --replicas 0
expect_calc_error "--seq-len too large" \
    'peakfit calc: --seq-len must be a whole number from 1 to 1000000, not "2000000"' "$d" --budget 2GiB --seq-len 2000000
expect_calc_error "--target-batch not a number" \
    'peakfit calc: --target-batch must be a whole number from 1 to 1000000000, not "many"' "$d" --budget 2GiB --target-batch many
expect_calc_error "--margin 1" \
    'peakfit calc: --margin must be a fraction from 0 to 0.99, not "1"' "$d" --budget 2GiB --margin 1
expect_calc_error "--micro-batch 0" \
    'peakfit calc: --micro-batch must be a whole number from 1 to 1000000, not "0"' "$d" --budget 2GiB --micro-batch 0
# A technique may be a command job's label: DIR says which it fitted.
expect_calc_error "an unknown technique" \
    "peakfit: $d: no fit for technique fulll (fitted: full); did you mean full?" \
    "$d" --budget 2GiB --technique fulll
expect_calc_error "an unknown option" 'peakfit calc: unknown option "--budjet"; did you mean --budget?' "$d" --budjet 2GiB
expect_calc_error "an unknown option, nothing near" 'peakfit calc: unknown option "--frobnicate"' "$d" --frobnicate
expect_calc_error "a missing value" 'peakfit calc: --budget needs a value: --budget SIZE, memory for the whole process, baseline included (24GiB, 512MiB)' "$d" --budget
expect_calc_error "no budget" 'peakfit calc: needs --budget SIZE' "$d"
err=$("$PEAKFIT" calc "$TMP/none" --budget 2GiB 2>&1); rc=$?
expect_eq "a directory without peaks.csv: exit status" "$rc" 2
grep -q "^peakfit: $TMP/none/peaks.csv: cannot open" <<<"$err" || fail "no peaks.csv: $err"

# The usage shows the real defaults: no margin is kept unless asked.
usage=$("$PEAKFIT" calc --help 2>&1)
grep -q -- "--margin F .*(default: 0)" <<<"$usage" || fail "usage's margin default: $usage"
grep -q -- "--margin 0.1" <<<"$usage" && fail "usage shows --margin 0.1 as if it were the default"

# The report's calculator plans each device from its own fit.
"$PEAKFIT" report "$devices" 2>/dev/null || fail "report on two devices"
largest() { awk -F' [|] ' -v d="$1" '$2 == d && $5 == "8 GiB" { print $7 }' "$devices/report.md"; }
[ -n "$(largest cpu)" ] && [ -n "$(largest cuda)" ] || fail "calculator rows: $(grep '8 GiB' "$devices/report.md")"
expect_gt "cpu's largest batch in 8 GiB against cuda's (whose peaks are twice as high)" "$(largest cpu)" "$(largest cuda)"
true

# Not even micro-batch 1 of full training fits 280 MiB: calc says what
# would (reports/calc_alternatives.h): each other training technique
# measured (never inference), and ZeRO-3 over the fewest replicas; at
# 200 MiB nothing does, and it says that. The worker's own process: a
# Python trainer's holds more than this tiny model's whole peak.
alt=$TMP/alternatives
mkdir -p "$alt"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$alt/peaks.csv"
out=$("$PEAKFIT" calc "$alt" --budget 280MiB --seq-len 128 --process worker); rc=$?
expect_eq "full in 280 MiB: exit status" "$rc" 4
expect_eq "what would fit in 280 MiB" "$(grep -A9 '^  what would fit' <<<"$out" |
    sed -E 's/b = [1-9][0-9]*, predicted peak [0-9.]+ MiB \+- [0-9.]+/b = N/; s/--replicas [2-9][0-9]* /--replicas G /')" \
"  what would fit in 280 MiB (the largest micro-batch of each; \`peakfit calc\` with these options plans it):
    --technique lora: micro-batch b = N
    --technique lora+ckpt: micro-batch b = N
    --technique full --replicas G --zero 3: micro-batch b = N"
out=$("$PEAKFIT" calc "$alt" --budget 200MiB --seq-len 128 --process worker)
expect_eq "nothing in 200 MiB" "$(grep '^  what would fit' <<<"$out")" \
    "  what would fit in 200 MiB: no other technique measured here, nor ZeRO-3 over up to 1024 replicas"
