# SPDX-License-Identifier: MIT
# Sourced by this folder's scripts: judge HOST_STATUS JOIN_STATUS prints both peers' logs
# (host.log, join.log, in the current folder) and fails unless both exited 0 (each does only
# when the other player's ball moved in its own world) and the two said they met.
judge() {
  echo "== host (exit $1)"; cat host.log
  echo "== joiner (exit $2)"; cat join.log
  [ "$1" -eq 0 ] && [ "$2" -eq 0 ] || { echo "FAILED: a peer did not see the other's ball move"; exit 1; }
  grep -q "^peer 1 joined" host.log || { echo "FAILED: the host never saw the joiner join"; exit 1; }
  grep -q "^joined the match as peer 1" join.log || { echo "FAILED: the joiner never joined"; exit 1; }
}
