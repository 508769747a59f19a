# The messages a newcomer meets in the first hour, exactly: a Hugging Face
# id given as a model, -o missing or without its value, a size with its
# unit apart, a mistyped option. Each exits 2 and says what to do.
source "$(dirname "$0")/lib.sh"
# expect_message WHAT EXPECTED-FIRST-LINE COMMAND...: exit status 2, and
# that first line on stderr.
expect_message() {
    local what=$1 expected=$2 err rc
    shift 2
    err=$("$@" 2>&1 >/dev/null); rc=$?
    expect_eq "$what: exit status" "$rc" 2
    expect_eq "$what: message" "$(head -n 1 <<<"$err")" "$expected"
}
hub="no such file or folder; if it is a Hugging Face id, peakfit does not fetch models: download its config.json (e.g. huggingface-cli download Qwen/Qwen2.5-0.5B config.json --local-dir models/Qwen2.5-0.5B) and give that folder or file"
cd "$TMP" || fail "no $TMP"
expect_message "params with a Hub id" "peakfit: Qwen/Qwen2.5-0.5B: $hub" "$PEAKFIT" params Qwen/Qwen2.5-0.5B
printf '[j]\nmodel = Qwen/Qwen2.5-0.5B\ntechnique = full\nbatch = 1\nseq_len = 8\n' >hub.sweep
expect_message "a sweep with a Hub id" "peakfit: $TMP/hub.sweep:2: Qwen/Qwen2.5-0.5B: $hub" "$PEAKFIT" grid "$TMP/hub.sweep"
# A folder of that name beside the sweep is a model folder, not an id.
mkdir -p Qwen/Qwen2.5-0.5B && cp "$TESTS/fixtures/models/Qwen2.5-0.5B/config.json" Qwen/Qwen2.5-0.5B/
"$PEAKFIT" grid "$TMP/hub.sweep" >/dev/null 2>&1 || fail "a local folder Qwen/Qwen2.5-0.5B is refused"
"$PEAKFIT" params Qwen/Qwen2.5-0.5B >/dev/null || fail "params of a local folder Qwen/Qwen2.5-0.5B"

load_sweep "$TMP/s.sweep"
for c in run all; do
    expect_message "$c without -o" "peakfit $c: needs -o DIR, the directory for peaks.csv and the results" \
        "$PEAKFIT" $c "$TMP/s.sweep"
    expect_message "$c -o without a value" \
        "peakfit $c: -o needs a value: -o DIR, the directory for peaks.csv and the results" \
        "$PEAKFIT" $c "$TMP/s.sweep" -o
    expect_message "$c --output without a value" \
        "peakfit $c: --output needs a value: --output DIR, the directory for peaks.csv and the results" \
        "$PEAKFIT" $c "$TMP/s.sweep" --output
done
expect_message "run without a sweep" "peakfit run: needs a SWEEP file" "$PEAKFIT" run -o "$TMP/out"
expect_message "slurm without -o" "peakfit slurm: needs -o DIR, the directory for the script, logs and peaks.csv" \
    "$PEAKFIT" slurm "$TMP/s.sweep"
expect_message "slurm -o without a value" \
    "peakfit slurm: -o needs a value: -o DIR, the directory for the script, logs and peaks.csv" \
    "$PEAKFIT" slurm "$TMP/s.sweep" -o
[ ! -e "$TMP/out" ] || fail "a refused command created its output directory"

expect_message "calc --budget 24 GiB" \
    "peakfit calc: --budget 24 GiB: the unit must be attached to the number: --budget 24GiB" \
    "$PEAKFIT" calc "$TMP" --budget 24 GiB
expect_message "calc --per-sample 1 GB" \
    "peakfit calc: --per-sample 1 GB: the unit must be attached to the number: --per-sample 1GB" \
    "$PEAKFIT" calc --per-sample 1 GB --micro-batch 2
expect_message "verify --budget 24 GiB" \
    "peakfit verify: --budget 24 GiB: the unit must be attached to the number: --budget 24GiB" \
    "$PEAKFIT" verify "$TMP" --budget 24 GiB
expect_message "calc --budget 24" 'peakfit calc: --budget needs a unit (e.g. 24GiB, 512MiB), not "24"' \
    "$PEAKFIT" calc "$TMP" --budget 24
expect_message "calc: a mistyped option" 'peakfit calc: unknown option "--replcias"; did you mean --replicas?' \
    "$PEAKFIT" calc "$TMP" --budget 2GiB --replcias 4
expect_message "run: a mistyped option" 'peakfit run: unknown option "--jbos"; did you mean --jobs?' \
    "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" --jbos 2
expect_message "verify: a mistyped option" 'peakfit verify: unknown option "--budgte"; did you mean --budget?' \
    "$PEAKFIT" verify "$TMP" --budgte 2GiB
expect_message "verify: an unknown option, nothing near" 'peakfit verify: unknown option "--frob"' \
    "$PEAKFIT" verify "$TMP" --frob
[ ! -e "$TMP/out" ] || fail "a refused run created its output directory"
