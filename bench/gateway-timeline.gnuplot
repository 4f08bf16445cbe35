# Latency over a 10 s SBE run at 50K orders/s, per 10 ms of due time (loadgen --timeline), journal pretoucher off/on.
# usage: gnuplot -e "off='OFF.csv'; on='ON.csv'; out='PNG'" bench/gateway-timeline.gnuplot
set terminal pngcairo size 1000,500 font ",10"
set output out
set datafile separator ","
set title "Ringex SBE path at 50K orders/s, journal on ext4: worst latency per 10 ms of the run"
set xlabel "time into the measured run (s)"
set ylabel "max latency in the 10 ms (ms, log)"
set logscale y
set yrange [0.1:100]
set grid
set key top left
plot off using ($1/1000):($5/1000) every ::1 with lines lw 1 lc rgb "#d62728" title "pretoucher off: a stall every 8 MiB of journal (about 1.5 s)", \
     on using ($1/1000):($5/1000) every ::1 with lines lw 1 lc rgb "#1f77b4" title "pretoucher on (default)"
