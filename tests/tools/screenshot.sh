#!/usr/bin/env bash
# screenshot.sh PAGE.html SHOT.png: headless Chromium's rendering of PAGE,
# 1280 x 1000 (tests/report_html_test.sh; bench/demo.sh's report-screenshot.png).
# Chromium comes with make deps; exit 1 with its last lines when it fails.
set -euo pipefail
browser=$(command -v chromium || command -v chromium-browser) || { echo "screenshot.sh: no chromium (make deps installs it)" >&2; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
    --screenshot="$2" "file://$(realpath "$1")" >/dev/null 2>"$err" ||
    { echo "screenshot.sh: chromium: $(tail -n 3 "$err")" >&2; exit 1; }
