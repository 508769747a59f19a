# A command job's model need not be one peakfit builds: `model = my-cnn`
# (neither a preset nor a path) is a label that names the points and is
# what {model} stands for; measured, fitted and reported like any model.
# Without seq_len (a model with no sequence) its points are at seq_len 1:
# the fit is per sample, and the report and calc say so.
# A config.json of a family peakfit does not build (a ViT's) is a label
# too, named as any config is, and {model} is its canonical path.
# peakfit's own worker must build its model, so a job without a command
# that names a label is refused with today's message at the model's line.
source "$(dirname "$0")/lib.sh"
export PATH=$(dirname "$CSVQ"):$PATH # fake_train

# refused WHAT SWEEP MESSAGE: `run SWEEP` exits 2 with MESSAGE and writes no peaks.csv.
refused() {
    local rc=0
    "$PEAKFIT" run "$2" -o "$TMP/refused" 2>"$TMP/log" || rc=$?
    expect_eq "$1: exit" "$rc" 2
    expect_eq "$1: message" "$(cat "$TMP/log")" "$3"
    [ ! -e "$TMP/refused/peaks.csv" ] || fail "$1: a refused sweep wrote peaks.csv"
}

cat >"$TMP/l.sweep" <<'SWEEP'
[cnn]
model = my-cnn
technique = full
batch = 8, 16, 32
command = fake_train {batch} ok {model}
SWEEP
"$PEAKFIT" run "$TMP/l.sweep" -o "$TMP/l" 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
expect_eq "rows" "$("$CSVQ" "$TMP/l/peaks.csv" point_id model model_source status | tr '\t\n' ' ;')" \
    "cnn/my-cnn/cpu/full/sdpa/b8/s1/st2/r0 my-cnn my-cnn ok;cnn/my-cnn/cpu/full/sdpa/b16/s1/st2/r0 my-cnn my-cnn ok;cnn/my-cnn/cpu/full/sdpa/b32/s1/st2/r0 my-cnn my-cnn ok;"
expect_eq "{model}" "$("$CSVQ" "$TMP/l/peaks.csv" command | head -n 1)" "'fake_train' '8' 'ok' 'my-cnn'"
"$PEAKFIT" fit "$TMP/l" >"$TMP/fit" 2>&1 || fail "fit: $(cat "$TMP/fit")"
grep -q '^my-cnn  *cpu  *full  *tensor  *3 ' "$TMP/fit" || fail "no fit of my-cnn: $(cat "$TMP/fit")"
"$PEAKFIT" report "$TMP/l" >/dev/null 2>"$TMP/log" || fail "report: $(cat "$TMP/log")"
grep -q '^| full | none: per sample | ' "$TMP/l/report.md" ||
    fail "report.md's summary does not say per sample: $(grep '^| full' "$TMP/l/report.md")"
expect_eq "calc: per sample" "$("$PEAKFIT" calc "$TMP/l" --budget 1GiB 2>&1 | head -n 1 | sed -E 's/[0-9a-f]{16}/HASH/')" \
    "plan for my-cnn / cpu / full / sdpa / measured_by command HASH, per sample (measured without a sequence: seq_len 1) (the command's own process)"

# A ViT's config.json: named from _name_or_path, {model} its path.
mkdir -p "$TMP/vit"
printf '{"_name_or_path": "google/vit-base-patch16-224", "model_type": "vit", "hidden_size": 768}\n' >"$TMP/vit/config.json"
printf '[vit]\nmodel = vit/config.json\ntechnique = full\nbatch = 4, 8\ncommand = fake_train {batch} ok {model}\n' \
    >"$TMP/v.sweep"
"$PEAKFIT" run "$TMP/v.sweep" -o "$TMP/v" 2>"$TMP/log" || fail "run of a ViT config: $(cat "$TMP/log")"
real=$(realpath "$TMP/vit/config.json")
expect_eq "ViT rows" "$("$CSVQ" "$TMP/v/peaks.csv" point_id model model_source status | tr '\t\n' ' ;')" \
    "vit/vit-base-patch16-224/cpu/full/sdpa/b4/s1/st2/r0 vit-base-patch16-224 $real ok;vit/vit-base-patch16-224/cpu/full/sdpa/b8/s1/st2/r0 vit-base-patch16-224 $real ok;"
expect_eq "ViT {model}" "$("$CSVQ" "$TMP/v/peaks.csv" command | head -n 1)" "'fake_train' '4' 'ok' '$real'"
# ... and for peakfit's worker, today's refusal at the model's line.
printf '[global]\nmodel = vit/config.json\ntechnique = full\nseq_len = 1\nbatch = 1\n[worker]\n' >"$TMP/vw.sweep"
refused "a ViT for the worker" "$TMP/vw.sweep" \
    "peakfit: $TMP/vw.sweep:2: $real: field model_type: \"vit\" is not a family peakfit builds (families: llama, mistral, qwen2, qwen3, gemma, gemma2, phi3, gpt2)"

# The same model in a job of peakfit's worker: refused, exit 2.
printf '[global]\nmodel = my-cnn\ntechnique = full\nseq_len = 1\nbatch = 1\n[worker]\n' >"$TMP/w.sweep"
refused "a label for the worker" "$TMP/w.sweep" \
    "peakfit: $TMP/w.sweep:2: unknown model preset \"my-cnn\" (presets: smollm2-135m, tiny; or a path to a config.json)"

# layers in a command job: the command cuts the slice, so it gets
# {layers}; a command without it is refused at its line, since its points
# would name a slice it never cut.
printf '[s]\nmodel = my-lm\ntechnique = full\nlayers = 2\nbatch = 4\ncommand = fake_train {batch} ok {layers}\n' \
    >"$TMP/s.sweep"
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/s" 2>"$TMP/log" || fail "run of a slice: $(cat "$TMP/log")"
expect_eq "slice rows" "$("$CSVQ" "$TMP/s/peaks.csv" point_id layers command | tr '\t\n' ' ;')" \
    "s/my-lm/cpu/full/layers2/sdpa/b4/s1/st2/r0 2 'fake_train' '4' 'ok' '2';"
printf '[s]\nmodel = my-lm\ntechnique = full\nlayers = 2\nbatch = 4\ncommand = fake_train {batch} ok\n' >"$TMP/n.sweep"
refused "a slice not passed on" "$TMP/n.sweep" \
    "peakfit: $TMP/n.sweep:6: command: layers = 2 needs {layers} in the command: the command builds the model, and its points would name a slice of 2 layers it never cut"
exit 0
