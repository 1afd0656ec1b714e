#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# readme_quickstart.sh README BIN_DIR: runs the two commands of the README's Quickstart as they
# are written, on two machines of one LAN: network namespaces joined by a veth pair, the host's
# holding the address the joiner's command names (192.168.1.20), the joiner's the next one. So
# the host must be reachable from another address, not only from its own loopback. Without a
# display, as here, the programs run window-less for their default time. Needs root and
# `ip netns` (exit 77, skipped, without). Removes the namespaces however it ends.
set -euo pipefail
readme=$1 bin_dir=$2
source "$(dirname "${BASH_SOURCE[0]}")/../netns.sh"
source "$(dirname "${BASH_SOURCE[0]}")/verdict.sh"

# The sh blocks of the README's "## Quickstart" section: their command lines, comments left out.
commands=$(awk '/^## Quickstart/ { section = 1; next } /^## / { section = 0 }
  section && /^```sh/ { block = 1; next } block && /^```/ { block = 0; next } block' "$readme" \
  | sed 's/[[:space:]]*#.*$//' | sed '/^[[:space:]]*$/d')
host_command=$(grep -m1 '^build/bin/shoal-two-peers host ' <<<"$commands" || true)
join_command=$(grep -m1 '^build/bin/shoal-two-peers join ' <<<"$commands" || true)
[ -n "$host_command" ] && [ -n "$join_command" ] || {
  echo "FAILED: the README's Quickstart has no 'build/bin/shoal-two-peers host/join' commands:"
  echo "$commands"; exit 1; }
echo "host:   $host_command"
echo "joiner: $join_command"
host_address=$(sed -n 's/.* join \([0-9.]*\):[0-9]*.*/\1/p' <<<"$join_command")
[[ "$host_address" =~ ^([0-9]+\.[0-9]+\.[0-9]+)\.([0-9]+)$ ]] || { echo "FAILED: no IPv4 host in: $join_command"; exit 1; }
joiner_address=${BASH_REMATCH[1]}.$((BASH_REMATCH[2] % 250 + 1))

netns_require
tag=$$
host_ns="shoal-qs-host-$tag" joiner_ns="shoal-qs-join-$tag"
work=$(mktemp -d)
host_pid=""
cleanup() {
  [ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null || true
  netns_cleanup
  rm -rf "$work"
}
trap cleanup EXIT
netns_add "$host_ns" "$joiner_ns"
netns_link "$host_ns" "qh$tag" "$host_address/24" "$joiner_ns" "qj$tag" "$joiner_address/24"

# As on each machine: a checkout whose build/bin holds the programs; the invitation file is
# "copied" by both namespaces sharing this folder.
mkdir -p "$work/build"
ln -s "$bin_dir" "$work/build/bin"
cd "$work"
quiet_env=(env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER)
ip netns exec "$host_ns" "${quiet_env[@]}" bash -c "$host_command" >host.log 2>&1 &
host_pid=$!
invitation=$(awk '{ print $4 }' <<<"$host_command")
for _ in $(seq 200); do  # up to 20 s for the host to write the invitation
  [ -s "$invitation" ] && grep -q "^hosting on port" host.log && break
  kill -0 "$host_pid" 2>/dev/null || break
  sleep 0.1
done
[ -s "$invitation" ] || { echo "FAILED: the host wrote no invitation"; cat host.log; exit 1; }
set +e
ip netns exec "$joiner_ns" "${quiet_env[@]}" bash -c "$join_command" >join.log 2>&1
join_status=$?
wait "$host_pid"
host_status=$?
host_pid=""
set -e
echo "host on $host_address, joiner on $joiner_address"
judge "$host_status" "$join_status"
echo "OK: the Quickstart as written: a host on $host_address joined from $joiner_address"
