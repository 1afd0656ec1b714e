# SPDX-License-Identifier: MIT
# Sourced by test scripts that need a shoal-relay on loopback (bash, set -euo pipefail):
#   start_relay RELAY_EXE   starts it on a free port of 127.0.0.1, logging to $relay_log, and
#                           sets $relay_port from its "serving on" line (fails after 10 s);
#   stop_relay              stops it (TERM, then KILL after 5 s); safe to call twice, and
#                           installed as the EXIT trap by start_relay;
#   relay_alive             whether it is still running.
relay_pid=
relay_port=
relay_dir=$(mktemp -d)
relay_log=$relay_dir/relay.log

stop_relay() {
  if [[ -n $relay_pid ]] && kill -0 "$relay_pid" 2>/dev/null; then
    kill -TERM "$relay_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$relay_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$relay_pid" 2>/dev/null || true
    wait "$relay_pid" 2>/dev/null || true
  fi
  relay_pid=
}

relay_alive() { [[ -n $relay_pid ]] && kill -0 "$relay_pid" 2>/dev/null; }

start_relay() {
  trap 'stop_relay; rm -rf "$relay_dir"' EXIT
  "$1" --bind 127.0.0.1 --port 0 --stats-interval 1 >"$relay_log" 2>&1 &
  relay_pid=$!
  for _ in $(seq 100); do  # up to 10 s for the first line (sanitizers start slowly)
    if line=$(grep -m1 'serving on' "$relay_log"); then
      relay_port=${line##*:}
      relay_port=${relay_port%% *}
      echo "shoal-relay serving on 127.0.0.1:$relay_port"
      return 0
    fi
    relay_alive || break
    sleep 0.1
  done
  echo "shoal-relay did not report its port:" >&2
  cat "$relay_log" >&2
  return 1
}

# check_relay_carried SESSION_REGEX MEMBERS: prints the relay's log, then fails when the relay
# died or its per-session statistics never showed traffic in a session matching SESSION_REGEX
# with MEMBERS members (the proof that the traffic went through it).
check_relay_carried() {
  local failed=0
  echo "--- relay log ---"
  cat "$relay_log"
  if ! relay_alive; then
    echo "shoal-relay died during the run" >&2
    failed=1
  fi
  if ! grep -Eq "session=$1 .*members=$2 in=[1-9]" "$relay_log"; then
    echo "the relay never carried a session '$1' of $2 members" >&2
    failed=1
  fi
  return "$failed"
}
