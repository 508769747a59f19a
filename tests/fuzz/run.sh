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
# The CSV reader, the fit's loader and the resume check need no libtorch.
csv_sources="util/csv_table.c util/input_file.c util/parse.c util/peaks_columns.c util/id_index.c
    util/capped_notes.c fit/observations.c runner/results_csv.c runner/results_resume.c sweeps/technique.c"
for target in sweep csv; do
    case $target in
    # The sweep parser needs no libtorch: device names are checked from a
    # table, their availability by the runner.
    sweep) link="util/*.c sweeps/*.c models/*.c -lcsv -ljansson -lm" ;;
    *) link="$csv_sources -lcsv -ljansson -lm" ;;
    esac
    # shellcheck disable=SC2086
    clang $flags -o "$out/fuzz_$target" "tests/fuzz/fuzz_$target.c" $link
    corpus=$out/corpus-$target
    mkdir -p "$corpus"
    if [ $target = sweep ]; then cp tests/bad-sweeps/*.sweep sweeps/*.sweep "$corpus"/; else cp tests/fixtures/*.csv tests/bad-csvs/*.csv "$corpus"/ 2>/dev/null || true; fi
    echo "fuzzing $target for ${seconds}s"
    (cd "$out" && ./fuzz_$target -max_total_time="$seconds" -max_len=8192 "corpus-$target" 2>&1 | tail -3)
done
