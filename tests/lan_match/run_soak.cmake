# SPDX-License-Identifier: MIT
# Runs a short soak and checks its verdict and files:
#   cmake -DMATCH=exe -DARGS="a;b" -DCSV=file.csv -DPLOT=file.png -P run_soak.cmake
# Exit 0 (no object lost, consistent at the end, every killed peer's objects owned again and
# each restarted one rejoined), a CSV with the samples of every peer and a PNG.
file(REMOVE ${CSV} ${PLOT})
execute_process(COMMAND ${MATCH} ${ARGS} --csv ${CSV} --plot ${PLOT} RESULT_VARIABLE code OUTPUT_VARIABLE out)
message("${out}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "shoal-lan-match --soak exited with '${code}', expected 0")
endif()
if(NOT out MATCHES "killed: peer #1 \\(id [0-9]+\\) at [0-9.]+ s; reowned_ms [0-9]+; restarted at [0-9.]+ s, rejoin_ms [0-9]+")
  message(FATAL_ERROR "the soak killed no peer, or never saw it owned again and rejoined")
endif()
# One sample of every live peer at 30 s: 7 or 8 rows (peer #1 may be between kill and restart).
include(${CMAKE_CURRENT_LIST_DIR}/expect_plot_files.cmake)
expect_plot_files(${PLOT} ${CSV} "^time_s,index,pid,rss_kb,owned_objects,live_objects,max_position_error_m$" 8)
