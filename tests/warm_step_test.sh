# One warm step (warm = 1: AdamW's state made before the first step)
# against the two-step protocol (warm = 0, steps = 2), each point in its own
# worker: the allocator-level peak (tensor_peak_mib) is the same to the
# printed digit, and one plain step under-reports. The RSS peak is not
# the same: glibc's heap keeps what each step freed (its mmap threshold rises
# as large blocks are freed, so later steps' tensors come from the heap), so
# RSS grows with every step whatever the protocol (tiny full b4 s128: 183 MiB
# one warm step, 210 two warm, 216 two plain, 224 five warm, 232 five plain).
# Checked: one warm step's RSS is at most two plain steps' and within 20 %. tests/warm_step_test.c checks the bytes
# for every technique and both attention implementations.
source "$(dirname "$0")/lib.sh"
write_sweep "$TMP/w.sweep" <<'EOF2'
[global]
model = tiny
threads = 1
technique = full, lora, amp-bf16
attention = sdpa, eager
batch = 4
seq_len = 128
[warm]
warm = 1
steps = 1
[plain]
warm = 0
steps = 2
[one]
warm = 0
steps = 1
technique = full
attention = sdpa
EOF2
"$PEAKFIT" run "$TMP/w.sweep" -o "$TMP/out" 2>"$TMP/err" || fail "run: $(cat "$TMP/err")"
csv=$TMP/out/peaks.csv
expect_eq "statuses" "$("$CSVQ" "$csv" status | sort -u)" ok
expect_eq "warm column" "$("$CSVQ" "$csv" job warm steps | sort -u | tr "\t\n" "  ")" "one 0 1 plain 0 2 warm 1 1 "
# KEY: technique/attention; VALUE: tensor peak and RSS peak above baseline
peaks() { "$CSVQ" "$csv" job technique attention tensor_peak_mib peak_above_baseline_mib | awk -F'\t' -v j="$1" '$1 == j { print $2 "/" $3, $4, $5 }' | sort; }
warm=$(peaks warm)
plain=$(peaks plain)
expect_eq "points" "$(wc -l <<<"$warm")" 6
expect_eq "tensor peaks, one warm step vs two plain steps" "$(cut -d' ' -f1,2 <<<"$warm")" "$(cut -d' ' -f1,2 <<<"$plain")"
paste -d' ' <(echo "$warm") <(echo "$plain") | while read -r key _ rss_warm _ _ rss_plain; do
    awk -v a="$rss_warm" -v b="$rss_plain" 'BEGIN { exit !(a <= 1.02 * b && a >= 0.8 * b) }' ||
        fail "$key: RSS peak above baseline $rss_warm MiB with one warm step, $rss_plain MiB with two plain steps"
done
one=$(peaks one | cut -d' ' -f2)
two=$(grep '^full/sdpa ' <<<"$plain" | cut -d' ' -f2)
expect_gt "two plain steps' tensor peak over one plain step's" "$two" "$one"
