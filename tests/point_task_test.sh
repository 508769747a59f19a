# run --point K [--chunk C] measures task K's points and no others (what
# each task of a Slurm array runs), in a fresh directory as in one that
# other tasks already wrote; a task run again measures nothing.
source "$(dirname "$0")/lib.sh"
set -o pipefail
write_sweep "$TMP/s.sweep" <<'EOF2'
[global]
model = tiny
threads = 1
[j]
technique = inference
batch = 1, 2, 3, 4, 5
seq_len = 8
EOF2
ids=$("$PEAKFIT" grid "$TMP/s.sweep" 2>/dev/null)
point() { sed -n "$(($1 + 1))p" <<<"$ids"; }
rows() { "$CSVQ" "$TMP/out/peaks.csv" point_id | sort; }

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" --point 1 2>"$TMP/err" || fail "--point 1: $(cat "$TMP/err")"
expect_eq "rows after --point 1 in a fresh directory" "$(rows)" "$(point 1)"

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" --point 1 --chunk 2 2>"$TMP/err" || fail "--point 1 --chunk 2: $(cat "$TMP/err")"
expect_eq "rows after task 1 of 2 points" "$(rows)" "$(printf '%s\n' "$(point 1)" "$(point 2)" "$(point 3)" | sort)"

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" --point 1 2>"$TMP/err" || fail "--point 1 again: $(cat "$TMP/err")"
expect_eq "rows after --point 1 again" "$("$CSVQ" "$TMP/out/peaks.csv" point_id | wc -l)" 3

"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" --point 2 --chunk 2 2>"$TMP/err" || fail "--point 2 --chunk 2: $(cat "$TMP/err")"
expect_eq "rows after the last task" "$(rows)" "$(printf '%s\n' "$(point 1)" "$(point 2)" "$(point 3)" "$(point 4)" | sort)"
