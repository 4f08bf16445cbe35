# Plots for docs/benchmarks-engine.md.
#   throughput: docs/img/data/engine-latest.dat, "label ours_median peer_median" per line (M commands/s; 0 = no peer
#               figure), written by hand from the driver's SUMMARY lines (bench/results/engine-run-*.txt)
#   latency (only with -e "lat='DIR'"): DIR/blp-lat-1.dat, DIR/blp-lat-100.dat, "value_us percentile count
#               1/(1-percentile)" rows, from BlpBenchmark --latency-out (the latest are in docs/img/data)
# gnuplot -e "out='docs/img'; lat='docs/img/data'" bench/engine-bench-plot.gnuplot

if (!exists("data")) data = 'docs/img/data/engine-latest.dat'
if (!exists("when")) when = '2026-11-21 18:13-18:19 UTC, both sides -XX:+UseParallelGC'

set terminal pngcairo size 900,480 font ",10" noenhanced
set output out.'/engine-vs-exchange-core.png'
set title "Ringex vs exchange-core 0.5.3: median throughput of 3 rounds, 2 shared cores\n".when
set ylabel 'M commands/s (median of rounds)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -20
set key top right
set grid ytics
plot data using 2:xtic(1) title 'Ringex', '' using 3 title 'exchange-core 0.5.3'

if (exists("lat")) {
    set output out.'/engine-blp-latency.png'
    set title 'BLP alone, per-command latency (nanoTime around onCommand, plus end of batch every 64)'
    set style data lines
    set logscale x
    set logscale y
    set xlabel 'percentile'
    set ylabel 'latency (us)'
    set xtics ('50%%' 2, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000, '99.999%%' 100000) norotate
    set key top left
    plot lat.'/blp-lat-1.dat' using 4:1 title '1 instrument' lw 2, \
         lat.'/blp-lat-100.dat' using 4:1 title '100 instruments' lw 2
}
