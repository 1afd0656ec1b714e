# SPDX-License-Identifier: MIT
# architecture.md: where one update() spends its time, by layer (PeerConfig.measure_update_cost).
# gnuplot -e "dir='OUT'" cost.gp
set terminal svg size 720,340 dynamic font "sans,11" background "white"
set output dir.'/cost.svg'
set title "The joiner's update(), by layer (microseconds per update, this machine)"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -30
set ylabel "us per update"
set key off
plot dir.'/cost.dat' using 2:xtic(1) lc rgb "#3b75af"
