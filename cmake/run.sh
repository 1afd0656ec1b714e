#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The two commands of the README:
#   bash cmake/run.sh match [args...]  builds shoal-lan-match in build/ and runs the main job with args
#   bash cmake/run.sh test [ctest args...]  builds build/sanitize/ (ASan+UBSan) and runs every test
# Both install what their set of packages lacks first (cmake/install-deps.sh match|test),
# configure only once, and build incrementally.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# The main job: a LAN match of 4 peer processes on a bad network (about 25 s), then its
# report; extra arguments are passed on (e.g. --plot build/match.png).
main_target=shoal-lan-match
main_args=(--peers 4 --objects 200 --seconds 14 --settle-seconds 6 --loss 0.05 --latency-ms 40
           --report build/match-report.json)
jobs=2  # the machines have two cores

# ccache (used by CMakeLists.txt when installed) keys on paths relative to the checkout, so a
# fresh clone in any folder reuses what an earlier build compiled.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true

# configure DIR [cmake args...]: only when DIR has never been configured; after that Ninja
# re-runs CMake by itself when a CMakeLists.txt changes.
configure() {
  local dir=$1
  shift
  if [ ! -f "$dir/CMakeCache.txt" ] || [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
  fi
}

command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
  match)
    bash cmake/install-deps.sh match
    # Without the tests (nor doctest); the other programs build later with
    # `cmake --build build`, the tests after `cmake -B build -DSHOAL_BUILD_TESTS=ON`.
    configure build -DSHOAL_BUILD_TESTS=OFF
    cmake --build build -j"$jobs" --target "$main_target"
    exec "build/bin/$main_target" "${main_args[@]}" "$@"
    ;;
  test)
    bash cmake/install-deps.sh test
    # -g1: the sanitizers' reports keep file and line, and compiling (most of CI's time) takes
    # about a quarter less than with -g. -O2 stays: at -O1 the multi-process tests ran a fifth
    # slower, and the 8-peer soak then overloaded the machine.
    configure build/sanitize -DSHOAL_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
    cmake --build build/sanitize -j"$jobs"
    ctest --test-dir build/sanitize -j"$jobs" --output-on-failure --timeout 300 "$@"
    ;;
  *)
    echo "usage: bash cmake/run.sh match [args...]   build and run the main job" >&2
    echo "       bash cmake/run.sh test               build with sanitizers and run all tests" >&2
    exit 2
    ;;
esac
