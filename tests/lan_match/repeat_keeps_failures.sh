#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# shoal-lan-match --repeat: one line per match and a summary; exit 0 only if every match was
# consistent; with --record, only failing matches' recordings stay.
#   repeat_keeps_failures.sh LAN_MATCH_EXE WORK_DIR
set -euo pipefail
match=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
common=(--peers 2 --objects 4 --seconds 1 --settle-seconds 1 --latency-ms 10)

"$match" "${common[@]}" --repeat 2 --seed 3 --record "$work/good" --report "$work/good.json" > "$work/good.log"
cat "$work/good.log"
grep -q '^seed 3: consistent' "$work/good.log" && grep -q '^seed 4: consistent' "$work/good.log" ||
  { echo "expected a line per match, seeds 3 and 4"; exit 1; }
grep -q '^summary: 2 of 2 matches consistent' "$work/good.log" || { echo "no summary line"; exit 1; }
[ -z "$(ls -A "$work/good")" ] || { echo "consistent matches left recordings: $(ls "$work/good")"; exit 1; }
grep -q '"failed": 0' "$work/good.json" || { echo "the JSON summary does not say 0 failed"; exit 1; }

status=0
"$match" "${common[@]}" --repeat 2 --seed 3 --misreport-peer 1 --record "$work/bad" > "$work/bad.log" || status=$?
cat "$work/bad.log"
[ "$status" -eq 1 ] || { echo "expected exit 1 when matches fail, got $status"; exit 1; }
grep -q '^summary: 0 of 2 matches consistent' "$work/bad.log" || { echo "no failing summary"; exit 1; }
for seed in 3 4; do
  n=$(ls "$work/bad/seed-$seed"/peer-*.shoalrec 2>/dev/null | wc -l)
  [ "$n" -eq 2 ] || { echo "seed $seed: expected its 2 recordings kept, found $n"; exit 1; }
done
echo "--repeat: lines, summary, exit codes and kept recordings as expected"
