# Plots for docs/benchmarks-engine.md. Inputs (written from the driver's SUMMARY lines and the BLP harness's
# --latency-out files):
#   medians.dat: "label ours_median peer_median" per line (Mcommands/s)
#   blp-lat-1.dat, blp-lat-100.dat: "value_us percentile count 1/(1-percentile)" (HdrHistogram distribution rows)
# gnuplot -e "dir='/tmp/eng-bench/final'; out='docs/img'" bench/engine-bench-plot.gnuplot

set terminal pngcairo size 900,480 font ",10" noenhanced
set output out.'/engine-vs-exchange-core.png'
set title 'Median throughput per round, Ringex vs exchange-core 0.5.3 (2 shared cores, 1-min load 6-16)'
set ylabel 'Mcommands/s (median of rounds)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -20
set key top right
set grid ytics
plot dir.'/medians.dat' using 2:xtic(1) title 'Ringex', '' using 3 title 'exchange-core 0.5.3'

set output out.'/engine-blp-latency.png'
set title 'BLP alone, per-command latency (nanoTime around onCommand, batch 64), last round'
set style data lines
set logscale x
set logscale y
set xlabel 'percentile'
set ylabel 'latency (us)'
set xtics ('50%%' 2, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, '99.999%%' 100000) norotate
set key top left
plot dir.'/blp-lat-1.dat' using 4:1 title '1 instrument' lw 2, \
     dir.'/blp-lat-100.dat' using 4:1 title '100 instruments' lw 2
