# A fit remembers the machine it was measured on: fit.csv and fit.json
# carry the CPU, BLAS, libtorch and, on a GPU, its name and driver; calc
# and verify compare the CPU with this machine's (PEAKFIT_THIS_CPU stands
# for /proc/cpuinfo here), say when they differ, and widen RSS's interval
# by the spread between machines (bench/results/machines.txt); a fit.json
# carried alone knows it too. The report plans for the measuring machine.
source "$(dirname "$0")/lib.sh"
dir=$TMP/tiny
mkdir -p "$dir"
cp "$TESTS/fixtures/tiny-cpu-peaks.csv" "$dir/peaks.csv"
"$PEAKFIT" fit "$dir" >/dev/null 2>"$TMP/err" || fail "fit: $(cat "$TMP/err")"
expect_eq "fit.csv ends with the hardware" "$(head -n 1 "$dir/fit.csv" | tr ',' '\n' | tail -n 5 | tr '\n' ' ')" \
    "cpu_model blas torch_version gpu_name driver_version "
expect_eq "fit.csv's full rss row: its hardware" \
    "$(grep '^tiny,cpu,full,.*,rss,' "$dir/fit.csv" | head -n 1 | awk -F, '{ print $(NF-4) "|" $(NF-3) "|" $(NF-2) "|" $(NF-1) "|" $NF }')" \
    "AMD EPYC|/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so|1.13.0||"
grep -q '"cpu_model": "AMD EPYC"' "$dir/fit.json" || fail "fit.json has no cpu_model"
grep -q '"gpu_name": ""' "$dir/fit.json" || fail "fit.json has no gpu_name"
gpu=$TMP/gpu
mkdir -p "$gpu"
cp "$TESTS/fixtures/gpu-peaks.csv" "$gpu/peaks.csv"
"$PEAKFIT" fit "$gpu" >/dev/null 2>&1
grep -q '"gpu_name": "NVIDIA H200"' "$gpu/fit.json" && grep -q '"driver_version": "13.0"' "$gpu/fit.json" ||
    fail "fit.json of a GPU fit: no GPU name or driver: $(grep -m2 -e gpu_name -e driver_version "$gpu/fit.json")"
"$PEAKFIT" report "$gpu" 2>/dev/null
expect_eq "a GPU report's title" "$(head -n 1 "$gpu/report.md")" "# SmolLM2-135M, tiny on NVIDIA H200, driver 13.0, libtorch 2.11.0+cu130"

# half OUTPUT: the plan's 95% half-width
half() { sed -n 's/.*(95% prediction interval +- \([0-9.]*\)).*/\1/p' <<<"$1"; }
plan=(--budget 1GiB --technique full --target-batch 32)
here=$(PEAKFIT_THIS_CPU="AMD EPYC" "$PEAKFIT" calc "$dir" "${plan[@]}")
grep -q "ANOTHER MACHINE" <<<"$here" && fail "the same CPU said to be another machine: $here"
there=$(PEAKFIT_THIS_CPU="Other CPU 9000" "$PEAKFIT" calc "$dir" "${plan[@]}")
grep -qF "  ANOTHER MACHINE: the fit was measured on CPU AMD EPYC; this machine's CPU is Other CPU 9000; RSS differs" \
    <<<"$there" || fail "no other-machine line: $there"
expect_gt "another machine's interval against this one's" "$(half "$there")" "$(half "$here")"
json=$(PEAKFIT_THIS_CPU="Other CPU 9000" "$PEAKFIT" calc "$dir" "${plan[@]}" --json)
grep -q '"measured_on_this_machine": false' <<<"$json" && grep -q '"measured_on_cpu": "AMD EPYC"' <<<"$json" ||
    fail "calc --json: $json"
# fit.json alone, elsewhere: the same
mkdir "$TMP/elsewhere"
cp "$dir/fit.json" "$TMP/elsewhere/fit.json"
expect_eq "calc from fit.json on another machine" \
    "$(PEAKFIT_THIS_CPU="Other CPU 9000" "$PEAKFIT" calc "$TMP/elsewhere/fit.json" "${plan[@]}")" "$there"
# The report's tables plan for the machine that measured, wherever it is written.
PEAKFIT_THIS_CPU="Other CPU 9000" "$PEAKFIT" report "$dir" 2>/dev/null
cp "$dir/report.md" "$TMP/there.md"
"$PEAKFIT" report "$dir" 2>/dev/null
expect_eq "the report's plans on another machine" \
    "$(grep -v -e '^| report written' -e '^| host' "$TMP/there.md" | sed -n '/^## Calculator/,/^## /p')" \
    "$(grep -v -e '^| report written' -e '^| host' "$dir/report.md" | sed -n '/^## Calculator/,/^## /p')"
true
