# GPU rows without a GPU: fit and calc on tests/fixtures/gpu-peaks.csv, a
# peaks.csv CONSTRUCTED for this test (not measured): SmolLM2-135M on cuda,
# full and inference over batch 1, 4, 16 x seq_len 256, 1024, its allocated
# peak 2062 + 0.92 MiB per token (full) and 522 + 0.21 (inference) with
# small noise, reserved a little above, a 518 MiB context on a 143771 MiB
# device; and three tiny cpu rows with the GPU columns empty. Also: a cpu
# point run here leaves the GPU columns empty, and a file of the version
# before them still reads.
source "$(dirname "$0")/lib.sh"
fixture=$TESTS/fixtures/gpu-peaks.csv
mkdir -p "$TMP/gpu"
cp "$fixture" "$TMP/gpu/peaks.csv"

# fit: allocated and reserved for the cuda groups, not for cpu.
"$PEAKFIT" fit "$TMP/gpu" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit failed: $(cat "$TMP/fit.err")"
col() { head -1 "$TMP/gpu/fit.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
metrics() {
    awk -F, -v d="$1" -v t="$2" -v m="$(col metric)" 'NR > 1 && $2 == d && $3 == t { print $m }' "$TMP/gpu/fit.csv" |
        sort | tr '\n' ' '
}
expect_eq "cuda full metrics" "$(metrics cuda full)" "allocated reserved rss tensor "
expect_eq "cuda inference metrics" "$(metrics cuda inference)" "allocated reserved rss tensor "
expect_eq "cpu metrics" "$(metrics cpu full)" "rss tensor "
grep -q "^SmolLM2-135M *cuda *full *allocated " "$TMP/fit.out" || fail "fit's table has no allocated row: $(cat "$TMP/fit.out")"

# The allocated fit finds the constructed line: F near 2062 MiB, A near 0.92 MiB per token.
coef() {
    awk -F, -v c="$(col "$1")" -v mc="$(col metric)" -v m="$2" 'NR > 1 && $2 == "cuda" && $3 == "full" && $mc == m { print $c }' \
        "$TMP/gpu/fit.csv"
}
F=$(coef F_mib allocated)
A=$(coef A_mib_per_token allocated)
awk -v f="$F" -v a="$A" 'BEGIN { exit !(f > 2058 && f < 2066 && a > 0.919 && a < 0.921) }' ||
    fail "allocated fit: F=$F A=$A, expected about 2062 and 0.92"

# calc plans a GPU group on reserved + the context, and says so.
out=$("$PEAKFIT" calc "$TMP/gpu" --budget 24GiB --technique full --model SmolLM2-135M --device cuda --seq-len 1024 --json) ||
    fail "calc --json failed: $out"
expect_eq "calc metric on cuda" "$(grep -o '"metric": "[a-z]*"' <<<"$out")" '"metric": "reserved"'
expect_eq "calc baseline on cuda is the context" "$(grep -o '"baseline_mib": [0-9.]*' <<<"$out")" '"baseline_mib": 518.0'
out=$("$PEAKFIT" calc "$TMP/gpu" --budget 24GiB --technique full --model SmolLM2-135M --device cuda --seq-len 1024) || fail "calc failed: $out"
grep -q "on the GPU: planned against the caching allocator's reserved peak plus the context outside it" <<<"$out" ||
    fail "calc does not say what it plans against on the GPU: $out"
# From fit.json the same plan: its allocated and reserved groups are read
# back as such (they were read as host RSS: b = 2234 against 22).
args=(--budget 24GiB --technique full --model SmolLM2-135M --device cuda --seq-len 1024 --json)
expect_eq "calc from fit.json on cuda" "$("$PEAKFIT" calc "$TMP/gpu/fit.json" "${args[@]}" 2>&1)" \
    "$("$PEAKFIT" calc "$TMP/gpu" "${args[@]}" 2>&1)"
out=$("$PEAKFIT" calc "$TMP/gpu" --budget 2GiB --technique full --model tiny --device cpu --json) || fail "calc cpu failed: $out"
expect_eq "calc metric on cpu" "$(grep -o '"metric": "[a-z]*"' <<<"$out")" '"metric": "rss"'

# The columns parse as peakfit reads them, empty on cpu rows.
"$CSVQ" "$fixture" device gpu_allocated_peak_mib gpu_name cuda_version >"$TMP/q" || fail "csvq cannot read the GPU columns"
expect_eq "a cuda row" "$(sed -n 1p "$TMP/q")" "cuda	2298.320	NVIDIA H200	13.0"
expect_eq "a cpu row" "$(tail -n 1 "$TMP/q")" "cpu			"

# A file of the version before the GPU columns (ending at attention) still fits.
mkdir -p "$TMP/old"
n=$(head -1 "$fixture" | tr ',' '\n' | grep -nx attention | cut -d: -f1)
cut -d, -f1-"$n" "$fixture" >"$TMP/old/peaks.csv"
"$PEAKFIT" fit "$TMP/old" >/dev/null 2>"$TMP/old.err" || fail "a file without the GPU columns: $(cat "$TMP/old.err")"
expect_eq "old file: no GPU metrics" "$(awk -F, -v m="$(col metric)" 'NR > 1 { print $m }' "$TMP/old/fit.csv" | sort -u | tr '\n' ' ')" \
    "rss tensor "

# A real cpu point: the GPU columns stay empty.
load_sweep "$TMP/cpu.sweep"
"$PEAKFIT" run "$TMP/cpu.sweep" -o "$TMP/run" 2>"$TMP/run.err" || fail "cpu run failed: $(cat "$TMP/run.err")"
expect_eq "cpu point's GPU columns" "$("$CSVQ" "$TMP/run/peaks.csv" status gpu_allocated_peak_mib gpu_reserved_peak_mib gpu_context_mib gpu_total_mib gpu_name cuda_version driver_version)" \
    "ok							"
# A worker asked for cuda in a build without CUDA says so (exit 4, its error line).
if "$PEAKFIT" --version | grep -qx "cuda not compiled in"; then
    out=$("$PEAKFIT" worker --model tiny --technique load --device cuda --mem-limit 1GiB 2>&1)
    expect_eq "worker on cuda without CUDA: exit status" "$?" 4
    grep -qx "error=device cuda: this build of peakfit has no CUDA (rebuild with make LIBTORCH=auto against a PyTorch with CUDA)" \
        <<<"$out" || fail "worker on cuda without CUDA: $out"
fi
echo "gpu_results: ok"
