#!/usr/bin/env bash
# make fuzz: builds the sweep parser, the CSV reader, the config.json reader
# and the safetensors header check into libFuzzer
# targets (clang, with ASan and UBSan) and runs each for SECONDS, starting
# from the bad-input corpus. Not part of CI. Findings go to build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
if ! command -v clang >/dev/null || ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-14 libclang-rt-14-dev
fi
out=build-fuzz
mkdir -p "$out"
flags="-std=c11 -D_GNU_SOURCE -g -O1 -I. -Ishim -fsanitize=fuzzer,address,undefined"
torch="build/libpeakfit_torch.a -lstdc++ -ltorch -ltorch_cpu -lc10"
# Each target links the layers below what it fuzzes (docs/layout.md), whole:
# the sweep parser's and the config reader's; the CSV reader, the fit's
# loader and the resume check with theirs. None needs libtorch.
layers() { for layer in "$@"; do printf '%s ' "$layer"/*.c; done; }
libs="-lcsv -ljansson -lm"
csv_sources="$(layers util core models settings sweeps point protocol) fit/observations.c store/results_csv.c
    store/results_resume.c"
for target in sweep csv config safetensors; do
    corpus=$out/corpus-$target
    mkdir -p "$corpus"
    # Only the safetensors check needs the shim; the sweep parser (device
    # names from a table), the CSV reader and the config reader are pure C.
    case $target in
    sweep) link="$(layers util core models settings sweeps) $libs"
           cp tests/bad-sweeps/*.sweep sweeps/*.sweep "$corpus"/ ;;
    csv) link="$csv_sources $libs"
         cp tests/fixtures/*.csv tests/bad-csvs/*.csv "$corpus"/ 2>/dev/null || true ;;
    config) link="$(layers util core models) $libs"
            cp tests/bad-configs/*.json tests/bad-sweeps/*.json "$corpus"/ ;;
    safetensors)
        # The header check itself is instrumented (the rest of the shim is
        # not), so that the fuzzer sees its branches; ASan only: UBSan's C++
        # checks need a C++ link.
        for part in safetensors errors; do
            clang++ -std=c++17 -g -O1 -I. -Ishim -isystem /usr/include/torch/csrc/api/include \
                -fsanitize=fuzzer-no-link,address \
                -c -o "$out/$part.o" "shim/$part.cpp"
        done
        link="$out/safetensors.o $out/errors.o $torch -ljansson -lm -ldl"
        bash tests/bad-safetensors/make-corpus.sh "$corpus" ;;
    esac
    # shellcheck disable=SC2086
    clang $flags -o "$out/fuzz_$target" "tests/fuzz/fuzz_$target.c" $link
    echo "fuzzing $target for ${seconds}s"
    (cd "$out" && ./fuzz_$target -max_total_time="$seconds" -max_len=8192 "corpus-$target" 2>&1 | tail -3)
done
