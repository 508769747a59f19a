#!/usr/bin/env bash
# The process layer's one platform seam (proc/platform.h): no file outside
# Linux's half (proc/platform_linux.c) includes a Linux-only header
# (sys/prctl.h, linux/*, sched.h for its cpu_set_t), names cpu_set_t or
# reads /proc; none outside macOS's half includes libproc.h, mach/ or
# sys/event.h; and only proc/'s own files include proc/platform.h. The
# scan must see the halves themselves do it, or it could not fail.
source "$(dirname "$0")/lib.sh"
cd "$TESTS/.."
# peakfit's own source files, every layer's (shim's .cpp too).
sources=$(tests/tools/layout-graph.sh sources)

linux_only='#include <(sys/prctl\.h|sched\.h|linux/)|cpu_set_t|CPU_SET|"/proc[/"]'
darwin_only='#include <(libproc\.h|mach/|mach-o/|sys/event\.h)'
# shellcheck disable=SC2086 # the file list, one word each
found=$(grep -nE "$linux_only" $sources | grep -v '^proc/platform_linux\.c:')
[ -z "$found" ] || fail "Linux-only headers, types or /proc outside proc/platform_linux.c:
$found"
# shellcheck disable=SC2086
found=$(grep -nE "$darwin_only" $sources | grep -v '^proc/platform_darwin\.c:')
[ -z "$found" ] || fail "macOS-only headers outside proc/platform_darwin.c:
$found"
# shellcheck disable=SC2086
found=$(grep -n '#include "proc/platform.h"' $sources | grep -v '^proc/')
[ -z "$found" ] || fail "proc/platform.h included outside proc/:
$found"

grep -qE "$linux_only" proc/platform_linux.c || fail "the Linux pattern finds nothing in proc/platform_linux.c"
grep -qE "$darwin_only" proc/platform_darwin.c || fail "the macOS pattern finds nothing in proc/platform_darwin.c"
for fn in $(sed -n 's/^[a-z][a-z ]*[ *]\(platform_[a-z_]*\)(.*/\1/p' proc/platform.h); do
    for half in proc/platform_linux.c proc/platform_darwin.c; do
        grep -q "^[a-z].*[ *]$fn(" "$half" || fail "$half does not define $fn (proc/platform.h declares it)"
    done
done
echo "platform seam: both halves define every function; nothing else reaches the system"
