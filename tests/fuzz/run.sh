#!/usr/bin/env bash
# make fuzz: builds the sweep parser and the CSV reader into libFuzzer
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
sources="util/*.c sweeps/*.c models/model_spec.c fit/*.c"
# The CSV reader, the fit's loader and the resume check need no libtorch.
csv_sources="util/csv_table.c util/input_file.c util/parse.c util/peaks_columns.c util/id_index.c
    util/capped_notes.c fit/observations.c runner/results_csv.c runner/results_resume.c sweeps/technique.c"
for target in sweep csv; do
    # shellcheck disable=SC2086
    if [ $target = csv ]; then
        clang $flags -o "$out/fuzz_csv" tests/fuzz/fuzz_csv.c $csv_sources -lcsv -lm
    else
        clang $flags -o "$out/fuzz_$target" "tests/fuzz/fuzz_$target.c" $sources build/libpeakfit_torch.a \
            -lstdc++ -ltorch -ltorch_cpu -lc10 -lgsl -lgslcblas -lcsv -lm -ldl
    fi
    corpus=$out/corpus-$target
    mkdir -p "$corpus"
    if [ $target = sweep ]; then cp tests/bad-sweeps/*.sweep sweeps/*.sweep "$corpus"/; else cp tests/fixtures/*.csv tests/bad-csvs/*.csv "$corpus"/ 2>/dev/null || true; fi
    echo "fuzzing $target for ${seconds}s"
    (cd "$out" && ./fuzz_$target -max_total_time="$seconds" -max_len=8192 "corpus-$target" 2>&1 | tail -3)
done
