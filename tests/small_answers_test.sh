# Small wrong answers, each refused with its reason (exit 2) or named for
# what failed: hex and padded numbers, an effective batch past 2^53,
# accumulation for a technique that does not train (with or without DIR),
# a reference with an unknown technique, a column twice or a hex peak, a
# file system without flock, a byte order mark (one rule for sweeps and
# config.json), and run's --point/--chunk given twice or alone.
source "$(dirname "$0")/lib.sh"
set -o pipefail

# Numbers: strtod reads 0x10B as 267 (B is a hex digit), strtol skips blanks.
expect_calc_error "hex size" \
    'peakfit calc: --per-sample must be a size above 0 such as 24GiB or 512MiB, not "0x10B"' \
    --per-sample 0x10B --micro-batch 2
expect_calc_error "padded whole number" \
    'peakfit calc: --micro-batch must be a whole number from 1 to 1000000, not " 2"' \
    --per-sample 1GB --micro-batch ' 2'
expect_calc_error "E past 2^53" \
    'peakfit calc: --micro-batch x --accum x --replicas is past 2^53: no effective batch that large can run' \
    --per-sample 1GB --micro-batch 1000000 --accum 1000000000 --replicas 1000000
expect_calc_error "standalone inference with --accum" \
    'peakfit calc: inference does not train: --target-batch and --accum apply to training techniques only' \
    --per-sample 1GB --technique inference --micro-batch 2 --accum 8

# report --reference refuses, and report.md stays as it was.
dir=$TMP/r
mkdir -p "$dir"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$dir/peaks.csv"
"$PEAKFIT" report "$dir" 2>/dev/null || fail "report"
cp "$dir/report.md" "$TMP/report.before"
bad_reference() { # WHAT EXPECTED CSV-TEXT
    printf '%s\n' "$3" >"$TMP/ref.csv"
    local rc=0
    "$PEAKFIT" report "$dir" --reference "$TMP/ref.csv" 2>"$TMP/err" || rc=$?
    expect_eq "$1: exit status" "$rc" 2
    expect_eq "$1: message" "$(cat "$TMP/err")" "peakfit: $TMP/ref.csv:$2"
    cmp -s "$dir/report.md" "$TMP/report.before" || fail "$1: report.md changed"
}
header=work,technique,batch,seq_len,peak_above_baseline_mb
bad_reference "unknown technique" \
    "2: technique \"fulll\" is not one of load, inference, full, full+ckpt, bf16, lora, lora+ckpt, amp-bf16" \
    "$header"$'\n'"w,fulll,1,64,100"
bad_reference "a column twice" "1: column batch appears twice (columns 3 and 6)" \
    "$header,batch"$'\n'"w,full,1,64,100,2"
bad_reference "hex peak" "2: peak_above_baseline_mb \"0x10\" is not a number of megabytes" \
    "$header"$'\n'"w,full,1,64,0x10"

# A file system without flock: said as such, not as another run.
cat >"$TMP/noflock.c" <<'EOF2'
#include <errno.h>
int flock(int fd, int op) { (void)fd; (void)op; errno = ENOLCK; return -1; }
EOF2
cc -shared -fPIC -o "$TMP/noflock.so" "$TMP/noflock.c" || fail "cannot build the flock shim"
load_sweep "$TMP/s.sweep"
rc=0
LD_PRELOAD=$TMP/noflock.so "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/nolock" 2>"$TMP/err" || rc=$?
expect_eq "no flock: exit status" "$rc" 1
expect_eq "no flock: message" "$(cat "$TMP/err")" "peakfit: $TMP/nolock: cannot lock $TMP/nolock/.peakfit.lock: No locks \
available (the file system does not support flock here; use an output directory on one that does)"

# A UTF-8 byte order mark: skipped in config.json as in a sweep.
printf '\xEF\xBB\xBF' >"$TMP/config.json"
cat >>"$TMP/config.json" <<'JSON'
{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
 "num_attention_heads": 4, "num_hidden_layers": 2, "num_key_value_heads": 4, "vocab_size": 256,
 "tie_word_embeddings": true, "rms_norm_eps": 1e-5, "max_position_embeddings": 128}
JSON
"$PEAKFIT" params "$TMP/config.json" >"$TMP/out" 2>"$TMP/err" || fail "config.json with a BOM: $(cat "$TMP/err")"
printf '\xEF\xBB\xBF' >"$TMP/bom.sweep"
printf '[j]\nmodel = %s\ntechnique = load\n' "$TMP/config.json" >>"$TMP/bom.sweep"
"$PEAKFIT" grid "$TMP/bom.sweep" >/dev/null 2>"$TMP/err" || fail "sweep with a BOM: $(cat "$TMP/err")"

# run's task options.
run_error() { # WHAT EXPECTED ARGS...
    local what=$1 expected=$2 rc=0
    shift 2
    "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/never" "$@" 2>"$TMP/err" || rc=$?
    expect_eq "$what: exit status" "$rc" 2
    expect_eq "$what: message" "$(head -1 "$TMP/err")" "$expected"
}
run_error "padded --chunk" 'peakfit run: --chunk must be a whole number from 1 to 1000000, not " 3"' --point 0 --chunk ' 3'
run_error "--chunk alone" "peakfit run: --chunk C needs --point K: it sets how many points task K measures" --chunk 3
run_error "--point twice" "peakfit run: --point given twice; give it once" --point 0 --point 1
[ -e "$TMP/never" ] && fail "a refused run made its directory"
true
