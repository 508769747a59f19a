# A command job that starts a launcher: `torchrun --nproc-per-node 2`
# (real, from the venv; no process group needed), each rank a process of
# plain tensors reporting through examples/peakfit_report.py. Its workers
# inherit PEAKFIT_REPORT_FD but not descriptor 3, so each writes its own
# rank-R.report in PEAKFIT_REPORT_DIR; peakfit records each rank's peak
# (rank_peaks_mib), the tree's (tree_peak_rss_mib), and makes the largest
# rank's the row's: rank R holds (R + 1) x batch MiB of tensors, so the
# fit's slope is rank 1's 2 MiB a sample, not the tree's 3; report.md
# shows every rank's. A rank's
# report is read as strictly as the pipe's.
source "$(dirname "$0")/lib.sh"
source "$TESTS/torch_python.sh"
root=$(cd "$TESTS/.." && pwd)
cat >"$TMP/rank.py" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[2])
import torch
from peakfit_report import Report
torch.set_num_threads(1)
with Report() as report:
    held = torch.ones(int(sys.argv[1]) * (int(os.environ["RANK"]) + 1) * 262144)  # MiB of float32
    report.loss(float(held[0]))
PY
cat >"$TMP/r.sweep" <<SWEEP
[ranks]
model = my-mlp
technique = full
batch = 2, 4, 6
timeout = 5m
command = $(dirname "$PYTHON")/torchrun --standalone --nproc-per-node 2 $TMP/rank.py {batch} $root/examples
SWEEP
"$PEAKFIT" run "$TMP/r.sweep" -o "$TMP/r" >/dev/null 2>"$TMP/log" || fail "run: $(tail -5 "$TMP/log")"
rows=$("$CSVQ" "$TMP/r/peaks.csv" batch status memory_method tensor_peak_mib rank_peaks_mib)
expect_eq "ranks' tensor peaks" "$(printf '%s\n' "$rows" | awk -F'\t' '{ n = split($5, r, " "); s = "";
    for (i = 1; i <= n; i++) { split(r[i], f, ":"); s = s " " f[1] "=" f[3] } print $1, $2, $3, $4 s }')" \
    "2 ok ranks 4.000 0=2.000 1=4.000
4 ok ranks 8.000 0=4.000 1=8.000
6 ok ranks 12.000 0=6.000 1=12.000"
# The tree (torchrun and both ranks) holds more than the largest rank.
"$CSVQ" "$TMP/r/peaks.csv" peak_rss_mib tree_peak_rss_mib | awk -F'\t' '!($2 > $1) { exit 1 }' ||
    fail "tree_peak_rss_mib not above the rank's peak_rss_mib: $("$CSVQ" "$TMP/r/peaks.csv" peak_rss_mib tree_peak_rss_mib)"
"$PEAKFIT" fit "$TMP/r" >"$TMP/fit" 2>&1 || fail "fit: $(cat "$TMP/fit")"
"$PEAKFIT" calc "$TMP/r" --budget 1GiB --metric tensor --micro-batch 10 --json >"$TMP/calc.json" 2>"$TMP/log" ||
    fail "calc: $(cat "$TMP/log")"
expect_eq "calc at b=10: the largest rank's" \
    "$("$PYTHON" -c "import json, sys; p = json.load(open(sys.argv[1])); print('%.1f' % (p['predicted_peak_mib'] - p['baseline_mib']))" "$TMP/calc.json")" \
    "20.0"
"$PEAKFIT" report "$TMP/r" >/dev/null 2>"$TMP/log" || fail "report: $(cat "$TMP/log")"
expect_eq "report.md: every rank's peak" "$(grep '^| my-mlp | [0-9]' "$TMP/r/report.md" |
    sed -E 's/[0-9]+\.[0-9] \//RSS \//g; s/\| [0-9]+\.[0-9] \| 2 \|/| TREE | 2 |/')" \
    "| my-mlp | 2 | 1 | TREE | 2 | 0: RSS / 2.0; 1: RSS / 4.0 |
| my-mlp | 4 | 1 | TREE | 2 | 0: RSS / 4.0; 1: RSS / 8.0 |
| my-mlp | 6 | 1 | TREE | 2 | 0: RSS / 6.0; 1: RSS / 12.0 |"

# Read strictly: a bad value in a rank's file, and a file that is not a rank's.
for case in 'loss=nan:rank 1'"'"'s report line 1: loss "nan" is not a number from 0 to 1e+12' \
    'x:PEAKFIT_REPORT_DIR holds "rank-1.txt": not a file rank-R.report (R from 0 to 63)'; do
    line=${case%%:*} want=${case#*:}
    [ "$line" = x ] && name=rank-1.txt || name=rank-1.report
    printf '[bad]\nmodel = my-mlp\ntechnique = full\nbatch = 1\nshell = true\ncommand = printf "%%s\\n" %s > "$PEAKFIT_REPORT_DIR/%s"\n' \
        "$line" "$name" >"$TMP/b.sweep"
    rm -rf "$TMP/b"
    "$PEAKFIT" run "$TMP/b.sweep" -o "$TMP/b" >/dev/null 2>&1
    expect_eq "$name: status and error" "$("$CSVQ" "$TMP/b/peaks.csv" status error)" "error	$want"
done
exit 0
