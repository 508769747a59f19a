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
     "points-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title "inference", \
     "fit-1.dat" using 1:3:4 with filledcurves lc 2 notitle, "fit-1.dat" using 1:2 with lines lc 2 lw 2 notitle, \
     "points-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title "full", \
     "points-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title "full+ckpt", \
     "points-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title "bf16", \
     "points-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title "lora+ckpt"
set output "residuals.png"
reset
set grid
set title "Residuals of the chosen fit"
set xlabel "tokens per micro-batch, b x s"
set ylabel "observed - predicted (MiB)"
set key left top
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title "inference", \
     "residuals-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title "full"
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
set bmargin 5
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
plot "throughput-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title "inference", \
     "throughput-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title "full", \
     "throughput-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title "full+ckpt", \
     "throughput-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title "bf16", \
     "throughput-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title "lora+ckpt"
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
     "points-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title "inference", \
     "fit-1.dat" using 1:3:4 with filledcurves lc 2 notitle, "fit-1.dat" using 1:2 with lines lc 2 lw 2 notitle, \
     "points-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title "full", \
     "points-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title "full+ckpt", \
     "points-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title "bf16", \
     "points-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title "lora+ckpt"
set output "residuals.svg"
reset
set grid
set title "Residuals of the chosen fit"
set xlabel "tokens per micro-batch, b x s"
set ylabel "observed - predicted (MiB)"
set key left top
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title "inference", \
     "residuals-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title "full"
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
set bmargin 5
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
plot "throughput-0.dat" using 1:2 with points pt 7 ps 1.3 lc 1 title "inference", \
     "throughput-1.dat" using 1:2 with points pt 7 ps 1.3 lc 2 title "full", \
     "throughput-2.dat" using 1:2 with points pt 7 ps 1.3 lc 3 title "full+ckpt", \
     "throughput-3.dat" using 1:2 with points pt 7 ps 1.3 lc 4 title "bf16", \
     "throughput-4.dat" using 1:2 with points pt 7 ps 1.3 lc 5 title "lora+ckpt"
unset output
