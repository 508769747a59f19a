#!/usr/bin/env bash
# bench/demo.sh: what `make demo` writes, from one fresh run, into OUT
# (default bench/results/tiny-cpu-demo): `make demo DEMO_OUT=OUT`, with
# what it prints in OUT/demo-output.txt and headless Chromium's rendering of
# OUT/report.html in OUT/report-screenshot.png (tests/tools/screenshot.sh).
# A directory already there is set aside while the demo runs (a resumed
# sweep would not be one run) and put back if it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m --relative-base=. "${OUT:-bench/results/tiny-cpu-demo}")
old=$out.old
log=$(mktemp)
restore() { rm -f "$log"; if [ -d "$old" ]; then rm -rf "$out"; mv "$old" "$out"; fi; }
trap restore EXIT
rm -rf "$old"
[ ! -e "$out" ] || mv "$out" "$old"
make --no-print-directory demo DEMO_OUT="$out" 2>&1 | tee "$log"
cp "$log" "$out/demo-output.txt"
tests/tools/screenshot.sh "$out/report.html" "$out/report-screenshot.png"
rm -rf "$old"
