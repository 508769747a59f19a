#!/usr/bin/env bash
# bench/gpu/check.sh [RESULTS_DIR]: the GPU check, end to end, on a Linux
# machine with an NVIDIA GPU, a python3 whose PyTorch has CUDA (and
# transformers, peft for the LoRA points), g++, and no network:
#
#   1. unpacks the Debian packages of bench/gpu/debs/ (bench/gpu/fetch-debs.sh
#      downloads them where Debian's mirror answers) into a prefix,
#   2. builds peakfit against python3's own PyTorch (make LIBTORCH=auto),
#   3. runs bench/gpu/tiny-cuda.sweep (four quick points; stops here when they fail),
#   4. runs sweeps/smollm2-135m-cuda.sweep, fits, plots (when gnuplot is there), reports,
#   5. measures the same points under transformers with PyTorch's own counters,
#      each in a fresh process: bench/transformers/measure.py running
#      examples/transformers/train_step.py (torch.cuda.max_memory_allocated and
#      max_memory_reserved through examples/peakfit_report.py), four processes
#      at a time (each process's counters are its own: sharing the GPU changes
#      no figure compared; peakfit's own points run one at a time, as `run`
#      gives each cuda point a GPU of its own),
#   6. the optimizers: bench/gpu/optimizers-cuda.sweep (multi-tensor and
#      fused AdamW, zero_grad none and zeros, a plain loop) on both sides,
#      into RESULTS_DIR/optimizers,
#   7. the whole model from slices on the GPU: `peakfit auto --slices
#      --device cuda` for Qwen2.5-0.5B against its whole-model points
#      (bench/slices/auto-proof.sh qwen2.5-0.5b-cuda, into
#      bench/results/slices-qwen2.5-0.5b-cuda),
#   8. plans a 40 GiB budget from the fit (calc) and measures the plan's
#      boundary (verify: its b + 1 row says whether the GPU ran out of
#      memory), so the plan is checked on the GPU it was made for,
#   9. writes RESULTS_DIR/check.md: bench/transformers/compare.py's side-by-side
#      tables (the grid's, the optimizers'), peakfit's GPU peaks beside
#      transformers' with their ratios, the slices' summary, calc's plan and
#      verify's measured boundary.
#
# RESULTS_DIR defaults to bench/results/smollm2-135m-cuda. Where $OUT is set
# (the device machine's output folder), the results folder is also packed
# into $OUT/smollm2-135m-cuda.tar.gz, with check.md and check.log beside it.
# Each phase is bounded so that the whole check ends within about 7 minutes
# (PF_CHECK_S, default 480 s, scales every phase's deadline); a rerun
# resumes both sides. PF_DRY_RUN=1 runs it on a machine without a GPU
# as far as it can go (the environment and build checks say what is missing,
# and nothing stops there): how this script is tested on CPU.
# It runs `make clean` first: the build must be the CUDA one. PF_KEEP_BUILD=1
# keeps the build there (a rerun on the same machine: make rebuilds only
# what changed).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
RESULTS=${1:-bench/results/smollm2-135m-cuda}
DEBS=${PF_DEBS:-bench/gpu/debs}
PREFIX=${PF_PREFIX:-/tmp/peakfit-debs}
PYTHON=${PYTHON:-python3}
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
LOG=$RESULTS/check.log
: >"$LOG"
START=$(date +%s)
CHECK_S=${PF_CHECK_S:-480}

elapsed() { echo $(($(date +%s) - START)); }
# until P: the seconds left until P percent of CHECK_S into the check, at least 20
until_s() { local n=$(($1 * CHECK_S / 100 - $(elapsed))); echo $((n > 20 ? n : 20)); }
phase() { echo "== $(elapsed) s: $*" | tee -a "$LOG"; }
run() { "$@" >>"$LOG" 2>&1; }

# pack: what comes back from the device machine (at most 8 files there).
pack() {
    [ -n "${OUT:-}" ] || return 0
    cp "$LOG" "$OUT/check.log"
    [ -f "$RESULTS/check.md" ] && cp "$RESULTS/check.md" "$OUT/check.md"
    tar czf "$OUT/smollm2-135m-cuda.tar.gz" -C "$(dirname "$RESULTS")" "$(basename "$RESULTS")" 2>/dev/null
    if [ -d bench/results/slices-qwen2.5-0.5b-cuda ]; then
        tar czf "$OUT/slices-qwen2.5-0.5b-cuda.tar.gz" -C bench/results slices-qwen2.5-0.5b-cuda 2>/dev/null
    fi
}
die() {
    phase "FAILED: $*"
    pack
    exit 1
}
# must WHY: a requirement of the real check; a dry run (PF_DRY_RUN=1) goes on.
must() { if [ "${PF_DRY_RUN:-0}" = 1 ]; then phase "dry run, going on: $*"; else die "$*"; fi; }

environment() {
    phase "environment"
    run nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "available", torch.cuda.is_available())' \
        >>"$LOG" 2>&1 || die "$PYTHON cannot import torch"
    "$PYTHON" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' || must "torch sees no CUDA GPU"
    "$PYTHON" -c 'import transformers, peft' >>"$LOG" 2>&1 || must "$PYTHON cannot import transformers and peft"
    command -v g++ >/dev/null || die "no g++ on PATH: peakfit's shim is C++"
    run g++ --version
    run ldd --version
}

# The packages go under PREFIX (never /): headers and libraries found
# through -isystem, -L and an rpath; make from there when there is none.
unpack_debs() {
    phase "unpacking $(ls "$DEBS"/*.deb 2>/dev/null | wc -l) packages from $DEBS into $PREFIX"
    mkdir -p "$PREFIX"
    for deb in "$DEBS"/*.deb; do
        [ -f "$deb" ] || continue
        if command -v dpkg-deb >/dev/null; then
            dpkg-deb -x "$deb" "$PREFIX" || die "cannot unpack $deb"
        else
            (cd "$PREFIX" && ar p "$deb" "$(ar t "$deb" | grep '^data.tar')" | tar xJ) || die "cannot unpack $deb"
        fi
    done
    command -v make >/dev/null || export PATH="$PREFIX/usr/bin:$PATH"
    command -v make >/dev/null || die "no make, and none in $DEBS"
}

build() {
    local lib=$PREFIX/usr/lib/x86_64-linux-gnu
    # The rpath below is a RUNPATH, which serves only the program's own
    # needs: libgsl's need of libgslcblas is found through this.
    export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    phase "building with make LIBTORCH=auto"
    [ "${PF_KEEP_BUILD:-0}" = 1 ] || run make clean
    run make print-torch LIBTORCH=auto PYTHON="$PYTHON"
    grep -q '^PF_CUDA=1' "$LOG" || must "python3's PyTorch has no CUDA libraries (see make print-torch above)"
    # CXXFLAGS too: shim/safetensors.cpp includes jansson.h from the unpacked .debs.
    local flags=(-j"$(nproc)" LIBTORCH=auto PYTHON="$PYTHON" CFLAGS="-O2 -g -isystem $PREFIX/usr/include"
        CXXFLAGS="-O2 -g -isystem $PREFIX/usr/include" LDFLAGS="-L$lib -Wl,-rpath,$lib")
    if ! run make "${flags[@]}" bin/peakfit bin/peakfit-worker; then
        # Another compiler may warn where ours does not: the warnings are in
        # check.log (the build above), and the measurement goes on without -Werror.
        phase "the build with -Werror failed (check.log says where); building again without it"
        run make "${flags[@]}" WARN="-Wall -Wextra" bin/peakfit bin/peakfit-worker || die "build failed (the end of check.log says why)"
    fi
    run bin/peakfit --version
    run bin/peakfit-worker --facts cuda
}

# ok_points CSV: how many rows have status ok
ok_points() {
    [ -f "$1" ] || { echo 0; return; }
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; next } $c == "ok"' "$1" | wc -l
}

sweeps() {
    phase "tiny-cuda.sweep (4 points)"
    run timeout -s INT 90 bin/peakfit run bench/gpu/tiny-cuda.sweep -o "$RESULTS/tiny"
    local ok
    ok=$(ok_points "$RESULTS/tiny/peaks.csv")
    [ "$ok" -gt 0 ] || must "no tiny point came out ok: $(cut -c1-600 "$RESULTS/tiny/peaks.csv" 2>/dev/null | tail -n 2)"
    phase "smollm2-135m-cuda.sweep: grid's expected peaks, then the points (until $((45 * CHECK_S / 100)) s; rerun to resume)"
    run bin/peakfit grid sweeps/smollm2-135m-cuda.sweep
    run timeout -s INT "$(until_s 45)" bin/peakfit run sweeps/smollm2-135m-cuda.sweep -o "$RESULTS"
    phase "$(ok_points "$RESULTS/peaks.csv") points ok; fit, plot, report"
    bin/peakfit fit "$RESULTS" >"$RESULTS/fit.txt" 2>>"$LOG"
    run bin/peakfit plot "$RESULTS"
    run bin/peakfit report "$RESULTS"
}

transformers_side() {
    phase "transformers: each ok point in a fresh process, 4 at a time (until $((62 * CHECK_S / 100)) s; rerun to resume)"
    PYTHONUNBUFFERED=1 run timeout "$(until_s 62)" "$PYTHON" bench/transformers/measure.py \
        "$RESULTS/peaks.csv" "$RESULTS/transformers.csv" --only-ok --no-tensor-count --jobs 4
}

# Multi-tensor and fused AdamW against PyTorch's own, allocated within 1 %
# and reserved within 3 % (issue #30), both sides a plain loop.
optimizers() {
    phase "optimizers-cuda.sweep, then transformers (until $((75 * CHECK_S / 100)) s; rerun to resume)"
    run timeout -s INT "$(until_s 70)" bin/peakfit run bench/gpu/optimizers-cuda.sweep -o "$RESULTS/optimizers"
    PYTHONUNBUFFERED=1 run timeout "$(until_s 75)" "$PYTHON" bench/transformers/measure.py \
        "$RESULTS/optimizers/peaks.csv" "$RESULTS/optimizers/transformers.csv" --only-ok --no-tensor-count --jobs 4
}

# The whole model from slices on the GPU, against its own points (#32).
slices() {
    phase "auto --slices --device cuda, Qwen2.5-0.5B, and its whole-model points (until $((88 * CHECK_S / 100)) s)"
    AUTO_OPTIONS="--device cuda" PEAKFIT="$ROOT/bin/peakfit" run timeout -s INT "$(until_s 88)" \
        bench/slices/auto-proof.sh qwen2.5-0.5b-cuda bench/configs/qwen2.5-0.5b full 256
}

# The plan a user would make for a 40 GiB GPU, and its boundary measured.
plan() {
    phase "calc --budget 40GiB, then verify --budget 40GiB (until $((97 * CHECK_S / 100)) s)"
    bin/peakfit calc "$RESULTS" --budget 40GiB >"$RESULTS/calc-40gib.txt" 2>&1
    echo "calc exit status $?" >>"$RESULTS/calc-40gib.txt"
    timeout -s INT "$(until_s 97)" bin/peakfit verify "$RESULTS" --budget 40GiB \
        >"$RESULTS/verify-40gib.txt" 2>&1
    echo "verify exit status $?" >>"$RESULTS/verify-40gib.txt"
}

# side_by_side DIR: compare.py's tables of DIR's two sides, or why there are none.
side_by_side() {
    if [ -s "$1/transformers.csv" ]; then
        "$PYTHON" bench/transformers/compare.py "$1/peaks.csv" "$1/transformers.csv"
    else
        echo "The transformers side measured nothing in $1 (see check.log)."
    fi
}

report() {
    phase "writing check.md"
    {
        echo "# GPU check: peakfit beside transformers"
        echo
        echo "\`bench/gpu/check.sh\` on $(date -u +%Y-%m-%dT%H:%M:%SZ), $(elapsed) s in all."
        echo
        echo '```'
        nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>/dev/null
        "$PYTHON" -c 'import torch, transformers, peft; print("torch", torch.__version__, "CUDA", torch.version.cuda,
            "transformers", transformers.__version__, "peft", peft.__version__)' 2>/dev/null
        bin/peakfit --version 2>/dev/null
        echo '```'
        echo
        echo "Each point ran in a fresh process on both sides: peakfit's worker (\`sweeps/smollm2-135m-cuda.sweep\`)"
        echo "and \`examples/transformers/train_step.py\` (transformers from the same config, random weights, the"
        echo "same technique, attention and step protocol, AdamW per parameter as libtorch's), read by"
        echo "\`bench/transformers/measure.py\`. GPU allocated: \`max_memory_allocated\`; reserved:"
        echo "\`max_memory_reserved\`, both from after the same warm-up matmul. transformers' points ran four"
        echo "processes at a time (each process's counters are its own), peakfit's one at a time."
        echo
        side_by_side "$RESULTS"
        echo
        echo "## Multi-tensor and fused AdamW (\`bench/gpu/optimizers-cuda.sweep\`)"
        echo
        side_by_side "$RESULTS/optimizers"
        echo
        echo "## The whole model from slices (\`bench/results/slices-qwen2.5-0.5b-cuda/summary.txt\`)"
        echo
        echo '```'; cat bench/results/slices-qwen2.5-0.5b-cuda/summary.txt 2>/dev/null || echo "not measured"; echo '```'
        echo
        echo "## A 40 GiB plan on this GPU"
        echo
        echo '`peakfit calc DIR --budget 40GiB`:'
        echo; echo '```'; cat "$RESULTS/calc-40gib.txt" 2>/dev/null; echo '```'; echo
        echo '`peakfit verify DIR --budget 40GiB` (its points measured on this GPU):'
        echo; echo '```'; cat "$RESULTS/verify-40gib.txt" 2>/dev/null; echo '```'; echo
        echo "peakfit's own report: [report.md](report.md); fits: [fit.txt](fit.txt); the log: [check.log](check.log)."
    } >"$RESULTS/check.md"
}

environment
unpack_debs
build
sweeps
transformers_side
optimizers
slices
plan
report
phase "done"
pack
