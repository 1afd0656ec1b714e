# SPDX-License-Identifier: MIT
# Shared by run_match.cmake and run_soak.cmake: what --plot and --csv must have written.
# expect_plot_files(PNG CSV HEADER_REGEX MIN_LINES): a real PNG, and a CSV whose first line
# matches HEADER_REGEX with at least MIN_LINES lines in all.
function(expect_plot_files png csv header_regex min_lines)
  file(READ ${png} signature LIMIT 8 HEX)
  if(NOT signature STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "${png} is not a PNG (starts with ${signature})")
  endif()
  file(STRINGS ${csv} rows)
  list(LENGTH rows row_count)
  list(GET rows 0 header)
  if(NOT header MATCHES "${header_regex}" OR row_count LESS min_lines)
    message(FATAL_ERROR "${csv}: ${row_count} lines, header '${header}'")
  endif()
endfunction()
