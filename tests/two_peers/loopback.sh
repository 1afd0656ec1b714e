#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# loopback.sh HOST_PROGRAM JOIN_PROGRAM WORK_DIR: samples/two_peers without a window on
# 127.0.0.1. HOST_PROGRAM hosts on a free port and writes the invitation; JOIN_PROGRAM (the C++
# or the C sample, either may be either) joins with it. Both must exit 0, which each does only
# when the other player's ball moved in its own world, and say that they met.
set -euo pipefail
host_program=$1 join_program=$2 work=$3
source "$(dirname "${BASH_SOURCE[0]}")/verdict.sh"
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$host_program" host 0 invitation.txt --no-window --seconds 7 >host.log 2>&1 &
host_pid=$!
trap 'kill "$host_pid" 2>/dev/null || true' EXIT
port=""
for _ in $(seq 200); do  # up to 20 s for the host to start (sanitizers, a busy machine)
  port=$(sed -n 's/^hosting on port \([0-9]*\);.*/\1/p' host.log)
  [ -n "$port" ] && break
  kill -0 "$host_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { echo "FAILED: the host never said its port"; cat host.log; exit 1; }
set +e
"$join_program" join "127.0.0.1:$port" invitation.txt --no-window --seconds 6 >join.log 2>&1
join_status=$?
wait "$host_pid"
host_status=$?
set -e
judge "$host_status" "$join_status"
echo "OK: both peers met and each saw the other's ball move"
