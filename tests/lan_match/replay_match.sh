#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A recorded 4-peer match, replayed by shoal-replay peer by peer, with two busy loops beside it
# hogging the CPU: every replay must be identical to its recording (states, sends and events
# after every update, final states field by field), and the four end in the same world.
#   replay_match.sh LAN_MATCH_EXE REPLAY_EXE WORK_DIR
set -euo pipefail
match=$1 replay=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$match" --peers 4 --objects 40 --seconds 4 --settle-seconds 4 --loss 0.1 --latency-ms 30 --jitter-ms 5 \
  --seed 5 --record "$work/rec" > "$work/match.log"
recordings=("$work"/rec/peer-*.shoalrec)
[ ${#recordings[@]} -eq 4 ] || { echo "expected 4 recordings, found ${#recordings[@]}"; exit 1; }

hogs=()
stop_hogs() { for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_hogs EXIT
for _ in 1 2; do
  # A busy loop, bounded: it ends by itself after a minute if the trap never runs.
  ( end=$((SECONDS + 60)); while [ $SECONDS -lt $end ]; do :; done ) &
  hogs+=($!)
done

status=0
"$replay" "${recordings[@]}" > "$work/replay.log" || status=$?
cat "$work/replay.log"
[ "$status" -eq 0 ] || { echo "shoal-replay exited with $status, expected 0"; exit 1; }
identical=$(grep -c ': identical$' "$work/replay.log" || true)
[ "$identical" -eq 4 ] || { echo "expected 4 identical replays, got $identical"; exit 1; }
grep -q '^0 of 44 bodies differ between the 4 replays' "$work/replay.log" ||
  { echo "the replays' final worlds differ"; exit 1; }
echo "4 of 4 replays identical under load"
