# `peakfit slurm` against a real Slurm: a one-node cluster on this machine
# (Debian's slurm-wlm with munge, installed when missing), its slurm.conf,
# state, spool, logs and munge socket all in a temporary directory; a
# 4-point sweep submitted as a job array (`--submit`), waited for, and its
# peaks.csv checked: every point once. A task run again by hand (as a
# requeue would) writes nothing twice. Stops the daemons it started.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "a one-node Slurm needs root (SlurmUser=root)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
    ! command -v sbatch >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge; } \
        >"$TMP/apt.log" 2>&1 || skip "cannot install slurmctld, slurmd, slurm-client, munge: $(tail -1 "$TMP/apt.log")"
fi
S=$TMP/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge"
started=()
stop_all() {
    for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${started[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$TMP"
}
trap stop_all EXIT

# munge, on its own socket and key.
dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$S/munge/munge.key"
munged --force --foreground --socket="$S/munge/socket" --key-file="$S/munge/munge.key" \
    --pid-file="$S/munge/pid" --log-file="$S/munge/log" --seed-file="$S/munge/seed" >/dev/null 2>&1 &
started+=($!)
for _ in $(seq 50); do [ -S "$S/munge/socket" ] && break; sleep 0.1; done
[ -S "$S/munge/socket" ] || skip "munged did not start: $(tail -2 "$S/munge/log" 2>/dev/null)"

host=$(hostname -s)
port=$(( 20000 + RANDOM % 20000 ))
cat >"$S/slurm.conf" <<END
ClusterName=peakfit-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$S/munge/socket
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
END
export SLURM_CONF=$S/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$S/slurmctld.out" 2>&1 &
started+=($!)
slurmd -D -f "$SLURM_CONF" >"$S/slurmd.out" 2>&1 &
started+=($!)
up=0
for _ in $(seq 100); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && { up=1; break; }
    sleep 0.2
done
[ $up -eq 1 ] || skip "the one-node Slurm did not come up: $(tail -2 "$S/slurmctld.log" "$S/slurmd.log" 2>/dev/null | tr '\n' ' ')"

write_sweep "$TMP/s.sweep" <<'EOF2'
[global]
model = tiny
threads = 1
timeout = 120
[j]
technique = full, inference
batch = 1, 2
seq_len = 16
EOF2
"$PEAKFIT" slurm "$TMP/s.sweep" -o "$TMP/out" --partition debug --time 10:00 --submit >"$TMP/submitted" 2>"$TMP/err" ||
    fail "slurm --submit: $(cat "$TMP/err" "$TMP/submitted")"
job=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$TMP/submitted")
[ -n "$job" ] || fail "no job number in: $(cat "$TMP/submitted")"
expect_eq "the script's array" "$(grep '^#SBATCH --array' "$TMP/out/peakfit.sbatch")" "#SBATCH --array=0-3"
for _ in $(seq 900); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.2
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "job $job still queued or running: $(squeue -j "$job")"
csv=$TMP/out/peaks.csv
[ -f "$csv" ] || fail "no peaks.csv; task logs: $(cat "$TMP"/out/slurm-*.out 2>/dev/null | tail -5)"
ids=$("$PEAKFIT" grid "$TMP/s.sweep" 2>/dev/null | sort)
expect_eq "points in peaks.csv" "$("$CSVQ" "$csv" point_id | sort)" "$ids"
expect_eq "statuses" "$("$CSVQ" "$csv" status | sort -u)" ok
# Each task measured its own point and no other.
for log in "$TMP"/out/slurm-"$job"_*.out; do
    expect_eq "points measured in $(basename "$log")" "$(grep -c ': ok peak' "$log")" 1
done
expect_eq "task logs" "$(ls "$TMP"/out/slurm-"$job"_*.out | wc -l)" 4

# A requeued or rerun task finds its point recorded and writes nothing.
SLURM_ARRAY_TASK_ID=2 bash "$TMP/out/peakfit.sbatch" 2>"$TMP/again" || fail "task 2 again: $(cat "$TMP/again")"
expect_eq "rows after task 2 ran again" "$("$CSVQ" "$csv" point_id | wc -l)" 4
# A point beyond the sweep is named.
rc=0
"$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" --point 4 2>"$TMP/err" || rc=$?
expect_eq "--point 4 status" "$rc" 2
expect_eq "--point 4 message" "$(cat "$TMP/err")" \
    "peakfit: --point 4: the sweep has 4 points, 4 tasks of 1 (--point 0 to 3)"
