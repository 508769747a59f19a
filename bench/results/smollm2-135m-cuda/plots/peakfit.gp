# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.

set terminal pngcairo noenhanced size 1100,606 font "sans,11"
set output "peak_vs_tokens.png"
reset
set grid
set title 'smollm2-135m: peak RSS above baseline vs tokens, fit and its 95% band'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "peak above baseline (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' dt 1 notitle, "fit-0.dat" using 1:2 with lines lc rgb '#E69F00' dt 1 lw 2 notitle, \
     "points-0.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full', \
     "held-0.dat" using 1:2 with points lc rgb '#E69F00' pt 6 ps 2 lw 2 title 'full held out (not fitted)', \
     "fit-1.dat" using 1:3:4 with filledcurves lc rgb '#009E73' dt 1 notitle, "fit-1.dat" using 1:2 with lines lc rgb '#009E73' dt 1 lw 2 notitle, \
     "points-1.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt', \
     "fit-2.dat" using 1:3:4 with filledcurves lc rgb '#CC79A7' dt 1 notitle, "fit-2.dat" using 1:2 with lines lc rgb '#CC79A7' dt 1 lw 2 notitle, \
     "points-2.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16', \
     "fit-3.dat" using 1:3:4 with filledcurves lc rgb '#D55E00' dt 1 notitle, "fit-3.dat" using 1:2 with lines lc rgb '#D55E00' dt 1 lw 2 notitle, \
     "points-3.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt', \
     "fit-4.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' dt 1 notitle, "fit-4.dat" using 1:2 with lines lc rgb '#0072B2' dt 1 lw 2 notitle, \
     "points-4.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference'

set terminal pngcairo noenhanced size 1100,606 font "sans,11"
set output "residuals.png"
reset
set grid
set title 'smollm2-135m: residuals of the chosen fit'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "observed - predicted (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full', \
     "residuals-1.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt', \
     "residuals-2.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16', \
     "residuals-3.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt', \
     "residuals-4.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference'

set terminal pngcairo noenhanced size 1100,640 font "sans,11"
set output "breakdown.png"
reset
set grid
set title 'smollm2-135m: memory at the largest measured batch (F split by the measured fixed costs)'
set xlabel ""
set ylabel "MiB above baseline"
set key top right horizontal outside Left reverse
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border -1
set boxwidth 0.6
set bmargin 6
set xtics scale 0
plot "breakdown.dat" using 2:xtic(1) lc rgb '#303030' title "weights", "" using 3 lc rgb '#606060' title "gradients", "" using 4 lc rgb '#909090' title "optimizer state", "" using 5 lc rgb '#C0C0C0' title "activations (b x A_sample)", "" using 6 lc rgb '#F0F0F0' title "other overhead"
unset style
set style data points
set key inside left top

set terminal pngcairo noenhanced size 1100,606 font "sans,11"
set output "throughput.png"
reset
set grid
set title 'smollm2-135m: throughput (mean of steps 2 to 2 of each point)'
set yrange [0:125000]
set ytics 0, 25000, 125000
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "tokens per second"
set key below horizontal Left reverse maxcols 3 width 2
plot "throughput-0.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full', \
     "throughput-1.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt', \
     "throughput-2.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16', \
     "throughput-3.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt', \
     "throughput-4.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference'
set autoscale y
set ytics autofreq
unset output

set terminal svg noenhanced size 1100,606 font "sans,11" dynamic
set output "peak_vs_tokens.svg"
reset
set grid
set title 'smollm2-135m: peak RSS above baseline vs tokens, fit and its 95% band'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "peak above baseline (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' dt 1 notitle, "fit-0.dat" using 1:2 with lines lc rgb '#E69F00' dt 1 lw 2 notitle, \
     "points-0.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full', \
     "held-0.dat" using 1:2 with points lc rgb '#E69F00' pt 6 ps 2 lw 2 title 'full held out (not fitted)', \
     "fit-1.dat" using 1:3:4 with filledcurves lc rgb '#009E73' dt 1 notitle, "fit-1.dat" using 1:2 with lines lc rgb '#009E73' dt 1 lw 2 notitle, \
     "points-1.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt', \
     "fit-2.dat" using 1:3:4 with filledcurves lc rgb '#CC79A7' dt 1 notitle, "fit-2.dat" using 1:2 with lines lc rgb '#CC79A7' dt 1 lw 2 notitle, \
     "points-2.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16', \
     "fit-3.dat" using 1:3:4 with filledcurves lc rgb '#D55E00' dt 1 notitle, "fit-3.dat" using 1:2 with lines lc rgb '#D55E00' dt 1 lw 2 notitle, \
     "points-3.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt', \
     "fit-4.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' dt 1 notitle, "fit-4.dat" using 1:2 with lines lc rgb '#0072B2' dt 1 lw 2 notitle, \
     "points-4.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference'

set terminal svg noenhanced size 1100,606 font "sans,11" dynamic
set output "residuals.svg"
reset
set grid
set title 'smollm2-135m: residuals of the chosen fit'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "observed - predicted (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full', \
     "residuals-1.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt', \
     "residuals-2.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16', \
     "residuals-3.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt', \
     "residuals-4.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference'

set terminal svg noenhanced size 1100,640 font "sans,11" dynamic
set output "breakdown.svg"
reset
set grid
set title 'smollm2-135m: memory at the largest measured batch (F split by the measured fixed costs)'
set xlabel ""
set ylabel "MiB above baseline"
set key top right horizontal outside Left reverse
set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border -1
set boxwidth 0.6
set bmargin 6
set xtics scale 0
plot "breakdown.dat" using 2:xtic(1) lc rgb '#303030' title "weights", "" using 3 lc rgb '#606060' title "gradients", "" using 4 lc rgb '#909090' title "optimizer state", "" using 5 lc rgb '#C0C0C0' title "activations (b x A_sample)", "" using 6 lc rgb '#F0F0F0' title "other overhead"
unset style
set style data points
set key inside left top

set terminal svg noenhanced size 1100,606 font "sans,11" dynamic
set output "throughput.svg"
reset
set grid
set title 'smollm2-135m: throughput (mean of steps 2 to 2 of each point)'
set yrange [0:125000]
set ytics 0, 25000, 125000
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "tokens per second"
set key below horizontal Left reverse maxcols 3 width 2
plot "throughput-0.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full', \
     "throughput-1.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt', \
     "throughput-2.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16', \
     "throughput-3.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt', \
     "throughput-4.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference'
set autoscale y
set ytics autofreq
unset output
