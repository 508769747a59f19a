# The demo's measurements do not move: one point of each kind of
# sweeps/tiny-cpu.sweep (full, inference, bf16, LoRA with checkpointing),
# measured by `peakfit run --point K`, has exactly the allocator-level peaks
# of tests/fixtures/demo-peaks.tsv (the counting allocator's bytes, the same
# from run to run and on libtorch 1.13 and 2.13; RSS and times vary and are
# not compared). A change to the shim, the worker or the runner that changes
# what is measured fails here.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
sweep=$root/sweeps/tiny-cpu.sweep
expected=$(grep -v '^#' "$TESTS/fixtures/demo-peaks.tsv")
ids=$("$PEAKFIT" grid "$sweep" 2>/dev/null) || fail "peakfit grid $sweep failed"
while IFS=$'\t' read -r id _; do
    k=$(grep -nxF "$id" <<<"$ids" | cut -d: -f1)
    [ -n "$k" ] || fail "$id is no longer a point of $sweep"
    "$PEAKFIT" run "$sweep" -o "$TMP/out" --point $((k - 1)) >"$TMP/log" 2>&1 ||
        fail "peakfit run --point $((k - 1)) ($id): $(tail -5 "$TMP/log")"
done <<<"$expected"
got=$("$CSVQ" "$TMP/out/peaks.csv" point_id tensor_peak_mib forward_peak_mib backward_peak_mib optimizer_peak_mib | sort)
[ "$got" = "$(sort <<<"$expected")" ] || fail "the demo's peaks changed:
$(diff <(sort <<<"$expected") <(echo "$got") | sed 's/^</expected/; s/^>/measured/')"
echo "demo_peaks_test: $(wc -l <<<"$expected") points, allocator-level peaks unchanged"
