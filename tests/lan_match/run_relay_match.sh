#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A match played entirely through a shoal-relay on loopback:
#   run_relay_match.sh RELAY_EXE CMAKE_EXE run_match.cmake -DMATCH=... -DPEERS=... -DREPORT=... "-DARGS=..."
# Starts the relay on a free port (read from its "serving on" line), runs run_match.cmake with
# --relay added to the match's arguments, and stops the relay on every exit path.
set -euo pipefail
relay_exe=$1 cmake_exe=$2 script=$3
shift 3

# shellcheck source=../relay_process.sh
source "$(dirname "$0")/../relay_process.sh"
start_relay "$relay_exe"
port=$relay_port

args=() peers=
for a in "$@"; do
  [[ $a == -DARGS=* ]] && a="$a;--relay;127.0.0.1:$port"
  [[ $a == -DPEERS=* ]] && peers=${a#-DPEERS=}
  args+=("$a")
done
status=0
"$cmake_exe" "${args[@]}" -P "$script" || status=$?
check_relay_carried "shoal-lan-match-[0-9]+-[0-9]+" "$peers" || status=1
exit "$status"
