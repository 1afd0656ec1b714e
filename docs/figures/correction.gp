# SPDX-License-Identifier: MIT
# concepts.md: the body the joiner corrected most, raw (what it simulates, corrected by each
# override) against drawn (smoothed), each as its distance from the owner's state. What is
# drawn is interpolated between the last two frames, so it is set against the owner's previous
# frame. gnuplot -e "dir='OUT'" correction.gp
set terminal svg size 720,360 dynamic font "sans,11" background "white"
set output dir.'/correction.svg'
body = system("cat ".dir."/traced.txt")
set title "Body ".body." on the joiner: its error against the owner, simulated (raw) and drawn (smoothed)"
set xlabel "time (s)"
set ylabel "z error (cm)"
set key top right
set xrange [1:3]
plot dir.'/correction.dat' using 1:(100*($3-$2)) with lines lw 1 lc rgb "#e4572e" title "raw: corrected at once by each override", \
     '' using 1:(100*($4-$6)) with lines lw 2 lc rgb "#222222" title "drawn: each correction blended in", \
     0 with lines dt 2 lc rgb "#3b75af" title "the owner"
