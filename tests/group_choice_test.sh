# calc and verify choose among a directory's groups by every field of the
# group key (fit/group_choice.h): where groups differ in any setting, they
# name it and its values and refuse to pick one silently, and the
# setting's option (from the settings table) picks. calc once planned
# for one of two LoRA ranks without a word, and verify, asked to choose
# an attention, had no --attention.
source "$(dirname "$0")/lib.sh"
# copy_rows SRC DEST TECHNIQUE COLUMN VALUE: DEST is SRC's peaks.csv and,
# for each row of TECHNIQUE, a second row with COLUMN set to VALUE (its
# point_id made unique).
copy_rows() {
    mkdir -p "$2"
    awk -F, -v OFS=, -v t="$3" -v c="$4" -v v="$5" '
        NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; print; next }
        { print }
        $k["technique"] == t { $k["point_id"] = $k["point_id"] "-" c; $k[c] = v; print }' "$1" >"$2/peaks.csv"
}
# refused WHAT MESSAGE ARGS...: calc ARGS exits 2 with MESSAGE.
refused() {
    local what=$1 want=$2 err rc
    shift 2
    err=$("$PEAKFIT" "$@" 2>&1 >/dev/null); rc=$?
    expect_eq "$what: exit status" "$rc" 2
    expect_eq "$what: message" "$err" "$want"
}

# Two LoRA ranks: calc names them, --lora-rank picks one.
ranks=$TMP/ranks
copy_rows "$TESTS/fixtures/tiny-cpu-peaks.csv" "$ranks" lora lora_rank 16
refused "two LoRA ranks" \
    "peakfit: $ranks holds more than one lora_rank with technique lora: choose one with --lora-rank (lora_ranks: 8, 16)" \
    calc "$ranks" --technique lora --budget 2GiB
for r in 8 16; do
    "$PEAKFIT" calc "$ranks" --technique lora --budget 2GiB --lora-rank $r --json >"$TMP/plan" ||
        fail "calc --lora-rank $r: exit status $?"
    grep -q "\"lora_rank\": \"$r\"" "$TMP/plan" || fail "calc --lora-rank $r planned another group: $(cat "$TMP/plan")"
done
refused "an unmeasured LoRA rank" "peakfit: $ranks: no lora_rank \"4\" with technique lora (lora_ranks: 8, 16)" \
    calc "$ranks" --technique lora --budget 2GiB --lora-rank 4
# Full training has one group: the LoRA ranks are no question for it.
"$PEAKFIT" calc "$ranks" --budget 2GiB >/dev/null || fail "calc full beside two LoRA ranks: exit status $?"

# Two attentions (the SmolLM2 reproduction measured sdpa and eager):
# verify names them, and --attention picks one (the run itself is not
# this test's: a worker that is not there stops it after the choice).
smol=$TMP/smol
mkdir "$smol" && cp "$TESTS/../bench/results/smollm2-135m-cpu-2.13/peaks.csv" "$smol/"
refused "verify, two attentions" \
    "peakfit: $smol holds more than one attention with technique full: choose one with --attention (attentions: sdpa, eager)" \
    verify "$smol" --budget 8GiB
PEAKFIT_WORKER=$TMP/none "$PEAKFIT" verify "$smol" --budget 8GiB --attention eager >/dev/null 2>"$TMP/err"
grep -q "choose one\|no attention" "$TMP/err" && fail "verify --attention eager: $(cat "$TMP/err")"
ls -d "$smol"/verify-smollm2-135m-cpu-full-eager*-s*-8192MiB >/dev/null 2>&1 ||
    fail "verify --attention eager made no verify directory for eager: $(ls "$smol"): $(cat "$TMP/err")"

# warm, a setting of the key that most rows leave at its usual value:
# two values, named and chosen.
warm=$TMP/warm
copy_rows "$smol/peaks.csv" "$warm" full warm 1
refused "two warm values" \
    "peakfit: $warm holds more than one warm with technique full: choose one with --warm (warms: 0, 1)" \
    calc "$warm" --budget 8GiB --attention sdpa
"$PEAKFIT" calc "$warm" --budget 8GiB --attention sdpa --warm 1 --json | grep -q '"warm": "1"' ||
    fail "calc --warm 1 planned another group"
true
