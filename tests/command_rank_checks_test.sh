# What a command's ranks report is checked against what peakfit measured
# itself, and every row it writes reads back (the next run resumes over
# it). A launcher may number its ranks by OMPI_COMM_WORLD_RANK (mpirun)
# rather than RANK: each rank's memory is still sampled, so an honest
# baseline is below its peak. A rank that reported but was never seen in
# the tree, a peak above the tree's, a report of gigabytes without a
# newline (read to its first MiB only) are the row's errors. RANK in the
# runner's own environment is not the command's; the rank directory goes
# with whatever a rank made in it; an unusable TMPDIR is named; the
# command inherits no descriptor but its own three and the report's.
source "$(dirname "$0")/lib.sh"
cat >"$TMP/rank.py" <<'PY'
import os, sys, time
def kib(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
rank = int(os.environ["OMPI_COMM_WORLD_RANK"])
base = kib("VmRSS")
held = b"\1" * ((rank + 1) * 20 << 20)  # (R + 1) x 20 MiB, written
time.sleep(0.5)
with open(os.path.join(os.environ["PEAKFIT_REPORT_DIR"], "rank-%d.report" % rank), "w") as f:
    f.write("baseline_rss_kib=%d\ntensor_peak_bytes=%d\n" % (base, len(held)))
PY
rank0() { printf 'OMPI_COMM_WORLD_RANK=0 sh -c %s' "'$1; sleep 0.3'"; }
{
    one_point_global
    printf '[mpi]\ncommand = for r in 0 1; do OMPI_COMM_WORLD_RANK=$r python3 %s & done; wait\n' "$TMP/rank.py"
    printf '[r63]\ncommand = %s\n' "$(rank0 'printf "baseline_rss_kib=1000\\n" > "$PEAKFIT_REPORT_DIR/rank-63.report"')"
    printf '[huge]\ncommand = %s\n' "$(rank0 'printf "peak_rss_kib=100000000000000\\n" > "$PEAKFIT_REPORT_DIR/rank-0.report"')"
    printf '[long]\ncommand = %s\n' "$(rank0 'truncate -s 2G "$PEAKFIT_REPORT_DIR/rank-0.report"')"
    printf '[subdir]\ncommand = mkdir "$PEAKFIT_REPORT_DIR/sub" && touch "$PEAKFIT_REPORT_DIR/sub/x"\n'
} >"$TMP/r.sweep"
mkdir "$TMP/tmpdir"
(ulimit -v "$(address_space_limit 1000000)"; TMPDIR=$TMP/tmpdir "$PEAKFIT" run "$TMP/r.sweep" -o "$TMP/r") \
    >/dev/null 2>"$TMP/log" || fail "run: $(cat "$TMP/log")"
row() { "$CSVQ" "$TMP/r/peaks.csv" job "$@" | awk -F'\t' -v j="$job" '$1 == j' | cut -f2-; }
job=mpi
expect_eq "mpirun's ranks: status, method, tensor peak" "$(row status memory_method tensor_peak_mib)" \
    "ok	ranks	40.000"
# Each rank's RSS above its baseline holds at least what it wrote.
row rank_peaks_mib | awk '{ for (i = 1; i <= NF; i++) { split($i, f, ":"); if (f[2] < f[3] || f[3] != (f[1] + 1) * 20) exit 1 }
    exit NF != 2 }' || fail "mpirun's ranks: rank_peaks_mib $(row rank_peaks_mib)"
job=r63
expect_eq "rank 63's report from rank 0" "$(row status error)" "error	rank 63 reported, but no process of the tree carried its number (RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or PMIX_RANK = 63) and its report has no peak_rss_kib: its peak was not measured"
job=huge
tree=$(row tree_peak_rss_mib)
expect_eq "a peak above the tree's" "$(row status error)" \
    "error	rank 0's peak_rss_kib 100000000000000 (97656250000.0 MiB) is above the process tree's peak, $(printf '%.1f' "$tree") MiB"
awk -v p="$(row peak_rss_mib)" -v t="$tree" 'BEGIN { exit !(p <= t) }' || fail "huge: peak_rss_mib $(row peak_rss_mib) over the tree's $tree"
job=long
expect_eq "a report of 2 GiB without a newline" "$(row status error)" \
    "error	rank 0's report line 1: the report is longer than 1048576 bytes"
job=subdir
expect_eq "a subdirectory in the report directory" "$(row status error)" \
    "error	PEAKFIT_REPORT_DIR holds \"sub\": not a file rank-R.report (R from 0 to 63)"
expect_eq "report directories left in TMPDIR" "$(ls -A "$TMP/tmpdir")" ""
# Every row reads back: the run resumes over them.
TMPDIR=$TMP/tmpdir "$PEAKFIT" run "$TMP/r.sweep" -o "$TMP/r" >/dev/null 2>"$TMP/log" || fail "resume: $(cat "$TMP/log")"

# RANK (or another rank variable) in the runner's environment, as in a
# shell torchrun or Slurm started: a single command's report stands.
{
    one_point_global
    printf '[one]\ncommand = printf "tensor_peak_bytes=2097152\\nloss=1.5\\n" >&3; sleep 0.2\n'
} >"$TMP/one.sweep"
RANK=0 OMPI_COMM_WORLD_RANK=0 "$PEAKFIT" run "$TMP/one.sweep" -o "$TMP/one" >/dev/null 2>"$TMP/log" ||
    fail "run under RANK=0: $(cat "$TMP/log")"
expect_eq "a command under RANK=0" "$("$CSVQ" "$TMP/one/peaks.csv" job memory_method tensor_peak_mib loss | head -n 1)" \
    "one	tree-poll	2.000	1.50000"
# The command's descriptors on /dev/null: its stdin, and those this test's
# shell passes down to every child.
printf '[fds]\nmodel = tiny\ntechnique = full\nbatch = 1\nseq_len = 1\ncommand = find /proc/self/fd/ -lname /dev/null -fprint %s\n' \
    "$TMP/fds" >"$TMP/fds.sweep"
"$PEAKFIT" run "$TMP/fds.sweep" -o "$TMP/fds-out" >/dev/null 2>"$TMP/log" || fail "run fds: $(cat "$TMP/log")"
inherited=$(find "/proc/$BASHPID/fd/" -lname /dev/null | awk -F/ '$NF > 2' | wc -l)
expect_eq "the command's descriptors on /dev/null" "$(wc -l <"$TMP/fds")" "$((inherited + 1))"

# An unusable TMPDIR is named.
err=$(TMPDIR=$TMP/none "$PEAKFIT" run "$TMP/one.sweep" -o "$TMP/none-out" 2>&1 >/dev/null)
expect_eq "TMPDIR missing: exit status" "$?" 1
expect_eq "TMPDIR missing: message" "$(head -n 1 <<<"$err")" \
    "peakfit: job [one]: cannot make the point's report directory in TMPDIR $TMP/none: No such file or directory"
