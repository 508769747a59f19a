# Two binaries: peakfit loads no libtorch (its commands start in
# milliseconds), peakfit-worker does. run finds the worker beside peakfit
# (or at PEAKFIT_WORKER), refuses before creating anything when it cannot
# run it, and `peakfit worker` and --version go through it.
source "$(dirname "$0")/lib.sh"
front=$(ldd "$PEAKFIT") && worker=$(ldd "$PEAKFIT_WORKER") || fail "ldd failed"
grep -q 'libtorch\|libc10' <<<"$front" && fail "peakfit links libtorch: $(grep 'torch\|c10' <<<"$front")"
grep -q 'libtorch_cpu' <<<"$worker" || fail "peakfit-worker does not link libtorch_cpu: $worker"

# The facts peakfit's --version and device check ask for.
facts=$("$PEAKFIT_WORKER" --facts cuda) || fail "peakfit-worker --facts failed"
version=$(sed -n 's/^libtorch //p' <<<"$facts")
[ -n "$version" ] || fail "no libtorch line in: $facts"
grep -qx "available cuda [01]" <<<"$facts" || fail "no cuda availability in: $facts"
expect_eq "--version's libtorch line" "$("$PEAKFIT" --version | sed -n 2p)" "libtorch $version"

# By hand, `peakfit worker` is peakfit-worker.
out=$("$PEAKFIT" worker --model tiny --technique load --threads 1) || fail "peakfit worker failed"
expect_eq "peakfit worker's torch_version" "$(worker_value torch_version "$out")" "$version"

# A worker that is not there: exit 1, said, nothing created.
load_sweep "$TMP/s.sweep"
rc=0
PEAKFIT_WORKER=$TMP/none/peakfit-worker "$PEAKFIT" run "$TMP/s.sweep" -o "$TMP/out" 2>"$TMP/err" || rc=$?
expect_eq "no worker: exit status" "$rc" 1
expect_eq "no worker: message" "$(cat "$TMP/err")" \
    "peakfit: cannot run workers: $TMP/none/peakfit-worker: No such file or directory (make builds it beside peakfit; PEAKFIT_WORKER names another)"
[ -e "$TMP/out" ] && fail "no worker: $TMP/out was created"

# Without PEAKFIT_WORKER, the worker beside peakfit (a copy of both elsewhere).
mkdir "$TMP/bin"
cp "$PEAKFIT" "$PEAKFIT_WORKER" "$TMP/bin/"
env -u PEAKFIT_WORKER "$TMP/bin/peakfit" run "$TMP/s.sweep" -o "$TMP/beside" 2>"$TMP/err" ||
    fail "run with the worker beside peakfit: $(cat "$TMP/err")"
expect_eq "the point measured by the worker beside it" "$("$CSVQ" "$TMP/beside/peaks.csv" status torch_version)" \
    "ok	$version"
true
