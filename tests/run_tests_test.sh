# tests/run-tests.sh, on tests made here: a line per test, a skip's reason,
# a failure's output, the summary last and its exit status; T= runs the
# tests whose name matches; J=2 runs two at once (two tests that each wait
# for the other to start pass only side by side).
source "$(dirname "$0")/lib.sh"
runner=$TESTS/run-tests.sh
d=$TMP/t
mkdir -p "$d"
printf 'exit 0\n' >"$d/good_test.sh"
printf 'echo "SKIP: no GPU here" >&2; exit 77\n' >"$d/gpu_only_test.sh"
printf 'echo "expected 3, got 4"; exit 1\n' >"$d/broken_test.sh"
# meet_a_test.sh and meet_b_test.sh: each marks its start and waits (5 s at
# most) for the other's.
for me in a b; do
    other=$([ $me = a ] && echo b || echo a)
    printf 'touch %q/%s.started\nfor i in $(seq 50); do [ -e %q/%s.started ] && exit 0; sleep 0.1; done\necho "%s never started"; exit 1\n' \
        "$TMP" $me "$TMP" "$other" "$other" >"$d/meet_${me}_test.sh"
done

out=$(J=1 T= bash "$runner" "$d/good_test.sh" "$d/gpu_only_test.sh" "$d/broken_test.sh"); rc=$?
expect_eq "exit status with a failure" "$rc" 1
grep -qx 'PASS good_test.sh ([0-9]*s)' <<<"$out" || fail "no PASS line for good_test.sh in: $out"
grep -qx 'SKIP gpu_only_test.sh: no GPU here' <<<"$out" || fail "no SKIP line with its reason in: $out"
grep -qx '    expected 3, got 4' <<<"$out" || fail "the failure's output is not shown in: $out"
expect_eq "last line" "$(tail -n 1 <<<"$out")" "1 passed, 1 failed, 1 skipped"

out=$(J=1 T='^(good|gpu_only)_test$' bash "$runner" "$d"/*_test.sh); rc=$?
expect_eq "T= exit status" "$rc" 0
expect_eq "T= last line" "$(tail -n 1 <<<"$out")" "1 passed, 0 failed, 1 skipped"

out=$(J=1 T=nothing bash "$runner" "$d"/*_test.sh 2>&1); rc=$?
expect_eq "T= matching nothing: exit status" "$rc" 2
expect_eq "T= matching nothing: message" "$out" "run-tests.sh: no test matches T=nothing"

out=$(J=2 T=meet bash "$runner" "$d"/*_test.sh); rc=$?
expect_eq "J=2: last line" "$(tail -n 1 <<<"$out")" "2 passed, 0 failed, 0 skipped"
rm -f "$TMP"/*.started
out=$(J= MAKEFLAGS=' -j2 --jobserver-auth=3,4' T=meet bash "$runner" "$d"/*_test.sh); rc=$?
expect_eq "make -j2: last line" "$(tail -n 1 <<<"$out")" "2 passed, 0 failed, 0 skipped"
rm -f "$TMP"/*.started
out=$(J=1 T=meet bash "$runner" "$d"/*_test.sh); rc=$?
expect_eq "J=1 runs one at a time: last line" "$(tail -n 1 <<<"$out")" "1 passed, 1 failed, 0 skipped"

out=$(J=0 T= bash "$runner" "$d/good_test.sh" 2>&1); rc=$?
expect_eq "J=0: exit status" "$rc" 2
expect_eq "J=0: message" "$out" "run-tests.sh: J=0: expected a number of tests at once, 1 or more"
echo "run_tests_test: summary, skip reasons, T= and J= as documented"
