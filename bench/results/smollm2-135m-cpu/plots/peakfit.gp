# Written by peakfit plot; edit and run `gnuplot peakfit.gp` in this folder.

set terminal pngcairo noenhanced size 1100,640 font "sans,11"
set output "peak_vs_tokens.png"
reset
set grid
set title 'smollm2-135m: peak RSS above baseline vs tokens, fit and its 95% band'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "peak above baseline (MiB)"
set key outside right top vertical Left reverse
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' notitle, "fit-0.dat" using 1:2 with lines lc rgb '#0072B2' lw 2 notitle, \
     "points-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa lora_rank  lora_targets  warm 0', \
     "fit-1.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' notitle, "fit-1.dat" using 1:2 with lines lc rgb '#E69F00' lw 2 notitle, \
     "points-1.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'inference eager lora_rank  lora_targets  warm 0', \
     "fit-2.dat" using 1:3:4 with filledcurves lc rgb '#009E73' notitle, "fit-2.dat" using 1:2 with lines lc rgb '#009E73' lw 2 notitle, \
     "points-2.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full sdpa lora_rank  lora_targets  warm 1', \
     "held-2.dat" using 1:2 with points lc rgb '#009E73' pt 6 ps 2 lw 2 title 'full sdpa lora_rank  lora_targets  warm 1 not fitted (held out, verify)', \
     "fit-3.dat" using 1:3:4 with filledcurves lc rgb '#CC79A7' notitle, "fit-3.dat" using 1:2 with lines lc rgb '#CC79A7' lw 2 notitle, \
     "points-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'full eager lora_rank  lora_targets  warm 1', \
     "held-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 6 ps 2 lw 2 title 'full eager lora_rank  lora_targets  warm 1 not fitted (held out, verify)', \
     "points-4.dat" using 1:2 with points lc rgb '#56B4E9' pt 7 ps 1.3 title 'full+ckpt sdpa lora_rank  lora_targets  warm 1', \
     "points-5.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'full+ckpt eager lora_rank  lora_targets  warm 1', \
     "points-6.dat" using 1:2 with points lc rgb '#F0E442' pt 7 ps 1.3 title 'bf16 sdpa lora_rank  lora_targets  warm 1', \
     "points-7.dat" using 1:2 with points lc rgb '#000000' pt 7 ps 1.3 title 'bf16 eager lora_rank  lora_targets  warm 1', \
     "points-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa lora_rank  lora_targets  warm 1', \
     "points-9.dat" using 1:2 with points lc rgb '#8B0000' pt 7 ps 1.3 title 'amp-bf16 eager lora_rank  lora_targets  warm 1', \
     "points-10.dat" using 1:2 with points lc rgb '#808080' pt 7 ps 1.3 title 'lora+ckpt sdpa lora_rank 8 lora_targets q,v warm 1', \
     "points-11.dat" using 1:2 with points lc rgb '#FF00FF' pt 7 ps 1.3 title 'lora+ckpt eager lora_rank 8 lora_targets q,v warm 1'

set terminal pngcairo noenhanced size 1100,640 font "sans,11"
set output "residuals.png"
reset
set grid
set title 'smollm2-135m: residuals of the chosen fit'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "observed - predicted (MiB)"
set key outside right top vertical Left reverse
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa lora_rank  lora_targets  warm 0', \
     "residuals-1.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'inference eager lora_rank  lora_targets  warm 0', \
     "residuals-2.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full sdpa lora_rank  lora_targets  warm 1', \
     "residuals-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'full eager lora_rank  lora_targets  warm 1'

set terminal pngcairo noenhanced size 1100,640 font "sans,11"
set output "breakdown.png"
reset
set grid
set title 'smollm2-135m: memory at the largest measured batch (F split by the measured fixed costs)'
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

set terminal pngcairo noenhanced size 1100,640 font "sans,11"
set output "throughput.png"
reset
set grid
set title 'smollm2-135m: throughput (each point ran one step: that step''s time)'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "tokens per second"
set key outside right top vertical Left reverse
plot "throughput-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa lora_rank  lora_targets  warm 0', \
     "throughput-1.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'inference eager lora_rank  lora_targets  warm 0', \
     "throughput-2.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full sdpa lora_rank  lora_targets  warm 1', \
     "throughput-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'full eager lora_rank  lora_targets  warm 1', \
     "throughput-4.dat" using 1:2 with points lc rgb '#56B4E9' pt 7 ps 1.3 title 'full+ckpt sdpa lora_rank  lora_targets  warm 1', \
     "throughput-5.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'full+ckpt eager lora_rank  lora_targets  warm 1', \
     "throughput-6.dat" using 1:2 with points lc rgb '#F0E442' pt 7 ps 1.3 title 'bf16 sdpa lora_rank  lora_targets  warm 1', \
     "throughput-7.dat" using 1:2 with points lc rgb '#000000' pt 7 ps 1.3 title 'bf16 eager lora_rank  lora_targets  warm 1', \
     "throughput-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa lora_rank  lora_targets  warm 1', \
     "throughput-9.dat" using 1:2 with points lc rgb '#8B0000' pt 7 ps 1.3 title 'amp-bf16 eager lora_rank  lora_targets  warm 1', \
     "throughput-10.dat" using 1:2 with points lc rgb '#808080' pt 7 ps 1.3 title 'lora+ckpt sdpa lora_rank 8 lora_targets q,v warm 1', \
     "throughput-11.dat" using 1:2 with points lc rgb '#FF00FF' pt 7 ps 1.3 title 'lora+ckpt eager lora_rank 8 lora_targets q,v warm 1'

set terminal pngcairo noenhanced size 1240,1360 font "sans,11"
set output "peak_by_phase.png"
reset
set grid
set multiplot layout 3,2 title 'smollm2-135m: peak of each phase of a step (live tensors above baseline); lines join one seq_len; points with the same b x s share a position'
set title 'full'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-2.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-2.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-2.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-3.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-3.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-3.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'full+ckpt'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-4.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-4.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-4.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-5.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-5.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-5.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'bf16'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-6.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-6.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-6.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-7.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-7.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-7.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'amp-bf16'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-8.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-8.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-8.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-9.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-9.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-9.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'lora+ckpt'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-10.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank 8 lora_targets q,v warm 1: forward', \
     "phases-10.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank 8 lora_targets q,v warm 1: backward', \
     "phases-10.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank 8 lora_targets q,v warm 1: optimizer step', \
     "phases-11.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank 8 lora_targets q,v warm 1: forward', \
     "phases-11.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank 8 lora_targets q,v warm 1: backward', \
     "phases-11.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank 8 lora_targets q,v warm 1: optimizer step'
unset multiplot
unset output

set terminal svg noenhanced size 1100,640 font "sans,11" dynamic
set output "peak_vs_tokens.svg"
reset
set grid
set title 'smollm2-135m: peak RSS above baseline vs tokens, fit and its 95% band'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "peak above baseline (MiB)"
set key outside right top vertical Left reverse
set style fill transparent solid 0.15 noborder
plot "fit-0.dat" using 1:3:4 with filledcurves lc rgb '#0072B2' notitle, "fit-0.dat" using 1:2 with lines lc rgb '#0072B2' lw 2 notitle, \
     "points-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa lora_rank  lora_targets  warm 0', \
     "fit-1.dat" using 1:3:4 with filledcurves lc rgb '#E69F00' notitle, "fit-1.dat" using 1:2 with lines lc rgb '#E69F00' lw 2 notitle, \
     "points-1.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'inference eager lora_rank  lora_targets  warm 0', \
     "fit-2.dat" using 1:3:4 with filledcurves lc rgb '#009E73' notitle, "fit-2.dat" using 1:2 with lines lc rgb '#009E73' lw 2 notitle, \
     "points-2.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full sdpa lora_rank  lora_targets  warm 1', \
     "held-2.dat" using 1:2 with points lc rgb '#009E73' pt 6 ps 2 lw 2 title 'full sdpa lora_rank  lora_targets  warm 1 not fitted (held out, verify)', \
     "fit-3.dat" using 1:3:4 with filledcurves lc rgb '#CC79A7' notitle, "fit-3.dat" using 1:2 with lines lc rgb '#CC79A7' lw 2 notitle, \
     "points-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'full eager lora_rank  lora_targets  warm 1', \
     "held-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 6 ps 2 lw 2 title 'full eager lora_rank  lora_targets  warm 1 not fitted (held out, verify)', \
     "points-4.dat" using 1:2 with points lc rgb '#56B4E9' pt 7 ps 1.3 title 'full+ckpt sdpa lora_rank  lora_targets  warm 1', \
     "points-5.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'full+ckpt eager lora_rank  lora_targets  warm 1', \
     "points-6.dat" using 1:2 with points lc rgb '#F0E442' pt 7 ps 1.3 title 'bf16 sdpa lora_rank  lora_targets  warm 1', \
     "points-7.dat" using 1:2 with points lc rgb '#000000' pt 7 ps 1.3 title 'bf16 eager lora_rank  lora_targets  warm 1', \
     "points-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa lora_rank  lora_targets  warm 1', \
     "points-9.dat" using 1:2 with points lc rgb '#8B0000' pt 7 ps 1.3 title 'amp-bf16 eager lora_rank  lora_targets  warm 1', \
     "points-10.dat" using 1:2 with points lc rgb '#808080' pt 7 ps 1.3 title 'lora+ckpt sdpa lora_rank 8 lora_targets q,v warm 1', \
     "points-11.dat" using 1:2 with points lc rgb '#FF00FF' pt 7 ps 1.3 title 'lora+ckpt eager lora_rank 8 lora_targets q,v warm 1'

set terminal svg noenhanced size 1100,640 font "sans,11" dynamic
set output "residuals.svg"
reset
set grid
set title 'smollm2-135m: residuals of the chosen fit'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "observed - predicted (MiB)"
set key outside right top vertical Left reverse
plot 0 with lines lc rgb "gray" notitle, \
     "residuals-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa lora_rank  lora_targets  warm 0', \
     "residuals-1.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'inference eager lora_rank  lora_targets  warm 0', \
     "residuals-2.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full sdpa lora_rank  lora_targets  warm 1', \
     "residuals-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'full eager lora_rank  lora_targets  warm 1'

set terminal svg noenhanced size 1100,640 font "sans,11" dynamic
set output "breakdown.svg"
reset
set grid
set title 'smollm2-135m: memory at the largest measured batch (F split by the measured fixed costs)'
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

set terminal svg noenhanced size 1100,640 font "sans,11" dynamic
set output "throughput.svg"
reset
set grid
set title 'smollm2-135m: throughput (each point ran one step: that step''s time)'
set xlabel "tokens per micro-batch, b x s (points with the same b x s share a position)"
set ylabel "tokens per second"
set key outside right top vertical Left reverse
plot "throughput-0.dat" using 1:2 with points lc rgb '#0072B2' pt 7 ps 1.3 title 'inference sdpa lora_rank  lora_targets  warm 0', \
     "throughput-1.dat" using 1:2 with points lc rgb '#E69F00' pt 7 ps 1.3 title 'inference eager lora_rank  lora_targets  warm 0', \
     "throughput-2.dat" using 1:2 with points lc rgb '#009E73' pt 7 ps 1.3 title 'full sdpa lora_rank  lora_targets  warm 1', \
     "throughput-3.dat" using 1:2 with points lc rgb '#CC79A7' pt 7 ps 1.3 title 'full eager lora_rank  lora_targets  warm 1', \
     "throughput-4.dat" using 1:2 with points lc rgb '#56B4E9' pt 7 ps 1.3 title 'full+ckpt sdpa lora_rank  lora_targets  warm 1', \
     "throughput-5.dat" using 1:2 with points lc rgb '#D55E00' pt 7 ps 1.3 title 'full+ckpt eager lora_rank  lora_targets  warm 1', \
     "throughput-6.dat" using 1:2 with points lc rgb '#F0E442' pt 7 ps 1.3 title 'bf16 sdpa lora_rank  lora_targets  warm 1', \
     "throughput-7.dat" using 1:2 with points lc rgb '#000000' pt 7 ps 1.3 title 'bf16 eager lora_rank  lora_targets  warm 1', \
     "throughput-8.dat" using 1:2 with points lc rgb '#7F3C8D' pt 7 ps 1.3 title 'amp-bf16 sdpa lora_rank  lora_targets  warm 1', \
     "throughput-9.dat" using 1:2 with points lc rgb '#8B0000' pt 7 ps 1.3 title 'amp-bf16 eager lora_rank  lora_targets  warm 1', \
     "throughput-10.dat" using 1:2 with points lc rgb '#808080' pt 7 ps 1.3 title 'lora+ckpt sdpa lora_rank 8 lora_targets q,v warm 1', \
     "throughput-11.dat" using 1:2 with points lc rgb '#FF00FF' pt 7 ps 1.3 title 'lora+ckpt eager lora_rank 8 lora_targets q,v warm 1'

set terminal svg noenhanced size 1240,1360 font "sans,11" dynamic
set output "peak_by_phase.svg"
reset
set grid
set multiplot layout 3,2 title 'smollm2-135m: peak of each phase of a step (live tensors above baseline); lines join one seq_len; points with the same b x s share a position'
set title 'full'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-2.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-2.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-2.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-3.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-3.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-3.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'full+ckpt'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-4.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-4.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-4.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-5.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-5.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-5.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'bf16'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-6.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-6.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-6.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-7.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-7.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-7.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'amp-bf16'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-8.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: forward', \
     "phases-8.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: backward', \
     "phases-8.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank  lora_targets  warm 1: optimizer step', \
     "phases-9.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: forward', \
     "phases-9.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: backward', \
     "phases-9.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank  lora_targets  warm 1: optimizer step'
set title 'lora+ckpt'
set xlabel "tokens per micro-batch, b x s"
set ylabel "phase peak (MiB)"
set key outside bottom center horizontal maxrows 2 Left reverse
set grid
plot "phases-10.dat" using 1:2 with linespoints lc rgb '#0072B2' pt 5 ps 1.3 title 'sdpa lora_rank 8 lora_targets q,v warm 1: forward', \
     "phases-10.dat" using 1:3 with linespoints lc rgb '#0072B2' pt 7 ps 1.3 title 'sdpa lora_rank 8 lora_targets q,v warm 1: backward', \
     "phases-10.dat" using 1:4 with linespoints lc rgb '#0072B2' pt 9 ps 1.3 title 'sdpa lora_rank 8 lora_targets q,v warm 1: optimizer step', \
     "phases-11.dat" using 1:2 with linespoints lc rgb '#E69F00' pt 5 ps 1.3 title 'eager lora_rank 8 lora_targets q,v warm 1: forward', \
     "phases-11.dat" using 1:3 with linespoints lc rgb '#E69F00' pt 7 ps 1.3 title 'eager lora_rank 8 lora_targets q,v warm 1: backward', \
     "phases-11.dat" using 1:4 with linespoints lc rgb '#E69F00' pt 9 ps 1.3 title 'eager lora_rank 8 lora_targets q,v warm 1: optimizer step'
unset multiplot
unset output
