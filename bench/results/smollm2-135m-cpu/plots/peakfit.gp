# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.

set terminal pngcairo noenhanced size 1000,640 font "sans,11"
set output "peak_vs_tokens.png"
reset
set grid
set title "Peak RSS above baseline vs tokens per micro-batch (fit and 95% band)"
set xlabel "tokens per micro-batch, b x s"
set ylabel "peak above baseline (MiB)"
set key left top
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc 1 notitle, "fit-0.dat" using 1:2 with lines lc 1 lw 2 notitle, \
     "points-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title 'inference sdpa', \
     "fit-1.dat" using 1:3:4 with filledcurves lc 2 notitle, "fit-1.dat" using 1:2 with lines lc 2 lw 2 notitle, \
     "points-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title 'inference eager', \
     "fit-2.dat" using 1:3:4 with filledcurves lc 3 notitle, "fit-2.dat" using 1:2 with lines lc 3 lw 2 notitle, \
     "points-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title 'full sdpa', \
     "fit-3.dat" using 1:3:4 with filledcurves lc 4 notitle, "fit-3.dat" using 1:2 with lines lc 4 lw 2 notitle, \
     "points-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title 'full eager', \
     "points-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title 'full+ckpt sdpa', \
     "points-5.dat" using 1:2 with points pt 7 ps 1.3 lc 6 title 'full+ckpt eager', \
     "points-6.dat" using 1:2 with points pt 7 ps 1.3 lc 7 title 'bf16 sdpa', \
     "points-7.dat" using 1:2 with points pt 7 ps 1.3 lc 8 title 'bf16 eager', \
     "points-8.dat" using 1:2 with points pt 7 ps 1.3 lc 9 title 'amp-bf16 sdpa', \
     "points-9.dat" using 1:2 with points pt 7 ps 1.3 lc 10 title 'amp-bf16 eager', \
     "points-10.dat" using 1:2 with points pt 7 ps 1.3 lc 11 title 'lora+ckpt sdpa', \
     "points-11.dat" using 1:2 with points pt 7 ps 1.3 lc 12 title 'lora+ckpt eager'
set output "residuals.png"
reset
set grid
set title "Residuals of the chosen fit"
set xlabel "tokens per micro-batch, b x s"
set ylabel "observed - predicted (MiB)"
set key left top
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title 'inference sdpa', \
     "residuals-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title 'inference eager', \
     "residuals-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title 'full sdpa', \
     "residuals-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title 'full eager'
set output "breakdown.png"
reset
set grid
set title "Memory breakdown at the largest measured batch (F split by measured fixed costs)"
set xlabel ""
set ylabel "MiB above baseline"
set key outside right top
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set bmargin 6
plot "breakdown.dat" using 2:xtic(1) title "weights", "" using 3 title "gradients", "" using 4 title "optimizer state", "" using 5 title "activations (b x A_sample)", "" using 6 title "other overhead"
unset style
set style data points
set key inside left top
set output "throughput.png"
reset
set grid
set title "Training throughput (mean of steps after the first)"
set xlabel "tokens per micro-batch, b x s"
set ylabel "tokens per second"
set key left top
plot "throughput-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title 'inference sdpa', \
     "throughput-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title 'inference eager', \
     "throughput-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title 'full sdpa', \
     "throughput-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title 'full eager', \
     "throughput-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title 'full+ckpt sdpa', \
     "throughput-5.dat" using 1:2 with points pt 7 ps 1.3 lc 6 title 'full+ckpt eager', \
     "throughput-6.dat" using 1:2 with points pt 7 ps 1.3 lc 7 title 'bf16 sdpa', \
     "throughput-7.dat" using 1:2 with points pt 7 ps 1.3 lc 8 title 'bf16 eager', \
     "throughput-8.dat" using 1:2 with points pt 7 ps 1.3 lc 9 title 'amp-bf16 sdpa', \
     "throughput-9.dat" using 1:2 with points pt 7 ps 1.3 lc 10 title 'amp-bf16 eager', \
     "throughput-10.dat" using 1:2 with points pt 7 ps 1.3 lc 11 title 'lora+ckpt sdpa', \
     "throughput-11.dat" using 1:2 with points pt 7 ps 1.3 lc 12 title 'lora+ckpt eager'
set output "peak_by_phase.png"
reset
set grid
set title "Peak of each phase of a step (live tensors above baseline) vs tokens"
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key left top
plot "phases-2.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 3 title 'full sdpa: forward', \
     "phases-2.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 3 title 'full sdpa: backward', \
     "phases-2.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 3 title 'full sdpa: optimizer step', \
     "phases-3.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 4 title 'full eager: forward', \
     "phases-3.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 4 title 'full eager: backward', \
     "phases-3.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 4 title 'full eager: optimizer step', \
     "phases-4.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 5 title 'full+ckpt sdpa: forward', \
     "phases-4.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 5 title 'full+ckpt sdpa: backward', \
     "phases-4.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 5 title 'full+ckpt sdpa: optimizer step', \
     "phases-5.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 6 title 'full+ckpt eager: forward', \
     "phases-5.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 6 title 'full+ckpt eager: backward', \
     "phases-5.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 6 title 'full+ckpt eager: optimizer step', \
     "phases-6.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 7 title 'bf16 sdpa: forward', \
     "phases-6.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 7 title 'bf16 sdpa: backward', \
     "phases-6.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 7 title 'bf16 sdpa: optimizer step', \
     "phases-7.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 8 title 'bf16 eager: forward', \
     "phases-7.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 8 title 'bf16 eager: backward', \
     "phases-7.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 8 title 'bf16 eager: optimizer step', \
     "phases-8.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 9 title 'amp-bf16 sdpa: forward', \
     "phases-8.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 9 title 'amp-bf16 sdpa: backward', \
     "phases-8.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 9 title 'amp-bf16 sdpa: optimizer step', \
     "phases-9.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 10 title 'amp-bf16 eager: forward', \
     "phases-9.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 10 title 'amp-bf16 eager: backward', \
     "phases-9.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 10 title 'amp-bf16 eager: optimizer step', \
     "phases-10.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 11 title 'lora+ckpt sdpa: forward', \
     "phases-10.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 11 title 'lora+ckpt sdpa: backward', \
     "phases-10.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 11 title 'lora+ckpt sdpa: optimizer step', \
     "phases-11.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 12 title 'lora+ckpt eager: forward', \
     "phases-11.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 12 title 'lora+ckpt eager: backward', \
     "phases-11.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 12 title 'lora+ckpt eager: optimizer step'
unset output

set terminal svg noenhanced size 1000,640 font "sans,11" dynamic
set output "peak_vs_tokens.svg"
reset
set grid
set title "Peak RSS above baseline vs tokens per micro-batch (fit and 95% band)"
set xlabel "tokens per micro-batch, b x s"
set ylabel "peak above baseline (MiB)"
set key left top
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc 1 notitle, "fit-0.dat" using 1:2 with lines lc 1 lw 2 notitle, \
     "points-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title 'inference sdpa', \
     "fit-1.dat" using 1:3:4 with filledcurves lc 2 notitle, "fit-1.dat" using 1:2 with lines lc 2 lw 2 notitle, \
     "points-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title 'inference eager', \
     "fit-2.dat" using 1:3:4 with filledcurves lc 3 notitle, "fit-2.dat" using 1:2 with lines lc 3 lw 2 notitle, \
     "points-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title 'full sdpa', \
     "fit-3.dat" using 1:3:4 with filledcurves lc 4 notitle, "fit-3.dat" using 1:2 with lines lc 4 lw 2 notitle, \
     "points-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title 'full eager', \
     "points-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title 'full+ckpt sdpa', \
     "points-5.dat" using 1:2 with points pt 7 ps 1.3 lc 6 title 'full+ckpt eager', \
     "points-6.dat" using 1:2 with points pt 7 ps 1.3 lc 7 title 'bf16 sdpa', \
     "points-7.dat" using 1:2 with points pt 7 ps 1.3 lc 8 title 'bf16 eager', \
     "points-8.dat" using 1:2 with points pt 7 ps 1.3 lc 9 title 'amp-bf16 sdpa', \
     "points-9.dat" using 1:2 with points pt 7 ps 1.3 lc 10 title 'amp-bf16 eager', \
     "points-10.dat" using 1:2 with points pt 7 ps 1.3 lc 11 title 'lora+ckpt sdpa', \
     "points-11.dat" using 1:2 with points pt 7 ps 1.3 lc 12 title 'lora+ckpt eager'
set output "residuals.svg"
reset
set grid
set title "Residuals of the chosen fit"
set xlabel "tokens per micro-batch, b x s"
set ylabel "observed - predicted (MiB)"
set key left top
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title 'inference sdpa', \
     "residuals-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title 'inference eager', \
     "residuals-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title 'full sdpa', \
     "residuals-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title 'full eager'
set output "breakdown.svg"
reset
set grid
set title "Memory breakdown at the largest measured batch (F split by measured fixed costs)"
set xlabel ""
set ylabel "MiB above baseline"
set key outside right top
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set bmargin 6
plot "breakdown.dat" using 2:xtic(1) title "weights", "" using 3 title "gradients", "" using 4 title "optimizer state", "" using 5 title "activations (b x A_sample)", "" using 6 title "other overhead"
unset style
set style data points
set key inside left top
set output "throughput.svg"
reset
set grid
set title "Training throughput (mean of steps after the first)"
set xlabel "tokens per micro-batch, b x s"
set ylabel "tokens per second"
set key left top
plot "throughput-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title 'inference sdpa', \
     "throughput-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title 'inference eager', \
     "throughput-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title 'full sdpa', \
     "throughput-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title 'full eager', \
     "throughput-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title 'full+ckpt sdpa', \
     "throughput-5.dat" using 1:2 with points pt 7 ps 1.3 lc 6 title 'full+ckpt eager', \
     "throughput-6.dat" using 1:2 with points pt 7 ps 1.3 lc 7 title 'bf16 sdpa', \
     "throughput-7.dat" using 1:2 with points pt 7 ps 1.3 lc 8 title 'bf16 eager', \
     "throughput-8.dat" using 1:2 with points pt 7 ps 1.3 lc 9 title 'amp-bf16 sdpa', \
     "throughput-9.dat" using 1:2 with points pt 7 ps 1.3 lc 10 title 'amp-bf16 eager', \
     "throughput-10.dat" using 1:2 with points pt 7 ps 1.3 lc 11 title 'lora+ckpt sdpa', \
     "throughput-11.dat" using 1:2 with points pt 7 ps 1.3 lc 12 title 'lora+ckpt eager'
set output "peak_by_phase.svg"
reset
set grid
set title "Peak of each phase of a step (live tensors above baseline) vs tokens"
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key left top
plot "phases-2.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 3 title 'full sdpa: forward', \
     "phases-2.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 3 title 'full sdpa: backward', \
     "phases-2.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 3 title 'full sdpa: optimizer step', \
     "phases-3.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 4 title 'full eager: forward', \
     "phases-3.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 4 title 'full eager: backward', \
     "phases-3.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 4 title 'full eager: optimizer step', \
     "phases-4.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 5 title 'full+ckpt sdpa: forward', \
     "phases-4.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 5 title 'full+ckpt sdpa: backward', \
     "phases-4.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 5 title 'full+ckpt sdpa: optimizer step', \
     "phases-5.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 6 title 'full+ckpt eager: forward', \
     "phases-5.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 6 title 'full+ckpt eager: backward', \
     "phases-5.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 6 title 'full+ckpt eager: optimizer step', \
     "phases-6.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 7 title 'bf16 sdpa: forward', \
     "phases-6.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 7 title 'bf16 sdpa: backward', \
     "phases-6.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 7 title 'bf16 sdpa: optimizer step', \
     "phases-7.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 8 title 'bf16 eager: forward', \
     "phases-7.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 8 title 'bf16 eager: backward', \
     "phases-7.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 8 title 'bf16 eager: optimizer step', \
     "phases-8.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 9 title 'amp-bf16 sdpa: forward', \
     "phases-8.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 9 title 'amp-bf16 sdpa: backward', \
     "phases-8.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 9 title 'amp-bf16 sdpa: optimizer step', \
     "phases-9.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 10 title 'amp-bf16 eager: forward', \
     "phases-9.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 10 title 'amp-bf16 eager: backward', \
     "phases-9.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 10 title 'amp-bf16 eager: optimizer step', \
     "phases-10.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 11 title 'lora+ckpt sdpa: forward', \
     "phases-10.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 11 title 'lora+ckpt sdpa: backward', \
     "phases-10.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 11 title 'lora+ckpt sdpa: optimizer step', \
     "phases-11.dat" using 1:2 with linespoints pt 5 ps 1.3 lc 12 title 'lora+ckpt eager: forward', \
     "phases-11.dat" using 1:3 with linespoints pt 7 ps 1.3 lc 12 title 'lora+ckpt eager: backward', \
     "phases-11.dat" using 1:4 with linespoints pt 9 ps 1.3 lc 12 title 'lora+ckpt eager: optimizer step'
unset output
