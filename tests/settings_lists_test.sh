# The settings table (settings/setting_rows.h) is the only list of settings.
# Read from the sources, two things that would be a second list fail here:
#   - a command's option row named as a setting's worker flag by hand
#     ({"lora-rank", ...} or .name = "lora-rank"): a command borrows a
#     setting's option with SETTING_OPTION("key", ...) or takes its
#     group-key axis's row (fit/group_choice.h); tests/options_test.c
#     checks the tables it knows, this every source file;
#   - three or more of the group key's fields named as members of a key
#     (key.x / key->x) within three lines, outside the files that expand
#     the key from the table (settings/group_key.c, fit/group_choice.c): a hand
#     list of fields that the next setting in the key would be missing
#     from (verify once matched a group's rows by four of its fields).
# Each offence is named with its file and line.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
cd "$root" || fail "no tree at $root"
# peakfit's own C sources, every layer's but the shim's (C++ of its own).
sources=$(tests/tools/layout-graph.sh sources | grep -E '\.[ch]$' | grep -v '^shim/')
[ -n "$sources" ] || fail "no sources listed"

# The settings' flags: peakfit-worker's options that are a sweep key's.
flags=$("$PEAKFIT" worker --help | sed -n 's/^  --\([a-z0-9-]*\) .*sweep key .*/\1/p')
[ "$(echo "$flags" | wc -l)" -ge 10 ] || fail "too few worker flags read: $flags"
for flag in $flags; do
    grep -nE "(\{|\.name = )\"$flag\"" $sources | grep -v '^settings/setting_rows.h:' >>"$TMP/by-hand"
done
[ -s "$TMP/by-hand" ] && fail "an option row named as a setting's flag, by hand: $(head -3 "$TMP/by-hand")"

# The group key's fields: the rows with GROUP_SHOWN or GROUP_SETTING.
fields=$(awk '/^ *R\(A, / { name = $2; sub(/,$/, "", name) }
    name && /GROUP_(SHOWN|SETTING)\(/ { print name; name = "" }
    /GROUP_NONE/ { name = "" }' settings/setting_rows.h)
[ "$(echo "$fields" | wc -l)" -ge 10 ] || fail "too few group key fields read: $fields"
for f in $sources; do
    case $f in settings/group_key.c | fit/group_choice.c | settings/setting_rows.h) continue ;; esac
    awk -v fields="$(echo $fields)" -v file="$f" '
        BEGIN { n = split(fields, F, " "); for (i = 1; i <= n; i++) is_field[F[i]] = 1 }
        {
            line[FNR % 3] = $0
            delete seen; k = 0
            for (j = 0; j < 3; j++) {
                s = line[j]
                while (match(s, /key(->|\.)[a-z_]+/)) {
                    w = substr(s, RSTART, RLENGTH); sub(/^key(->|\.)/, "", w)
                    if (is_field[w] && !seen[w]) { seen[w] = 1; k++ }
                    s = substr(s, RSTART + RLENGTH)
                }
            }
            if (k >= 3) { print file ":" FNR; exit }
        }' "$f" >>"$TMP/lists"
done
# Known lists of the key's shown fields, each a label or a report's
# choice of its own: fit's printed table names its leading columns.
grep -v '^fit/fit_output.c:\|^reports/report_summary.c:' "$TMP/lists" >"$TMP/offences"
[ -s "$TMP/offences" ] && fail "group key fields listed by hand (3 within 3 lines): $(cat "$TMP/offences")"
true
