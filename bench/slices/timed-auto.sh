# Sourced by bench/slices/fast-auto.sh and mistral-7b.sh: one timed run of
# `peakfit auto --slices`, its result made ready to commit.
# timed_auto PEAKFIT OUT AUTO-ARGS...: runs `PEAKFIT auto AUTO-ARGS... -o
# OUT/slices` (its output in OUT/auto-output.txt and auto-stderr.txt),
# appends its end, wall time and load to OUT/run.txt (whose first line the
# caller writes: when and how it started), writes the model's path as the
# repository holds it, not this checkout's (bench/peaks-tidy.py), and fits
# it (OUT/fit.txt).
timed_auto() {
    local peakfit=$1 out=$2 t0 t1
    shift 2
    t0=$(date +%s.%N)
    "$peakfit" auto "$@" -o "$out/slices" >"$out/auto-output.txt" 2>"$out/auto-stderr.txt"
    t1=$(date +%s.%N)
    echo "auto: end $(date -u +%FT%TZ), $(python3 -c "print(f'{$t1 - $t0:.1f}')") s wall clock, load $(cut -d' ' -f1-3 /proc/loadavg)" \
        >>"$out/run.txt"
    PEAKFIT=$peakfit python3 bench/peaks-tidy.py "$out/slices" >/dev/null
    "$peakfit" fit "$out/slices" >"$out/fit.txt" 2>&1
}
