# The demo's measurements do not move: one point of each kind that
# sweeps/tiny-cpu.sweep measures (full, inference, bf16, LoRA with
# checkpointing), with its settings (tests/fixtures/demo-points.sweep), has
# exactly the allocator-level peaks of tests/fixtures/demo-peaks.tsv (the
# counting allocator's bytes: the same from run to run and on libtorch 1.13
# and 2.13; RSS and times vary and are not compared). A change to the shim,
# the worker or the runner that changes what is measured fails here.
source "$(dirname "$0")/lib.sh"
expected=$(grep -v '^#' "$TESTS/fixtures/demo-peaks.tsv" | sort)
"$PEAKFIT" run "$TESTS/fixtures/demo-points.sweep" -o "$TMP/out" >"$TMP/log" 2>&1 ||
    fail "peakfit run demo-points.sweep: $(tail -5 "$TMP/log")"
got=$("$CSVQ" "$TMP/out/peaks.csv" point_id tensor_peak_mib forward_peak_mib backward_peak_mib optimizer_peak_mib | sort)
[ "$got" = "$expected" ] || fail "the demo's peaks changed:
$(diff <(echo "$expected") <(echo "$got") | sed 's/^</expected/; s/^>/measured/')"
echo "demo_peaks_test: $(wc -l <<<"$expected") points, allocator-level peaks unchanged"
