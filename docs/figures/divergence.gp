# SPDX-License-Identifier: MIT
# troubleshooting-desyncs.md: how far the joiner's copy of one body is from the owner's at
# the newest frame both hold. gnuplot -e "dir='OUT'" divergence.gp
set terminal svg size 720,340 dynamic font "sans,11" background "white"
set output dir.'/divergence.svg'
body = system("cat ".dir."/traced.txt")
set title "Body ".body.": the joiner's copy against the owner's, 200 ms back (owner frames arrived)"
set xlabel "time (s)"
set ylabel "position difference (mm)"
set logscale y
set yrange [0.001:1000]
set key top right
plot dir.'/correction.dat' using 1:($5 > 0 ? $5 : 1/0) with points pt 7 ps 0.3 lc rgb "#e4572e" title "difference (0 = the same bits: not drawn)", \
     1 with lines dt 2 lc rgb "#333333" title "CompareTolerance.position_m (1 mm)"
