# A fit infers a floor from per-phase peaks only for the metrics those
# peaks measure. forward_peak_mib... are the counting allocator's (the CPU
# counter): they measure the tensor metric and RSS, on a GPU row as on a
# CPU one, never the CUDA allocator's allocated or reserved, which have
# their own (forward_gpu_allocated_peak_mib...; last case below).
# tests/fixtures/gpu-phases-peaks.csv is CONSTRUCTED for this test (not
# measured): SmolLM2-135M on cuda, full, b 1, 2, 4, 8 at s = 256; the CPU
# counter's phases put b 1 and 2 on the floor (forward and backward no
# higher than the optimizer step: 10/10/12, 11/11/12 MiB) and b 4, 8 above
# it (20, 40 MiB in forward); allocated 2050, 2050, 2100, 2300 MiB,
# reserved 64 MiB above. Four points are too few for the floor search, so
# a floor can only come from the phases.
source "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/gpu" "$TMP/none"
cp "$TESTS/fixtures/gpu-phases-peaks.csv" "$TMP/gpu/peaks.csv"
"$PEAKFIT" fit "$TMP/gpu" >"$TMP/fit.out" 2>"$TMP/fit.err" || fail "fit failed: $(cat "$TMP/fit.err")"
floors() { "$CSVQ" "$1/fit.csv" metric n_floor | tr '\t\n' ': '; }
bounds() { "$CSVQ" "$1/fit-residuals.csv" metric batch bound peak_phase | awk -F'\t' -v m="$2" '$1 == m { printf "%s %s %s;", $2, $3, $4 }'; }

# The host metrics: the phases' floor (b 1, 2), each point's peak phase.
expect_eq "floor points per metric" "$(floors "$TMP/gpu")" "rss:2 tensor:2 allocated:0 reserved:0 "
expect_eq "tensor's points" "$(bounds "$TMP/gpu" tensor)" "1 floor optimizer;2 floor optimizer;4 line forward;8 line forward;"
expect_eq "rss's points" "$(bounds "$TMP/gpu" rss)" "1 floor optimizer;2 floor optimizer;4 line forward;8 line forward;"
# The CUDA allocator's: no phase peaks of theirs, so no floor from phases
# and no peak phase named.
expect_eq "allocated's points" "$(bounds "$TMP/gpu" allocated)" "1 line ;2 line ;4 line ;8 line ;"
expect_eq "reserved's points" "$(bounds "$TMP/gpu" reserved)" "1 line ;2 line ;4 line ;8 line ;"
grep -q '"peak_phase": "optimizer"' "$TMP/gpu/fit.json" || fail "fit.json names no peak phase for tensor"
[ "$(grep -c '"peak_phase": ""' "$TMP/gpu/fit.json")" = 8 ] ||
    fail "fit.json: allocated's and reserved's 8 points should name no peak phase"

# Without the phase columns no metric has a floor: it came from the phases.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(forward|backward|optimizer)_peak_mib$/) drop[i] = 1 }
         NR > 1 { for (i in drop) $i = "" } { print }' OFS=, "$TMP/gpu/peaks.csv" >"$TMP/none/peaks.csv"
"$PEAKFIT" fit "$TMP/none" >/dev/null 2>"$TMP/fit.err" || fail "fit without phases failed: $(cat "$TMP/fit.err")"
expect_eq "floor points without phases" "$(floors "$TMP/none")" "rss:0 tensor:0 allocated:0 reserved:0 "

# With the device allocator's own phases (the shim's phase guards record
# them on a GPU: forward_gpu_allocated_peak_mib...), allocated and reserved
# take the floor those put b 1 and 2 on (forward, backward below the
# optimizer step's 2050 MiB), and name each point's peak phase; tensor and
# rss keep the CPU counter's. The columns are appended as a newer peaks.csv
# has them (command, memory_method, measured_by before them).
mkdir -p "$TMP/dev"
awk -F, 'NR == 1 { print $0 ",command,memory_method,measured_by,forward_gpu_allocated_peak_mib,backward_gpu_allocated_peak_mib,optimizer_gpu_allocated_peak_mib,forward_gpu_reserved_peak_mib,backward_gpu_reserved_peak_mib,optimizer_gpu_reserved_peak_mib"; next }
         NF > 1 { a["1"] = "1800,2000,2050"; a["2"] = "1900,2030,2050"; a["4"] = "2100,2080,2060"; a["8"] = "2300,2200,2060"
                  split(a[$6], v, ","); print $0 ",,,," v[1] "," v[2] "," v[3] "," v[1] + 64 "," v[2] + 64 "," v[3] + 64 }' \
    "$TMP/gpu/peaks.csv" >"$TMP/dev/peaks.csv"
"$PEAKFIT" fit "$TMP/dev" >/dev/null 2>"$TMP/fit.err" || fail "fit with device phases failed: $(cat "$TMP/fit.err")"
expect_eq "floor points with device phases" "$(floors "$TMP/dev")" "rss:2 tensor:2 allocated:2 reserved:2 "
expect_eq "allocated's points, device phases" "$(bounds "$TMP/dev" allocated)" "1 floor optimizer;2 floor optimizer;4 line forward;8 line forward;"
expect_eq "reserved's points, device phases" "$(bounds "$TMP/dev" reserved)" "1 floor optimizer;2 floor optimizer;4 line forward;8 line forward;"
echo "gpu_phases_test: the CPU counter's phases for tensor and rss, the device allocator's for allocated and reserved"
