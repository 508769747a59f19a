#!/usr/bin/env bash
# How much OpenBLAS matters: the same worker, in one run, once with the
# BLAS that libblas.so.3 points to (OpenBLAS after make deps) and once with
# Debian's reference BLAS forced by LD_PRELOAD. Prints the step times
# and their ratio; writes bench/results/blas-ratio.txt. A benchmark, not a
# test: the ratio is what to read, the seconds depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s all
reference_dir=/usr/lib/$(gcc -print-multiarch)/blas
out=${OUT:-bench/results/blas-ratio.txt}
value() { grep "^$1=" <<<"$2" | tail -n 1 | cut -d= -f2-; }
{
    echo "# peakfit worker step time (mean of steps after the first), $(date -u +%Y-%m-%d), $(nproc) cores"
    printf '%-34s %-10s %-10s %s\n' point openblas_s reference_s reference/openblas
    for point in "tiny full 4 128 3" "smollm2-135m full 1 64 2"; do
        read -r model technique batch seq steps <<<"$point"
        args=(worker --model "$model" --technique "$technique" --batch "$batch" --seq-len "$seq" --steps "$steps" --threads 2)
        fast=$(bin/peakfit "${args[@]}")
        slow=$(LD_PRELOAD=$reference_dir/libblas.so.3 bin/peakfit "${args[@]}")
        case "$(value blas "$slow")" in */blas/libblas*) ;; *) echo "reference BLAS not picked up: $(value blas "$slow")" >&2; exit 1 ;; esac
        steps_fast=$(grep '^step_s=' <<<"$fast" | tail -n +2 | cut -d= -f2 | awk '{ s += $1; n++ } END { print s / n }')
        steps_slow=$(grep '^step_s=' <<<"$slow" | tail -n +2 | cut -d= -f2 | awk '{ s += $1; n++ } END { print s / n }')
        printf '%-34s %-10.3f %-10.3f %.1f\n' "$model $technique b=$batch s=$seq" "$steps_fast" "$steps_slow" \
            "$(awk -v a="$steps_slow" -v b="$steps_fast" 'BEGIN { print a / b }')"
    done
    echo "# openblas: $(value blas "$fast")"
    echo "# reference: $(value blas "$slow")"
} | tee "$out"
