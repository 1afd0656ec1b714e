# SPDX-License-Identifier: MIT
# relay-nat-lobby.md: when a joiner entered each step of joining, directly and through a relay
# (loopback, so the difference is the relay's extra hop and handshake). gnuplot -e "dir='OUT'" join.gp
set terminal svg size 720,340 dynamic font "sans,11" background "white"
set output dir.'/join.svg'
set title "A real join on loopback: when each step began"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "ms since join()"
set key top left
plot dir.'/join.dat' using 2:xtic(1) lc rgb "#3b75af" title "direct (ENet)", \
     '' using 3 lc rgb "#ef8636" title "through shoal-relay"
