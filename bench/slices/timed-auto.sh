# Sourced by bench/slices/fast-auto.sh and mistral-7b.sh: one timed run of
# `peakfit auto --slices`, its result made ready to commit.
# timed_auto PEAKFIT OUT START AUTO-ARGS...: runs `PEAKFIT auto AUTO-ARGS...
# -o OUT/slices` (its output in OUT/auto-output.txt and auto-stderr.txt),
# writes OUT/run.txt: START (the caller's line: when and how it started),
# then auto's end, wall time and load; writes the model's path as the
# repository holds it, not this checkout's (bench/peaks-tidy.py), and fits
# it (OUT/fit.txt). A result already in OUT is set aside while auto runs
# (auto would resume it: neither one run nor its time) and put back if
# auto fails.
timed_auto() {
    local peakfit=$1 out=$2 start=$3 t0 t1 f status=0
    shift 3
    rm -rf "$out/slices.old"
    [ ! -e "$out/slices" ] || mv "$out/slices" "$out/slices.old"
    t0=$(date +%s.%N)
    "$peakfit" auto "$@" -o "$out/slices" >"$out/auto-output.txt.new" 2>"$out/auto-stderr.txt.new" || status=$?
    t1=$(date +%s.%N)
    if [ "$status" -ne 0 ]; then
        echo "timed_auto: peakfit auto exited $status (its stderr: $out/auto-stderr.txt.new); $out as it was" >&2
        rm -rf "$out/slices"
        [ ! -e "$out/slices.old" ] || mv "$out/slices.old" "$out/slices"
        return "$status"
    fi
    rm -rf "$out/slices.old"
    for f in auto-output.txt auto-stderr.txt; do mv "$out/$f.new" "$out/$f"; done
    { echo "$start"; echo "auto: end $(date -u +%FT%TZ), $(python3 -c "print(f'{$t1 - $t0:.1f}')") s wall clock, load $(cut -d' ' -f1-3 /proc/loadavg)"; } \
        >"$out/run.txt"
    PEAKFIT=$peakfit python3 bench/peaks-tidy.py "$out/slices" >/dev/null
    "$peakfit" fit "$out/slices" >"$out/fit.txt" 2>&1
}
