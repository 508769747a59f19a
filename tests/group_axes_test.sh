# Every field of the fit's group key is an axis that calc and verify
# choose by, with its option, and no code outside the group key's own
# files lists the key's fields by hand (calc once had a list of five of
# its eleven, and a directory with two LoRA ranks was planned for one):
# the fields are read here from what calc writes of a plan's group, so a
# field added to the settings table is checked with no edit here.
source "$(dirname "$0")/lib.sh"
dir=$TMP/d
mkdir "$dir" && cp "$TESTS/fixtures/two-devices-peaks.csv" "$dir/peaks.csv"
json=$("$PEAKFIT" calc "$dir" --budget 2GiB --device cpu --json) || fail "calc: exit status $?"
# The plan's group: every member before seq_len.
fields=$(grep -o '"[a-z_]*": ' <<<"$json" | tr -d '": ' | sed '/^seq_len$/,$d')
expect_eq "the group key's first fields" "$(head -4 <<<"$fields" | tr '\n' ' ')" "model device technique attention "
[ "$(wc -l <<<"$fields")" -ge 11 ] || fail "the plan names $(wc -l <<<"$fields") group fields: $fields"
for cmd in calc verify; do
    help=$("$PEAKFIT" "$cmd" --help 2>&1)
    for f in $fields; do
        grep -q -- "--${f//_/-} " <<<"$help" || fail "$cmd --help has no --${f//_/-}: the group key's $f is no axis of it"
    done
done
# The key's fields by offset only in the key's own files.
cd "$TESTS/.."
hand=$(grep -rln "offsetof(struct group_key" --include=*.c --include=*.h . | grep -v "^./settings/group_key\.[ch]$\|^./fit/group_choice\.[ch]$\|^./tests/")
[ -z "$hand" ] || fail "the group key's fields listed by hand (offsetof(struct group_key, ...)) in: $hand"
true
