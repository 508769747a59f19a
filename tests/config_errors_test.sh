# Every malformed config.json in tests/bad-configs/, and one nested 50,000
# deep made here (jansson stops at its depth limit: no stack overflow), is
# refused with exactly its expected message (tests/bad-configs/EXPECTED,
# after the path) and exit status 2: by `peakfit params`, and by
# `peakfit grid` through a sweep that names it, as FILE:LINE. A config too
# big for this machine is refused by grid (it could never run here) but
# still counted by params. Special files give a sentence, not a hang.
source "$(dirname "$0")/lib.sh"
set -o pipefail
dir=$TMP/bad-configs
cp -r "$TESTS/bad-configs" "$dir"
printf '{"a":%s%s}\n' "$(printf '[%.0s' {1..50000})" "$(printf ']%.0s' {1..50000})" >"$dir/deep.json"
mem=$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)

# grid_message MODEL: what `peakfit grid` says about a sweep naming MODEL
grid_message() {
    printf '[global]\nmodel = %s\n[j]\ntechnique = full\nbatch = 1\nseq_len = 8\n' "$1" >"$dir/s.sweep"
    "$PEAKFIT" grid "$dir/s.sweep" 2>&1 >/dev/null
}

n=0
while IFS=$'\t' read -r file expected; do
    n=$((n + 1))
    expected=${expected//@MEM@/$mem}
    err=$("$PEAKFIT" params "$dir/$file" 2>&1 >/dev/null); rc=$?
    case $expected in
    *"this machine's"*)
        expect_eq "$file: params counts a model too big for this machine" "$rc" 0
        err=$(grid_message "$file"); rc=$?
        expect_eq "$file: grid exit status" "$rc" 2
        expect_eq "$file: grid message" "$err" "peakfit: $dir/s.sweep:2: $dir/$file$expected" ;;
    *)
        expect_eq "$file: params exit status" "$rc" 2
        expect_eq "$file: params message" "$err" "peakfit: $dir/$file$expected" ;;
    esac
done <"$dir/EXPECTED"
expect_gt "cases checked" "$n" 22
[ "$n" -eq "$(ls "$dir"/*.json | wc -l)" ] || fail "EXPECTED does not list every .json file"

# The sweep parser refuses a model the worker could not build, at its line.
err=$(grid_message odd-head-dimension.json); rc=$?
expect_eq "bad shape: grid exit status" "$rc" 2
expect_eq "bad shape: grid message" "$err" \
    "peakfit: $dir/s.sweep:2: $dir/odd-head-dimension.json: head dimension 3 must be even for rotary embeddings"
err=$(grid_message deep.json); rc=$?
expect_eq "deep nesting: grid exit status" "$rc" 2

# Special files: refused at once, with the reason.
mkfifo "$dir/fifo.json"
mkdir "$dir/empty-model"
for case in "/dev/zero|/dev/zero: is a character device, not a regular file" \
            "$dir/fifo.json|$dir/fifo.json: is a FIFO, not a regular file" \
            "$dir/empty-model|$dir/empty-model/config.json: cannot open model config: No such file or directory"; do
    path=${case%%|*}
    err=$(timeout 20 "$PEAKFIT" params "$path" 2>&1 >/dev/null); rc=$?
    expect_eq "$path: params exit status" "$rc" 2
    expect_eq "$path: params message" "$err" "peakfit: ${case#*|}"
done
err=$(timeout 20 bash -c "$(declare -f grid_message); dir=$dir PEAKFIT=$PEAKFIT grid_message /dev/zero"); rc=$?
expect_eq "/dev/zero in a sweep: grid exit status" "$rc" 2
expect_eq "/dev/zero in a sweep: grid message" "$err" \
    "peakfit: $dir/s.sweep:2: /dev/zero: is a character device, not a regular file"

# A field that would change the architecture is refused when the sweep is
# checked, at the sweep's line, as by params.
err=$(grid_message mixture-of-experts.json); rc=$?
expect_eq "mixture of experts: grid exit status" "$rc" 2
expect_eq "mixture of experts: grid message" "$err" "peakfit: $dir/s.sweep:2: $dir/mixture-of-experts.json: field \
num_local_experts: mixture-of-experts layers are not implemented (it is 8)"
