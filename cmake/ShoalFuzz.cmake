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
# What the fuzzer's instrumentation leaves out, per layer (SHOAL_FUZZ_OPTIONS_<layer>, which
# sdk/CMakeLists.txt applies); ASan and UBSan stay everywhere. The stateful targets (peer,
# recording) step a whole world every frame, and paid for it in libFuzzer's bookkeeping, not in
# finding anything: the physics (world) and the smoothing (present) parse no input, so they get
# no coverage instrumentation at all (their every contact and solver iteration was a feature
# libFuzzer tracked); the per-frame layers that act on decoded input (sync, authority) keep
# their coverage counters, which guide the fuzzer, but not the comparison tracing, which helps
# it guess the bytes a parser compares against and cost a quarter of their time.
set(SHOAL_FUZZ_OPTIONS_world -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table)
set(SHOAL_FUZZ_OPTIONS_present ${SHOAL_FUZZ_OPTIONS_world})
set(SHOAL_FUZZ_OPTIONS_sync -fno-sanitize-coverage=trace-cmp)
set(SHOAL_FUZZ_OPTIONS_authority ${SHOAL_FUZZ_OPTIONS_sync})
