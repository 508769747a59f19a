# Every sweep committed outside tests/ parses and expands (`peakfit grid`),
# the cuda ones too: each is read with its device set to cpu (a build
# without CUDA refuses a cuda sweep at its device line, before the rest of
# it is read) and its relative model paths made absolute, so that a key
# misused in a sweep only a GPU runs (zero_grad given a list, say) fails
# here and not on a lent GPU. The one refusal allowed is libtorch 1.13's
# of fused AdamW, which it lacks.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
cd "$root" || fail "cannot cd to $root"
n=0
while IFS= read -r sweep; do
    dir=$(cd "$(dirname "$sweep")" && pwd)
    awk -v dir="$dir" '
        /^device *= *cuda/ { sub(/cuda(:[0-9]+)?/, "cpu") }
        /^model *= *[^\/ ]*\// && $3 !~ /^\// { $3 = dir "/" $3 }
        { print }' "$sweep" >"$TMP/copy.sweep"
    err=$("$PEAKFIT" grid "$TMP/copy.sweep" 2>&1 >/dev/null) && { n=$((n + 1)); continue; }
    grep -q "libtorch 1\.13\.[0-9]* has no _fused_adamw_ for cpu" <<<"$err" && { n=$((n + 1)); continue; }
    fail "$sweep: $(tail -1 <<<"$err")"
done < <(git ls-files '*.sweep' | grep -v '^tests/\|^bench/results/')
expect_gt "committed sweeps read" "$n" 15
echo "committed_sweeps_test: $n sweeps"
