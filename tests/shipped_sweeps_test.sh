# The shipped sweeps parse, and cover what they promise: the demo's grid,
# and the 12 points of the published SmolLM2-135M table with each attention
# implementation (plus amp-bf16 and two held-out points).
source "$(dirname "$0")/lib.sh"
set -o pipefail
root=$(cd "$TESTS/.." && pwd)
tiny=$("$PEAKFIT" grid "$root/sweeps/tiny-cpu.sweep" 2>/dev/null) || fail "tiny-cpu.sweep does not parse"
expect_eq "tiny-cpu points" "$(wc -l <<<"$tiny")" 42
grep -q "^full/tiny/cpu/full/sdpa/b6/s192/" <<<"$tiny" && grep -q "^full/tiny/cpu/full/sdpa/b3/s96/" <<<"$tiny" ||
    fail "tiny-cpu's held-out points: $tiny"
smol=$("$PEAKFIT" grid "$root/sweeps/smollm2-135m-cpu.sweep" 2>/dev/null) || fail "smollm2-135m-cpu.sweep does not parse"
# technique/bBATCH/sSEQ of each point (LoRA's settings segment dropped,
# the two held-out points left out), against the reference table's rows
grep -q "^full_training/[^/]*/cpu/full/sdpa/b6/s256/" <<<"$smol" || fail "smollm2's held-out points: $smol"
published_points() {
    grep -v -e '^full_training/.*/b6/s256/' -e '^full_training/.*/b2/s384/' -e '/amp-bf16/' -e "/$1/" <<<"$smol" |
        sed 's|/lora[0-9]*-[^/]*||; s|/sdpa/|/|; s|/eager/|/|' | awk -F/ '{ print $4 "/" $5 "/" $6 }' | sort
}
ours=$(published_points eager)
expect_eq "smollm2: eager's points are sdpa's" "$(published_points sdpa)" "$ours"
grep -q "^bf16_training/[^/]*/cpu/amp-bf16/eager/b8/s256/" <<<"$smol" || fail "smollm2 has no amp-bf16 point: $smol"
grep -q "lora+ckpt/lora8-q+v/sdpa/b8/s256" <<<"$smol" || fail "smollm2 LoRA point is not r=8 on q, v"
theirs=$(tail -n +2 "$TESTS/fixtures/reference-smollm2.csv" | awk -F, '{ print $2 "/b" $3 "/s" $4 }' | sort)
expect_eq "smollm2 grid vs the published table" "$ours" "$theirs"
"$PEAKFIT" grid "$root/sweeps/tiny-cpu.sweep" 2>"$TMP/err" >/dev/null
expect_eq "tiny-cpu summary" "$(cat "$TMP/err")" \
    "peakfit: $root/sweeps/tiny-cpu.sweep: 42 points; at most 1:24:00 by their timeouts"
# docs/sweeps.md's example sweep is a sweep peakfit reads.
sed -n '/^```ini$/,/^```$/p' "$root/docs/sweeps.md" | sed '1d;$d' >"$TMP/doc.sweep"
[ -s "$TMP/doc.sweep" ] || fail "no example sweep in docs/sweeps.md"
example=$("$PEAKFIT" grid "$TMP/doc.sweep" 2>"$TMP/err") || fail "docs/sweeps.md's example sweep: $(cat "$TMP/err")"
expect_eq "docs/sweeps.md example points" "$(wc -l <<<"$example")" 18
# The GPU check's sweep: 30 points where CUDA is there; here (a build
# without CUDA, or no GPU) refused before anything runs, naming its line.
cuda_sweep=$root/sweeps/smollm2-135m-cuda.sweep
line=$(grep -n '^device = cuda$' "$cuda_sweep" | cut -d: -f1)
if out=$("$PEAKFIT" grid "$cuda_sweep" 2>&1); then
    expect_eq "smollm2-135m-cuda points" "$(grep -c /cuda/ <<<"$out")" 30
else
    status=$?
    expect_eq "cuda refused: exit status" "$status" 2
    grep -q "^peakfit: $cuda_sweep:$line: device cuda: " <<<"$out" || fail "cuda refusal does not name $cuda_sweep:$line: $out"
fi
if ! "$PEAKFIT" grid "$cuda_sweep" >/dev/null 2>&1; then
    "$PEAKFIT" run "$cuda_sweep" -o "$TMP/cuda" 2>"$TMP/err" && fail "run of a cuda sweep without CUDA succeeded"
    expect_eq "run refuses cuda: exit status, nothing created" "$? $([ -e "$TMP/cuda" ] && echo created)" "2 "
    grep -q "^peakfit: $cuda_sweep:$line: device cuda: " "$TMP/err" || fail "run's cuda refusal: $(cat "$TMP/err")"
fi
