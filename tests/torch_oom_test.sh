# An allocation that libtorch's CPU allocator cannot satisfy (a 4 GiB
# logits tensor under a 4 GB address-space limit) is recognised by the
# exception's type and origin: the worker reports status oom (exit 3) and
# one error line, without C++ stack frames.
source "$(dirname "$0")/lib.sh"
set -o pipefail
[ "$(address_space_limit 4000000)" != unlimited ] ||
    skip "the sanitizer build cannot run under an address-space limit (ASan's shadow reserves terabytes); make test runs this"
out=$(ulimit -v 4000000; "$PEAKFIT" worker --model tiny --technique full --batch 64 --seq-len 2048 \
      --threads 1 --steps 1 2>&1); rc=$?
expect_eq "exit status of a worker out of memory" "$rc" 3
err=$(worker_value error "$out")
case $err in
"[enforce fail at alloc_cpu.cpp:"*"DefaultCPUAllocator: can't allocate memory: you tried to allocate "*" bytes."*) ;;
*) fail "error line: $err" ;;
esac
case $err in *"frame #"* | *"Exception raised from"*) fail "stack frames in the error: $err" ;; esac
[ "$(grep -c '^error=' <<<"$out")" -eq 1 ] || fail "not exactly one error line"
