# SPDX-License-Identifier: MIT
# SHOAL_FUZZ: libshoal and the fuzz targets (tests/fuzz) built for libFuzzer. Everything gets
# the fuzzer's coverage instrumentation and ASan+UBSan (any report stops the run as a crash);
# only the targets link libFuzzer's main (SHOAL_FUZZER_LINK_FLAGS), so the library stays a
# library. Needs clang and its runtime (Debian: clang-14, libclang-rt-14-dev).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "SHOAL_FUZZ needs clang with libFuzzer: configure with "
    "-DCMAKE_CXX_COMPILER=clang++-14 (or run tests/fuzz/run-fuzzers.sh, which does)")
endif()
if(SHOAL_SANITIZE)
  message(FATAL_ERROR "SHOAL_FUZZ brings its own sanitizers: configure it without SHOAL_SANITIZE")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
  -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
set(SHOAL_FUZZER_LINK_FLAGS -fsanitize=fuzzer)
# The physics (the world layer) keeps its coverage counters and sanitizers but not libFuzzer's
# comparison tracing: every contact test and solver iteration compares floats, which the
# stateful targets (peer, recording) paid for in a quarter of their time, and no comparison
# there decides how an input is parsed, which is what the tracing helps the fuzzer guess.
set(SHOAL_FUZZ_UNTRACED_LAYERS world)
set(SHOAL_FUZZ_UNTRACED_OPTIONS -fno-sanitize-coverage=trace-cmp)
