#!/usr/bin/env bash
# doc-splice.sh DOC [OUT]: DOC with its Markdown table replaced by the one on
# stdin (the table whose header line is stdin's first line: from that line to
# the first line that is not a table row), written to OUT (default: DOC
# itself). make docs writes the generated tables so; tests/docs_test.sh
# checks that the committed ones are what it would write.
set -euo pipefail
doc=$1 out=${2:-$1}
table=$(cat)
header=$(head -n 1 <<<"$table")
grep -qxF -- "$header" "$doc" || { echo "doc-splice.sh: $doc has no table headed $header" >&2; exit 2; }
awk -v header="$header" -v table="$table" '
    $0 == header { print table; skipping = 1; next }
    skipping && /^\|/ { next }
    { skipping = 0; print }
' "$doc" >"$out.new"
mv "$out.new" "$out"
