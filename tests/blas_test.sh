# The BLAS a worker records is the one serving sgemm_: OpenBLAS after
# make deps, and the reference BLAS when that is forced in front, with a
# warning from run. What this machine's libblas.so.3 is belongs to the
# machine, not to peakfit: where it is not OpenBLAS the test skips, saying so.
source "$(dirname "$0")/lib.sh"
system_blas=$(readlink -f "/usr/lib/$(gcc -print-multiarch)/libblas.so.3" 2>/dev/null)
case "$system_blas" in
*openblas*) ;;
*) skip "libblas.so.3 is ${system_blas:-missing}, not OpenBLAS (make deps installs libopenblas0-pthread)" ;;
esac
b1=$("$PEAKFIT" worker --model tiny --technique full --batch 1 --seq-len 16 --threads 1) || fail "worker failed"
[ -n "$(worker_value blas "$b1")" ] || fail "no BLAS library reported"
# The BLAS recorded is the one serving sgemm_: OpenBLAS after make deps, and
# the reference BLAS when that is forced in front, with a warning from run.
case "$(worker_value blas "$b1")" in *openblas*) ;; *) fail "BLAS is not OpenBLAS: $(worker_value blas "$b1")";; esac
reference=/usr/lib/$(gcc -print-multiarch)/blas/libblas.so.3
if [ -e "$reference" ]; then
    printf '[j]\nmodel = tiny\ntechnique = load\n' >"$TMP/s.sweep"
    LD_PRELOAD=$reference "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/ref" 2>"$TMP/log" || fail "run failed: $(cat "$TMP/log")"
    grep -q "warning: workers use the reference BLAS" "$TMP/log" || fail "no reference-BLAS warning: $(cat "$TMP/log")"
    expect_eq "recorded BLAS threads for the reference BLAS" "$("$CSVQ" "$TMP/ref/peaks.csv" blas_threads)" ""
fi
