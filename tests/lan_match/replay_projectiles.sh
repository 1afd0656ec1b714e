#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A recorded projectile match on a harsh network (15% loss, 70 ms +-20, 5% duplicated and
# reordered; every peer fires 10 a second): its recordings hold the spawns and removals each
# peer made, and shoal-replay plays one peer again bit for bit (states, sends and events after
# every update, final states field by field).
#   replay_projectiles.sh LAN_MATCH_EXE REPLAY_EXE WORK_DIR
set -euo pipefail
match=$1 replay=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
status=0
"$match" --peers 3 --objects 20 --seconds 3 --settle-seconds 2 --loss 0.15 --latency-ms 70 --jitter-ms 20 \
  --duplicate 0.05 --reorder 0.05 --projectiles 10 --seed 21 --record "$work/rec" > "$work/match.log" || status=$?
cat "$work/match.log"
# The verdict is the consistency tests' business; here the match must only have run to its end.
[ "$status" -le 1 ] || { echo "shoal-lan-match exited with $status, expected a verdict (0 or 1)"; exit 1; }
grep -q '^verdict: ' "$work/match.log" || { echo "the match gave no verdict"; exit 1; }
spawned=$(awk '/^projectiles:/ {table = 1; next} table && $1 ~ /^[0-9]+$/ && NF == 6 {print $2}' "$work/match.log")
[ -n "$spawned" ] && ! grep -qx 0 <<<"$spawned" || { echo "expected every peer to apply spawns, got: $spawned"; exit 1; }
recordings=("$work"/rec/peer-*.shoalrec)
[ ${#recordings[@]} -eq 3 ] || { echo "expected 3 recordings, found ${#recordings[@]}"; exit 1; }

"$replay" "$work/rec/peer-1.shoalrec" > "$work/replay.log" || status=$?
cat "$work/replay.log"
grep -q ': identical$' "$work/replay.log" || { echo "the replay of peer #1 is not identical to its recording"; exit 1; }
echo "a harsh projectile match recorded, and one peer replayed bit for bit"
