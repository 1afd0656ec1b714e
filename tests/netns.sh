# SPDX-License-Identifier: MIT
# Network namespaces for the tests that need more than loopback (a LAN, NATs), sourced by their
# scripts (tests/nat, tests/lan_discovery, tests/two_peers):
#   source tests/netns.sh
#   netns_require [WHY]     exit 77 (skipped) unless root and `ip netns` work
#   netns_add NAME...       new namespaces, loopback up; netns_cleanup removes them
#   netns_link NS_A IF_A ADDR_A NS_B IF_B ADDR_B   a veth pair between two namespaces
#   netns_cleanup           deletes every namespace made here (their veths and rules go too)
# The caller sets `trap ... EXIT` to call netns_cleanup (after stopping its own processes).

netns_made=()

netns_require() {
  local why=${1:-creating network namespaces}
  if [ "$(id -u)" -ne 0 ]; then
    echo "SKIPPED: $why needs root"
    exit 77
  fi
  if ! ip netns list >/dev/null 2>&1; then
    echo "SKIPPED: 'ip netns' does not work here"
    exit 77
  fi
}

netns_add() {
  local ns
  for ns in "$@"; do
    ip netns add "$ns"
    netns_made+=("$ns")
    ip -n "$ns" link set lo up
  done
}

netns_link() {
  ip link add "$2" type veth peer name "$5"
  ip link set "$2" netns "$1"
  ip link set "$5" netns "$4"
  ip -n "$1" addr add "$3" dev "$2"
  ip -n "$4" addr add "$6" dev "$5"
  ip -n "$1" link set "$2" up
  ip -n "$4" link set "$5" up
}

netns_cleanup() {
  local ns
  for ns in "${netns_made[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  netns_made=()
}
