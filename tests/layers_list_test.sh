# `layers` is a list axis like batch and seq_len: `layers = 1, 2` makes
# each point at both depths (it was refused: "layers must be a whole
# number"), each point's worker builds its own depth, and peaks.csv and
# the group key keep them apart.
source "$(dirname "$0")/lib.sh"
printf '[j]\nmodel = tiny\ntechnique = full\nlayers = 1, 2\nbatch = 1\nseq_len = 16\nthreads = 1\n' >"$TMP/l.sweep"
expect_eq "grid: one point per depth" "$("$PEAKFIT" grid "$TMP/l.sweep" 2>/dev/null | tr '\n' ' ')" \
    "j/tiny/cpu/full/layers1/sdpa/b1/s16/st2/r0 j/tiny/cpu/full/layers2/sdpa/b1/s16/st2/r0 "
"$PEAKFIT" run "$TMP/l.sweep" -o "$TMP/out" >/dev/null 2>"$TMP/err" || fail "run: exit status $?: $(tail -3 "$TMP/err")"
expect_eq "peaks.csv: each depth, measured" "$("$CSVQ" "$TMP/out/peaks.csv" layers status | tr '\t\n' ' ;')" "1 ok;2 ok;"
# Each point's worker built its own depth: the deeper slice holds one more layer's parameters.
p1=$("$CSVQ" "$TMP/out/peaks.csv" params | head -1) p2=$("$CSVQ" "$TMP/out/peaks.csv" params | tail -1)
expect_eq "a layer's parameters" "$((p2 - p1))" "$(($("$PEAKFIT" params tiny --layers 2 | awk '$1 == "params" { print $2 }') - \
    $("$PEAKFIT" params tiny --layers 1 | awk '$1 == "params" { print $2 }')))"
[ "$p2" -gt "$p1" ] || fail "layers 2 built no more parameters than layers 1: $p1, $p2"
# A bad value in the list names itself.
printf '[j]\nmodel = tiny\ntechnique = full\nlayers = 1, x\nbatch = 1\nseq_len = 16\n' >"$TMP/bad.sweep"
err=$("$PEAKFIT" grid "$TMP/bad.sweep" 2>&1 >/dev/null); rc=$?
expect_eq "layers = 1, x: exit status" "$rc" 2
grep -q "^peakfit: $TMP/bad.sweep:4: layers" <<<"$err" || fail "layers = 1, x: $err"
true
