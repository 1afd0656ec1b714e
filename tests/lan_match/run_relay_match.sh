#!/usr/bin/env bash
# A match played entirely through a shoal-relay on loopback:
#   run_relay_match.sh RELAY_EXE CMAKE_EXE run_match.cmake -DMATCH=... -DPEERS=... -DREPORT=... "-DARGS=..."
# Starts the relay on a free port (read from its "serving on" line), runs run_match.cmake with
# --relay added to the match's arguments, and stops the relay on every exit path.
set -euo pipefail
relay_exe=$1 cmake_exe=$2 script=$3
shift 3

work=$(mktemp -d)
relay_pid=
cleanup() {
  if [[ -n $relay_pid ]] && kill -0 "$relay_pid" 2>/dev/null; then
    kill -TERM "$relay_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$relay_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$relay_pid" 2>/dev/null || true
    wait "$relay_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$relay_exe" --bind 127.0.0.1 --port 0 --stats-interval 1 >"$work/relay.log" 2>&1 &
relay_pid=$!

port=
for _ in $(seq 100); do  # up to 10 s for the first line (sanitizers start slowly)
  if line=$(grep -m1 'serving on' "$work/relay.log"); then
    port=${line##*:}
    port=${port%% *}
    break
  fi
  kill -0 "$relay_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -z $port ]]; then
  echo "shoal-relay did not report its port:" >&2
  cat "$work/relay.log" >&2
  exit 1
fi
echo "shoal-relay serving on 127.0.0.1:$port"

args=() peers=
for a in "$@"; do
  [[ $a == -DARGS=* ]] && a="$a;--relay;127.0.0.1:$port"
  [[ $a == -DPEERS=* ]] && peers=${a#-DPEERS=}
  args+=("$a")
done
status=0
"$cmake_exe" "${args[@]}" -P "$script" || status=$?
echo "--- relay log ---"
cat "$work/relay.log"
if ! kill -0 "$relay_pid" 2>/dev/null; then
  echo "shoal-relay died during the match" >&2
  status=1
fi
# The relay's per-session statistics prove the traffic went through it.
if ! grep -Eq "session=shoal-lan-match-[0-9]+ .*members=$peers in=[1-9]" "$work/relay.log"; then
  echo "the relay never carried a session of $peers members" >&2
  status=1
fi
exit "$status"
