#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_under_wine.sh WINDOWS_BUILD_DIR build|unit|determinism|match|mixed [LINUX_PROGRAM]
#   build  brings the Windows build up to date (only where it is configured)
#   unit   runs its unit tests under wine (its own CTest tests: one per test program)
#   determinism  shoal-determinism-probe here (LINUX_PROGRAM) and under wine print the same
#   match  a loopback match of 3 Windows peer processes, all under wine
#   mixed  a match launched by the Linux shoal-lan-match: peers 0 and 1 Linux, peer 2 Windows
# Exits 77 (CTest: skipped), saying why, when mingw-w64, wine or the Windows build is missing.
set -uo pipefail
build=$1
what=$2
linux_program=${3:-}

skip() {
  echo "skipped: $*"
  exit 77
}

command -v x86_64-w64-mingw32-g++-posix > /dev/null ||
  skip "no mingw-w64 cross compiler (bash cmake/install-deps.sh windows installs it)"
wine=$(command -v wine64 || ls /usr/lib/wine/wine64 2> /dev/null || command -v wine) ||
  skip "no wine (bash cmake/install-deps.sh windows installs it)"
[ -f "$build/CMakeCache.txt" ] ||
  skip "no Windows build in $build: configure it with the dependencies' source trees, see README.md, 'Platforms'"

if [ "$what" = build ]; then
  # Incremental: the same ccache keys as cmake/run.sh, so a rebuild reuses what was compiled.
  export CCACHE_BASEDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd) CCACHE_NOHASHDIR=true
  exec nice -n 10 cmake --build "$build" -j2
fi

exe=$build/bin/shoal-lan-match.exe
[ -f "$exe" ] || skip "the Windows build in $build has no shoal-lan-match.exe (build it: cmake --build --preset windows-mingw)"

# A wine prefix of the build's own, made once (without Mono and Gecko, which nothing here needs).
export WINEPREFIX=$build/wine-prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
(
  flock 9
  [ -f "$WINEPREFIX/system.reg" ] || "$wine" wineboot --init > /dev/null 2>&1
) 9> "$build/wine-prefix.lock"

match_flags=(--peers 3 --objects 60 --seconds 4 --settle-seconds 3 --loss 0.1 --latency-ms 20 --seed 7)
case "$what" in
  unit)
    exec ctest --test-dir "$build" --output-on-failure --timeout 900 ;;
  match)
    exec "$wine" "$exe" "${match_flags[@]}" --session "shoal-windows-$$" ;;
  determinism)
    probe=$build/bin/shoal-determinism-probe.exe
    [ -f "$probe" ] || skip "the Windows build in $build has no shoal-determinism-probe.exe"
    here=$("$linux_program") || exit 1
    there=$("$wine" "$probe" | tr -d '\r') || exit 1
    echo "Linux:"; echo "$here"; echo "Windows under wine:"; echo "$there"
    # libm- lines may differ (the C libraries' own sin, cos...); everything else must not.
    [ "$(grep -v '^libm-' <<< "$here")" = "$(grep -v '^libm-' <<< "$there")" ] ;;
  mixed)
    [ -x "$linux_program" ] || skip "no Linux shoal-lan-match at '$linux_program'"
    exec "$linux_program" "${match_flags[@]}" --session "shoal-mixed-$$" --peer-command "2=$wine $exe" ;;
  *)
    echo "usage: run_under_wine.sh WINDOWS_BUILD_DIR build|unit|determinism|match|mixed [LINUX_PROGRAM]" >&2
    exit 2 ;;
esac
