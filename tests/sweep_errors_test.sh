# Every malformed sweep in tests/bad-sweeps/ gives exactly its expected
# "FILE:LINE: message" (tests/bad-sweeps/EXPECTED; @KEYS@ and @PLACEHOLDERS@
# stand for the lists the tables give), exit status 2, and leaves the
# output directory uncreated.
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TESTS/bad-sweeps
# @KEYS@ and @PLACEHOLDERS@ are the lists a message names, in the tables' order.
keys=$("$PEAKFIT" keys | sed -n 's/^| `\([a-zA-Z_.]*\)` | .*/\1/p' | paste -sd, | sed 's/,/, /g')
placeholders=$("$PEAKFIT" placeholders | sed -n 's/^| `{\([a-zA-Z_.]*\)}` | .*/\1/p' | paste -sd, | sed 's/,/, /g')
[ -n "$keys" ] && [ -n "$placeholders" ] || fail "no key or placeholder list read"
n=0
while IFS=$'\t' read -r file expected; do
    n=$((n + 1))
    out=$TMP/out-$n
    err=$("$PEAKFIT" run "$dir/$file" -o "$out" 2>&1); rc=$?
    expect_eq "$file: exit status" "$rc" 2
    expected=${expected//@KEYS@/$keys}
    expected=${expected//@PLACEHOLDERS@/$placeholders}
    expect_eq "$file: message" "$err" "peakfit: $dir/$file:${expected//@DIR@/$dir}"
    [ ! -e "$out" ] || fail "$file: $out was created"
done <"$dir/EXPECTED"
expect_gt "cases checked" "$n" 29
[ "$n" -eq "$(ls "$dir"/*.sweep | wc -l)" ] || fail "EXPECTED does not list every .sweep file"

# The same mistakes on a command line, in the engine's same words as the
# sweep files' above (unknown-device, duplicate-key, command-param-twice):
# the worker's options are the sweep keys' rows, auto's are its own.
while IFS=$'\t' read -r want args; do
    read -ra argv <<<"$args"
    err=$("${argv[@]}" 2>&1 >/dev/null | head -1)
    expect_eq "$args: message" "$err" "$want"
done <<EOF
peakfit worker: --device: device must be one of cpu, cuda, cuda:N, mps, not "tpu"	$PEAKFIT_WORKER --device tpu
peakfit worker: --batch given twice; give it once	$PEAKFIT_WORKER --batch 1 --batch 2
peakfit auto: --device must be one of cpu, cuda, cuda:N, mps, not "tpu"	$PEAKFIT auto tiny --technique full --seq-len 64 -o $TMP/cli --device tpu
peakfit auto: --threads given twice; give it once	$PEAKFIT auto tiny --technique full --seq-len 64 -o $TMP/cli --threads 1 --threads 2
EOF
[ ! -e "$TMP/cli" ] || fail "a bad option created the output directory"

# Files that are not sweep files: refused at once, read no further.
mkfifo "$TMP/fifo.sweep"
mkdir "$TMP/dir.sweep"
head -c $((17 << 20)) /dev/zero | tr '\0' '#' >"$TMP/big.sweep"
while IFS=$'\t' read -r file expected; do
    err=$(timeout 20 "$PEAKFIT" run "$file" -o "$TMP/out" 2>&1); rc=$?
    expect_eq "$file: exit status" "$rc" 2
    expect_eq "$file: message" "$err" "peakfit: $file: $expected"
    [ ! -e "$TMP/out" ] || fail "$file: $TMP/out was created"
done <<EOF
$TMP/none.sweep	cannot open sweep file: No such file or directory
$TMP/fifo.sweep	is a FIFO, not a regular file
$TMP/dir.sweep	is a directory, not a file
/dev/zero	is a character device, not a regular file
$TMP/big.sweep	is larger than 16777216 bytes (17825792): not a sweep file
EOF
