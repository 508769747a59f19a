# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.

set terminal pngcairo noenhanced size 1100,660 font "sans,11"
set output "peak_vs_tokens.png"
reset
set grid
set title 'smollm2-135m: peak RSS above baseline vs tokens, fit and its 95% band'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "peak above baseline (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' dt 1 notitle, "fit-0.dat" using 1:2 with lines lc rgb '#0072B2' dt 1 lw 2 notitle, \
     "points-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa', \
     "fit-1.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' dt 2 notitle, "fit-1.dat" using 1:2 with lines lc rgb '#0072B2' dt 2 lw 2 notitle, \
     "points-1.dat" using 1:2 with points lc rgb '#0072B2' pt 5 ps 1.3 title 'inference eager', \
     "fit-2.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' dt 1 notitle, "fit-2.dat" using 1:2 with lines lc rgb '#E69F00' dt 1 lw 2 notitle, \
     "points-2.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full sdpa', \
     "held-2.dat" using 1:2 with points lc rgb '#E69F00' pt 6 ps 2 lw 2 title 'full sdpa held out (not fitted)', \
     "fit-3.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' dt 2 notitle, "fit-3.dat" using 1:2 with lines lc rgb '#E69F00' dt 2 lw 2 notitle, \
     "points-3.dat" using 1:2 with points lc rgb '#E69F00' pt 5 ps 1.3 title 'full eager', \
     "held-3.dat" using 1:2 with points lc rgb '#E69F00' pt 4 ps 2 lw 2 title 'full eager held out (not fitted)', \
     "points-4.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt sdpa', \
     "points-5.dat" using 1:2 with points lc rgb '#009E73' pt 5 ps 1.3 title 'full+ckpt eager', \
     "points-6.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16 sdpa', \
     "points-7.dat" using 1:2 with points lc rgb '#CC79A7' pt 5 ps 1.3 title 'bf16 eager', \
     "points-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa', \
     "points-9.dat" using 1:2 with points lc rgb '#7F3C8D' pt 5 ps 1.3 title 'amp-bf16 eager', \
     "points-10.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt sdpa', \
     "points-11.dat" using 1:2 with points lc rgb '#D55E00' pt 5 ps 1.3 title 'lora+ckpt eager'

set terminal pngcairo noenhanced size 1100,606 font "sans,11"
set output "residuals.png"
reset
set grid
set title 'smollm2-135m: residuals of the chosen fit'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "observed - predicted (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa', \
     "residuals-1.dat" using 1:2 with points lc rgb '#0072B2' pt 5 ps 1.3 title 'inference eager', \
     "residuals-2.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full sdpa', \
     "residuals-3.dat" using 1:2 with points lc rgb '#E69F00' pt 5 ps 1.3 title 'full eager'

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

set terminal pngcairo noenhanced size 1100,642 font "sans,11"
set output "throughput.png"
reset
set grid
set title 'smollm2-135m: throughput (each point ran one step: that step''s time)'
set yrange [0:500]
set ytics 0, 100, 500
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "tokens per second"
set key below horizontal Left reverse maxcols 3 width 2
plot "throughput-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa', \
     "throughput-1.dat" using 1:2 with points lc rgb '#0072B2' pt 5 ps 1.3 title 'inference eager', \
     "throughput-2.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full sdpa', \
     "throughput-3.dat" using 1:2 with points lc rgb '#E69F00' pt 5 ps 1.3 title 'full eager', \
     "throughput-4.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt sdpa', \
     "throughput-5.dat" using 1:2 with points lc rgb '#009E73' pt 5 ps 1.3 title 'full+ckpt eager', \
     "throughput-6.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16 sdpa', \
     "throughput-7.dat" using 1:2 with points lc rgb '#CC79A7' pt 5 ps 1.3 title 'bf16 eager', \
     "throughput-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa', \
     "throughput-9.dat" using 1:2 with points lc rgb '#7F3C8D' pt 5 ps 1.3 title 'amp-bf16 eager', \
     "throughput-10.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt sdpa', \
     "throughput-11.dat" using 1:2 with points lc rgb '#D55E00' pt 5 ps 1.3 title 'lora+ckpt eager'
set autoscale y
set ytics autofreq

set terminal pngcairo noenhanced size 1240,920 font "sans,11"
set output "peak_by_phase.png"
reset
set grid
set multiplot layout 2,1 title 'smollm2-135m: peak of each phase of a step (live tensors above baseline); lines join one seq_len; points with the same b x s share a position'
set title 'full'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key below horizontal maxrows 2 Left reverse
set grid
plot "phases-2.dat" using 1:2 with linespoints lc rgb '#E69F00' dt 1 pt 5 ps 1.3 title 'sdpa: forward', \
     "phases-2.dat" using 1:3 with linespoints lc rgb '#E69F00' dt 1 pt 7 ps 1.3 title 'sdpa: backward', \
     "phases-2.dat" using 1:4 with linespoints lc rgb '#E69F00' dt 1 pt 9 ps 1.3 title 'sdpa: optimizer step', \
     "phases-3.dat" using 1:2 with linespoints lc rgb '#E69F00' dt 2 pt 5 ps 1.3 title 'eager: forward', \
     "phases-3.dat" using 1:3 with linespoints lc rgb '#E69F00' dt 2 pt 7 ps 1.3 title 'eager: backward', \
     "phases-3.dat" using 1:4 with linespoints lc rgb '#E69F00' dt 2 pt 9 ps 1.3 title 'eager: optimizer step'
set title 'measured at one point each'
set xlabel ""
set ylabel "phase peak (MiB)"
set key top right horizontal outside Left reverse
set bmargin 4
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set xtics scale 0
plot "phase-bars.dat" using 2:xtic(1) lc rgb '#D0D0D0' title 'forward', "" using 3 lc rgb '#8C8C8C' title 'backward', "" using 4 lc rgb '#404040' title 'optimizer step'
unset style
set style data points
set bmargin
unset multiplot
unset output

set terminal svg noenhanced size 1100,660 font "sans,11" dynamic
set output "peak_vs_tokens.svg"
reset
set grid
set title 'smollm2-135m: peak RSS above baseline vs tokens, fit and its 95% band'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "peak above baseline (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' dt 1 notitle, "fit-0.dat" using 1:2 with lines lc rgb '#0072B2' dt 1 lw 2 notitle, \
     "points-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa', \
     "fit-1.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' dt 2 notitle, "fit-1.dat" using 1:2 with lines lc rgb '#0072B2' dt 2 lw 2 notitle, \
     "points-1.dat" using 1:2 with points lc rgb '#0072B2' pt 5 ps 1.3 title 'inference eager', \
     "fit-2.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' dt 1 notitle, "fit-2.dat" using 1:2 with lines lc rgb '#E69F00' dt 1 lw 2 notitle, \
     "points-2.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full sdpa', \
     "held-2.dat" using 1:2 with points lc rgb '#E69F00' pt 6 ps 2 lw 2 title 'full sdpa held out (not fitted)', \
     "fit-3.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' dt 2 notitle, "fit-3.dat" using 1:2 with lines lc rgb '#E69F00' dt 2 lw 2 notitle, \
     "points-3.dat" using 1:2 with points lc rgb '#E69F00' pt 5 ps 1.3 title 'full eager', \
     "held-3.dat" using 1:2 with points lc rgb '#E69F00' pt 4 ps 2 lw 2 title 'full eager held out (not fitted)', \
     "points-4.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt sdpa', \
     "points-5.dat" using 1:2 with points lc rgb '#009E73' pt 5 ps 1.3 title 'full+ckpt eager', \
     "points-6.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16 sdpa', \
     "points-7.dat" using 1:2 with points lc rgb '#CC79A7' pt 5 ps 1.3 title 'bf16 eager', \
     "points-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa', \
     "points-9.dat" using 1:2 with points lc rgb '#7F3C8D' pt 5 ps 1.3 title 'amp-bf16 eager', \
     "points-10.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt sdpa', \
     "points-11.dat" using 1:2 with points lc rgb '#D55E00' pt 5 ps 1.3 title 'lora+ckpt eager'

set terminal svg noenhanced size 1100,606 font "sans,11" dynamic
set output "residuals.svg"
reset
set grid
set title 'smollm2-135m: residuals of the chosen fit'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "observed - predicted (MiB)"
set key below horizontal Left reverse maxcols 3 width 2
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa', \
     "residuals-1.dat" using 1:2 with points lc rgb '#0072B2' pt 5 ps 1.3 title 'inference eager', \
     "residuals-2.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full sdpa', \
     "residuals-3.dat" using 1:2 with points lc rgb '#E69F00' pt 5 ps 1.3 title 'full eager'

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

set terminal svg noenhanced size 1100,642 font "sans,11" dynamic
set output "throughput.svg"
reset
set grid
set title 'smollm2-135m: throughput (each point ran one step: that step''s time)'
set yrange [0:500]
set ytics 0, 100, 500
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "tokens per second"
set key below horizontal Left reverse maxcols 3 width 2
plot "throughput-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa', \
     "throughput-1.dat" using 1:2 with points lc rgb '#0072B2' pt 5 ps 1.3 title 'inference eager', \
     "throughput-2.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'full sdpa', \
     "throughput-3.dat" using 1:2 with points lc rgb '#E69F00' pt 5 ps 1.3 title 'full eager', \
     "throughput-4.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full+ckpt sdpa', \
     "throughput-5.dat" using 1:2 with points lc rgb '#009E73' pt 5 ps 1.3 title 'full+ckpt eager', \
     "throughput-6.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'bf16 sdpa', \
     "throughput-7.dat" using 1:2 with points lc rgb '#CC79A7' pt 5 ps 1.3 title 'bf16 eager', \
     "throughput-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa', \
     "throughput-9.dat" using 1:2 with points lc rgb '#7F3C8D' pt 5 ps 1.3 title 'amp-bf16 eager', \
     "throughput-10.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'lora+ckpt sdpa', \
     "throughput-11.dat" using 1:2 with points lc rgb '#D55E00' pt 5 ps 1.3 title 'lora+ckpt eager'
set autoscale y
set ytics autofreq

set terminal svg noenhanced size 1240,920 font "sans,11" dynamic
set output "peak_by_phase.svg"
reset
set grid
set multiplot layout 2,1 title 'smollm2-135m: peak of each phase of a step (live tensors above baseline); lines join one seq_len; points with the same b x s share a position'
set title 'full'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key below horizontal maxrows 2 Left reverse
set grid
plot "phases-2.dat" using 1:2 with linespoints lc rgb '#E69F00' dt 1 pt 5 ps 1.3 title 'sdpa: forward', \
     "phases-2.dat" using 1:3 with linespoints lc rgb '#E69F00' dt 1 pt 7 ps 1.3 title 'sdpa: backward', \
     "phases-2.dat" using 1:4 with linespoints lc rgb '#E69F00' dt 1 pt 9 ps 1.3 title 'sdpa: optimizer step', \
     "phases-3.dat" using 1:2 with linespoints lc rgb '#E69F00' dt 2 pt 5 ps 1.3 title 'eager: forward', \
     "phases-3.dat" using 1:3 with linespoints lc rgb '#E69F00' dt 2 pt 7 ps 1.3 title 'eager: backward', \
     "phases-3.dat" using 1:4 with linespoints lc rgb '#E69F00' dt 2 pt 9 ps 1.3 title 'eager: optimizer step'
set title 'measured at one point each'
set xlabel ""
set ylabel "phase peak (MiB)"
set key top right horizontal outside Left reverse
set bmargin 4
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set xtics scale 0
plot "phase-bars.dat" using 2:xtic(1) lc rgb '#D0D0D0' title 'forward', "" using 3 lc rgb '#8C8C8C' title 'backward', "" using 4 lc rgb '#404040' title 'optimizer step'
unset style
set style data points
set bmargin
unset multiplot
unset output
