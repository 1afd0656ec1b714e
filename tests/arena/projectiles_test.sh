#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two bots fire projectiles for 480 frames (8 s); the player's window then says how many
# objects spawned during play it applied and removed: both must be above 0.
# usage: projectiles_test.sh ARENA PNG
set -u
arena=$1 png=$2
if ! command -v xvfb-run >/dev/null; then
  echo "SKIPPED: xvfb-run is not installed (bash cmake/install-deps.sh test installs xvfb and xauth)"
  exit 77
fi
mkdir -p "$(dirname "$png")"
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0  # see screenshot_test.sh
out=$(timeout 120 xvfb-run -a -s "-screen 0 1280x800x24" "$arena" --bots 2 --frames 480 --screenshot "$png")
status=$?
echo "$out"
if [ $status -ne 0 ]; then
  echo "FAIL: shoal-arena exited with $status"
  exit 1
fi
line=$(grep -oE 'spawned [0-9]+, removed [0-9]+' <<<"$out")
spawned=$(sed -E 's/spawned ([0-9]+),.*/\1/' <<<"$line")
removed=$(sed -E 's/.*removed ([0-9]+)/\1/' <<<"$line")
if [ -z "$line" ] || [ "$spawned" -lt 1 ] || [ "$removed" -lt 1 ]; then
  echo "FAIL: expected 'spawned N, removed M' with N, M > 0, got '$line'"
  exit 1
fi
echo "PASS: the player's window applied $spawned spawns and $removed removals"
