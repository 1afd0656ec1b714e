# SPDX-License-Identifier: MIT
# tuning.md: the same match at six byte budgets: what the host sends, and how far the joiner's
# crates stray from the owner's (less sent, more left to the joiner's own simulation).
# gnuplot -e "dir='OUT'" budget.gp
set terminal svg size 720,360 dynamic font "sans,11" background "white"
set output dir.'/budget.svg'
set title "SnapshotConfig.bytes_per_second: bytes sent against how far the peers' crates differ"
set xlabel "bytes_per_second budget"
set logscale x 2
set ylabel "snapshot bytes sent per second"
set y2label "worst crate difference, mean (mm)"
set ytics nomirror
set y2tics
set key top left
plot dir.'/budget.dat' using 1:2 with linespoints pt 7 lc rgb "#3b75af" title "host: snapshot bytes/s", \
     '' using 1:5 axes x1y2 with linespoints pt 5 lc rgb "#e4572e" title "joiner vs host: crate difference (mm)"
