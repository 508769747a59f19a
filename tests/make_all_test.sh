# `make` (its default target, all) links exactly the two binaries,
# bin/peakfit and bin/peakfit-worker: no test program, no test worker
# (those are `make test-programs`'). Read from make's dry run of every
# command (-n -B), so nothing is built.
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS/.." && pwd)
unset MAKEFLAGS MFLAGS MAKELEVEL # a make test run's own flags must not leak here
linked=$(make -s --no-print-directory -C "$ROOT" -n -B 2>&1 | grep -E '^(cc|g\+\+) ' | grep -v ' -c ' |
    awk '{ for (i = 1; i <= NF; i++) if ($i == "-o") print $(i + 1) }' | sort | tr '\n' ' ')
expect_eq "what make links" "$linked" "bin/peakfit bin/peakfit-worker "
