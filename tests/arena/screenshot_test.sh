#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Takes an arena screenshot under Xvfb and runs the checker on it; passes when the checker
# exits with the expected code (0 = every check passed, 4 = overlay missing, ...).
# usage: screenshot_test.sh ARENA CHECKER OUT_DIR NAME EXPECTED_EXIT OWNERS [arena flags...]
set -u
arena=$1 checker=$2 out_dir=$3 name=$4 expected=$5 owners=$6
shift 6

if ! command -v xvfb-run >/dev/null; then
  echo "SKIPPED: xvfb-run is not installed (bash cmake/install-deps.sh test installs xvfb and xauth)"
  exit 77
fi

mkdir -p "$out_dir"
png=$out_dir/$name.png
rm -f "$png"
# SDL's X11 and D-Bus libraries keep allocations past SDL_Quit, in modules SDL has unloaded
# by then, so LeakSanitizer can neither name nor suppress them. The SDK's leak checking is in
# its own tests; here only the arena's exit status and picture count.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# 24-bit colour: xvfb-run's default screen is 8-bit, which would remap every colour.
timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$arena" --screenshot "$png" "$@"
status=$?
if [ $status -ne 0 ]; then
  echo "FAIL: shoal-arena exited with $status"
  exit 1
fi
if [ ! -s "$png" ]; then
  echo "FAIL: shoal-arena exited 0 but wrote no screenshot at $png"
  exit 1
fi

"$checker" "$png" "$owners"
check=$?
if [ $check -ne "$expected" ]; then
  echo "FAIL: the screenshot check exited with $check, expected $expected ($png)"
  exit 1
fi
echo "PASS: the screenshot check exited with $check as expected ($png)"
