# The BLAS a worker records is the one serving sgemm_. Which one that is
# depends on the libtorch the worker links:
# - Debian's libtorch (1.13, make test) calls BLAS through libblas.so.3:
#   OpenBLAS after make deps, and the reference BLAS when that is forced in
#   front, with a warning from run. What this machine's libblas.so.3 is
#   belongs to the machine, not to peakfit: where it is not OpenBLAS the test
#   skips, saying so.
# - PyTorch's pip wheels (2.x, make test-torch2) link MKL into
#   libtorch_cpu.so, which defines sgemm_ itself: the recorded BLAS is that
#   libtorch_cpu.so, and no OpenBLAS thread count is recorded.
source "$(dirname "$0")/lib.sh"
torch_cpu=$(ldd "$PEAKFIT_WORKER" | awk '$1 ~ /^libtorch_cpu\.so/ { print $3 }')
[ -e "$torch_cpu" ] || fail "peakfit-worker links no libtorch_cpu.so: $(ldd "$PEAKFIT_WORKER")"
torch_cpu=$(readlink -f "$torch_cpu")

# (awk, not grep -q: grep would stop reading and leave nm to die of SIGPIPE, which pipefail counts)
if nm -D --defined-only "$torch_cpu" | awk '$3 == "sgemm_" { found = 1 } END { exit !found }'; then
    load_sweep "$TMP/s.sweep"
    "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/own" 2>"$TMP/log" || fail "run failed: $(cat "$TMP/log")"
    expect_eq "recorded BLAS of a libtorch with its own sgemm_" "$("$CSVQ" "$TMP/own/peaks.csv" blas)" "$torch_cpu"
    expect_eq "recorded BLAS threads (not OpenBLAS)" "$("$CSVQ" "$TMP/own/peaks.csv" blas_threads)" ""
    ! grep -q "warning: workers use the reference BLAS" "$TMP/log" || fail "reference-BLAS warning: $(cat "$TMP/log")"
    exit 0
fi

system_blas=$(readlink -f "/usr/lib/$(gcc -print-multiarch)/libblas.so.3" 2>/dev/null)
case "$system_blas" in
*openblas*) ;;
*) skip "libblas.so.3 is ${system_blas:-missing}, not OpenBLAS (make deps installs libopenblas0-pthread)" ;;
esac
b1=$("$PEAKFIT" worker --model tiny --technique full --batch 1 --seq-len 16 --threads 1) || fail "worker failed"
[ -n "$(worker_value blas "$b1")" ] || fail "no BLAS library reported"
case "$(worker_value blas "$b1")" in *openblas*) ;; *) fail "BLAS is not OpenBLAS: $(worker_value blas "$b1")";; esac
reference=/usr/lib/$(gcc -print-multiarch)/blas/libblas.so.3
if [ -e "$reference" ]; then
    load_sweep "$TMP/s.sweep"
    LD_PRELOAD=$reference "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/ref" 2>"$TMP/log" || fail "run failed: $(cat "$TMP/log")"
    grep -q "warning: workers use the reference BLAS" "$TMP/log" || fail "no reference-BLAS warning: $(cat "$TMP/log")"
    expect_eq "recorded BLAS threads for the reference BLAS" "$("$CSVQ" "$TMP/ref/peaks.csv" blas_threads)" ""
fi
