#!/bin/sh
# Plot the ring benchmark's throughput.dat (written by RingThroughputBenchmark) as a PNG with gnuplot.
# usage: bench/ringex/plot-ring.sh [target/ring-bench/throughput.dat] [docs/img/benchmarks-ring.png]
# needs gnuplot (Debian: apt-get install -y gnuplot-nox)
set -eu
DATA="${1:-bench/ringex/target/ring-bench/throughput.dat}"
OUT="${2:-docs/img/benchmarks-ring.png}"
mkdir -p "$(dirname "$OUT")"
gnuplot <<GP
set terminal pngcairo size 1400,600 noenhanced font "sans,10"
set output "$OUT"
set title "Throughput, median of rounds (Mops/s, log scale): ringex ring vs LMAX Disruptor 4.0.0 vs ArrayBlockingQueue"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [0.5:*]
set ylabel "million events / s"
set grid ytics
set key top right
set xtics font "sans,9"
set bmargin 4
plot "$DATA" using 2:xtic(1) title "ringex" lc rgb "#1f77b4", \
     "" using 3 title "disruptor" lc rgb "#ff7f0e", \
     "" using 4 title "ArrayBlockingQueue" lc rgb "#7f7f7f"
GP
echo "wrote $OUT"
