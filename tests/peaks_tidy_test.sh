# bench/peaks-tidy.py, bench/auto-sweep.sh's step between runs: in a copy
# of the tiny fixture cut to an older version's first 37 columns, with a
# row of a worker that never started and absolute model paths into the
# repository, the row is dropped, the header becomes this peakfit's (the
# added columns empty but measured_by, "worker"), model_source and the
# sweep's model are made relative; a second pass changes nothing.
source "$(dirname "$0")/lib.sh"
root=$(cd "$TESTS/.." && pwd)
export PEAKFIT
command -v python3 >/dev/null || skip "no python3"
dir=$TMP/results/auto
mkdir -p "$dir"
config=$root/bench/configs/qwen2.5-0.5b/config.json
awk -F, -v OFS=, -v src="$config" 'NR == 1 { NF = 37; $38 = "model_source"; print; next }
    NR <= 3 { NF = 37; $38 = src; print }
    NR == 4 { NF = 37; $11 = "error"; $37 = "cannot run /gone/peakfit-worker: No such file or directory"; $38 = src; print }' \
    "$root/tests/fixtures/tiny-cpu-peaks.csv" >"$dir/peaks.csv"
printf '[global]\nmodel = %s\ntechnique = full\n' "$config" >"$dir/auto.sweep"
"$root/bench/peaks-tidy.py" "$TMP/results" >"$TMP/out" 2>"$TMP/err" || fail "peaks-tidy.py: $(cat "$TMP/err")"
expect_eq "rows kept" "$(tail -n +2 "$dir/peaks.csv" | wc -l)" 2
expect_eq "the header: this peakfit's columns" "$(head -n 1 "$dir/peaks.csv" | tr , '\n' | sort | tr '\n' ' ')" \
    "$("$PEAKFIT" columns | sed -n 's/^| `\([a-z0-9_]*\)` |.*/\1/p' | sort | tr '\n' ' ')"
expect_eq "model_source relative" "$("$CSVQ" "$dir/peaks.csv" model_source | sort -u)" "bench/configs/qwen2.5-0.5b/config.json"
expect_eq "measured_by of an older row" "$("$CSVQ" "$dir/peaks.csv" measured_by | sort -u)" worker
expect_eq "the sweep's model, relative to it" "$(sed -n 's/^model = //p' "$dir/auto.sweep")" \
    "$(realpath --relative-to="$dir" "$config")"
grep -q "peaks.csv: 1 rows of a worker never started dropped" "$TMP/out" || fail "what it says: $(cat "$TMP/out")"
cp "$dir/peaks.csv" "$TMP/before.csv"
"$root/bench/peaks-tidy.py" "$TMP/results" >"$TMP/out" || fail "second pass failed"
expect_eq "a second pass says nothing" "$(cat "$TMP/out")" ""
cmp -s "$dir/peaks.csv" "$TMP/before.csv" || fail "a second pass changed peaks.csv"
