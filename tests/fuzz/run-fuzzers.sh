#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Coverage-guided fuzzing of every decoder (tests/fuzz/targets), with libFuzzer:
#   bash tests/fuzz/run-fuzzers.sh SECONDS [TARGET...]
# Configures build/fuzz with clang-14 and SHOAL_FUZZ (ASan+UBSan, leaks checked), builds the
# targets, then runs each in turn for SECONDS, one process (the machines have two cores and
# share them: run it under `nice -n 19`), on build/fuzz/corpus/TARGET (new inputs land there)
# and the seeds of tests/fuzz/corpus/TARGET. Prints per target: executions, executions per
# second (as it ran, and per second of its process's CPU time: what it does alone on a core),
# coverage, and whether it crashed (the input is kept in build/fuzz/crashes/TARGET/). Exit 1 if
# any did.
# RUNS=N runs each target for N executions instead (SECONDS is then ignored). MERGE=1 then adds
# to tests/fuzz/corpus/TARGET the new inputs that reach new coverage and are at most
# MERGE_MAX_LEN bytes (default 4096), so the corpus in the repository stays small.
# Every run is added to the table in docs/fuzzing.md (TABLE=0: not): the executions summed over
# all runs, the last run's executions per second and coverage, the crashes found, whether the
# last run left one open, and the dates; the corpus replay tests (`fuzz: ...`) keep every
# input, crashes' included, passing on a freshly built build.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: bash tests/fuzz/run-fuzzers.sh SECONDS [TARGET...]  (each target runs SECONDS)" >&2
  exit 2
fi
shift
build=$root/build/fuzz
table=$root/docs/fuzzing.md
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for source in "$root"/tests/fuzz/targets/*.cpp; do targets+=("$(basename "$source" .cpp)"); done
fi
for target in "${targets[@]}"; do
  [ -f "$root/tests/fuzz/targets/$target.cpp" ] || { echo "run-fuzzers: no target '$target' (tests/fuzz/targets/)" >&2; exit 2; }
done

command -v clang++-14 >/dev/null || { echo "run-fuzzers: clang++-14 is missing (bash cmake/install-deps.sh fuzz)" >&2; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
    -DCMAKE_CXX_COMPILER=clang++-14 -DSHOAL_FUZZ=ON >/dev/null
fi
cmake --build "$build" -j2 --target "${targets[@]/#/shoal-fuzz-}"

# record_run TARGET EXECUTIONS PER_CPU_SECOND COV FT CRASHED: adds one run to the table's row
# of TARGET (a new row if it has none). Rows are "| target | executions | exec/s (per CPU
# second) | cov | ft | crashes found | open | runs | first run | last run |", between the
# table's two markers.
record_run() {
  [ "${TABLE:-1}" = 1 ] && [ -f "$table" ] || return 0
  local today
  today=$(date -u +%Y-%m-%d)
  awk -v t="$1" -v n="${2:-0}" -v r="${3:-0}" -v c="${4:--}" -v f="${5:--}" -v x="$6" -v d="$today" '
    function row(target, executions, per_second, cov, ft, found, open, runs, first, last) {
      return sprintf("| %s | %d | %d | %s | %s | %d | %d | %d | %s | %s |", target, executions, per_second, cov, ft,
                     found, open, runs, first, last)
    }
    BEGIN { FS = " *[|] *" }
    /<!-- end of the fuzz table -->/ && !done {
      print row(t, n, r, c, f, x, x, 1, d, d)
      done = 1
    }
    inside && $2 == t {
      print row(t, $3 + n, r, c, f, $7 + x, x, $9 + 1, $10, d)
      done = 1
      next
    }
    /<!-- the fuzz table: tests\/fuzz\/run-fuzzers.sh updates it -->/ { inside = 1 }
    /<!-- end of the fuzz table -->/ { inside = 0 }
    { print }
  ' "$table" >"$table.new" && mv "$table.new" "$table"
}

status=0
printf '%-18s %12s %9s %9s %7s %7s  %s\n' target executions exec/s exec/cpu-s cov ft result
for target in "${targets[@]}"; do
  work=$build/corpus/$target crashes=$build/crashes/$target/ log=$build/logs/$target.log
  mkdir -p "$work" "$crashes" "$(dirname "$log")"
  result=ok
  # -timeout: an input running 30 s is a hang (a crash): the machines are shared, and 10 s once
  # fired on an input that runs in 84 ms alone. -rss_limit_mb bounds memory.
  budget=(-max_total_time="$seconds")
  [ -n "${RUNS:-}" ] && budget=(-runs="$RUNS")
  # The stateful targets play whole scripts. Shorter inputs (a longer seed is read up to this
  # length: its handshake and first seconds; a recording cut there replays up to its last whole
  # record), libFuzzer's plain schedule (its entropic one spent half their time counting the
  # features of each run) and no allocation stacks kept (ASan still reports the bad access
  # itself; replay the input to see more) keep them at 1,000 or more executions a second.
  options=() environment=()
  case $target in
    peer | recording | relay_client)
      options=(-max_len=4096 -entropic=0)
      environment=(ASAN_OPTIONS=malloc_context_size=0)
      ;;
  esac
  TIMEFORMAT='%U %S'
  { time env "${environment[@]}" "$build/bin/shoal-fuzz-$target" "${budget[@]}" "${options[@]}" -print_final_stats=1 \
      -timeout=30 -rss_limit_mb=2048 -artifact_prefix="$crashes" "$work" "$root/tests/fuzz/corpus/$target" \
      >"$log" 2>&1 || { result="CRASHED (see $log)"; status=1; }; } 2>"$log.cpu"
  executions=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  per_second=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
  per_cpu_second=$(awk -v n="${executions:-0}" '{ cpu = $1 + $2 } END { if (cpu > 0) printf "%d", n / cpu; else print "-" }' "$log.cpu")
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1 || true)
  cov=$(awk '{ print $2 }' <<<"${coverage:-- -- -- --}")
  ft=$(awk '{ print $4 }' <<<"${coverage:-- -- -- --}")
  printf '%-18s %12s %9s %9s %7s %7s  %s\n' "$target" "${executions:--}" "${per_second:--}" "$per_cpu_second" "$cov" \
    "$ft" "$result"
  record_run "$target" "${executions:-0}" "${per_cpu_second/-/0}" "$cov" "$ft" "$([ "$result" = ok ] && echo 0 || echo 1)"
  if [ "${MERGE:-0}" = 1 ] && [ "$result" = ok ]; then
    small=$build/small/$target
    rm -rf "$small" && mkdir -p "$small"
    find "$work" -type f -size -"$(( ${MERGE_MAX_LEN:-4096} + 1 ))"c -exec cp -t "$small" {} +
    env "${environment[@]}" "$build/bin/shoal-fuzz-$target" "${options[@]}" -merge=1 "$root/tests/fuzz/corpus/$target" \
      "$small" >>"$log" 2>&1
  fi
done
exit "$status"
