# examples/peakfit_report.py against toys whose peaks are known exactly
# (examples/test_peakfit_report.py): the live tensor peak, phases, the
# report lines and their keys (those protocol/point_result.c reads).
source "$(dirname "$0")/lib.sh"
source "$TESTS/torch_python.sh"
"$PYTHON" "$TESTS/../examples/test_peakfit_report.py" 2>&1 | grep -v '^USDT' || fail "examples/test_peakfit_report.py failed (above)"
