# Every malformed safetensors file that tests/bad-safetensors/make-corpus.sh
# writes is refused by the worker's real loading path before any tensor
# byte is read: the exact message of tests/bad-safetensors/EXPECTED (after
# the file's path) on its error line, and exit status 4 (error).
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/bad-safetensors
bash "$TESTS/bad-safetensors/make-corpus.sh" "$dir" || fail "make-corpus.sh failed"
n=0
while IFS=$'\t' read -r file expected; do
    n=$((n + 1))
    out=$("$PEAKFIT" worker --model tiny --technique load --threads 1 --weights "$dir/$file" 2>&1); rc=$?
    expect_eq "$file: exit status" "$rc" 4
    expect_eq "$file: message" "$(worker_value error "$out")" "$dir/$file$expected"
done <"$TESTS/bad-safetensors/EXPECTED"
expect_gt "cases checked" "$n" 15
[ "$n" -eq "$(ls "$dir" | wc -l)" ] || fail "EXPECTED does not list every generated file"

# Special files as the weights: refused at once, as a bad option value,
# not read or waited on.
mkfifo "$TMP/fifo.safetensors"
for case in "$TMP/fifo.safetensors:is a FIFO" "/dev/zero:is a character device"; do
    path=${case%%:*} kind=${case#*:}
    out=$(timeout 20 "$PEAKFIT" worker --model tiny --technique load --threads 1 --weights "$path" 2>&1); rc=$?
    expect_eq "$path: exit status" "$rc" 2
    expect_eq "$path: message" "$(head -1 <<<"$out")" "peakfit worker: --weights: $path: $kind, not a regular file"
done
