#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Coverage-guided fuzzing of every decoder (tests/fuzz/targets), with libFuzzer:
#   bash tests/fuzz/run-fuzzers.sh SECONDS [TARGET...]
# Configures build/fuzz with clang-14 and SHOAL_FUZZ (ASan+UBSan, leaks checked), builds the
# targets, then runs each in turn for SECONDS, one process (the machines have two cores and
# share them), on build/fuzz/corpus/TARGET (new inputs land there) and the seeds of
# tests/fuzz/corpus/TARGET. Prints per target: executions, executions per second, coverage,
# and whether it crashed (the input is kept in build/fuzz/crashes/TARGET/). Exit 1 if any did.
# RUNS=N runs each target for N executions instead (SECONDS is then ignored): how the counts
# in the README were reached. MERGE=1 then adds to tests/fuzz/corpus/TARGET the new inputs that reach new coverage and
# are at most MERGE_MAX_LEN bytes (default 4096), so the corpus in the repository stays small.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: bash tests/fuzz/run-fuzzers.sh SECONDS [TARGET...]  (each target runs SECONDS)" >&2
  exit 2
fi
shift
build=$root/build/fuzz
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for source in "$root"/tests/fuzz/targets/*.cpp; do targets+=("$(basename "$source" .cpp)"); done
fi

command -v clang++-14 >/dev/null || { echo "run-fuzzers: clang++-14 is missing (bash cmake/install-deps.sh fuzz)" >&2; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
    -DCMAKE_CXX_COMPILER=clang++-14 -DSHOAL_FUZZ=ON >/dev/null
fi
cmake --build "$build" -j2 --target "${targets[@]/#/shoal-fuzz-}"

status=0
printf '%-18s %12s %9s %7s %7s  %s\n' target executions exec/s cov ft result
for target in "${targets[@]}"; do
  work=$build/corpus/$target crashes=$build/crashes/$target/ log=$build/logs/$target.log
  mkdir -p "$work" "$crashes" "$(dirname "$log")"
  result=ok
  # -timeout: an input running 30 s is a hang (a crash): the machines are shared, and 10 s once
  # fired on an input that runs in 84 ms alone. -rss_limit_mb bounds memory.
  budget=(-max_total_time="$seconds")
  [ -n "${RUNS:-}" ] && budget=(-runs="$RUNS")
  "$build/bin/shoal-fuzz-$target" "${budget[@]}" -print_final_stats=1 -timeout=30 \
    -rss_limit_mb=2048 -artifact_prefix="$crashes" "$work" "$root/tests/fuzz/corpus/$target" >"$log" 2>&1 \
    || { result="CRASHED (see $log)"; status=1; }
  executions=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  per_second=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
  printf '%-18s %12s %9s %7s %7s  %s\n' "$target" "${executions:--}" "${per_second:--}" \
    "$(awk '{ print $2 }' <<<"${coverage:-- -- -- --}")" "$(awk '{ print $4 }' <<<"${coverage:-- -- -- --}")" "$result"
  if [ "${MERGE:-0}" = 1 ] && [ "$result" = ok ]; then
    small=$build/small/$target
    rm -rf "$small" && mkdir -p "$small"
    find "$work" -type f -size -"$(( ${MERGE_MAX_LEN:-4096} + 1 ))"c -exec cp -t "$small" {} +
    "$build/bin/shoal-fuzz-$target" -merge=1 "$root/tests/fuzz/corpus/$target" "$small" >>"$log" 2>&1
  fi
done
exit "$status"
