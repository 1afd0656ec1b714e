#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# NAT traversal across network namespaces. Two homes, each behind its own NAT (iptables
# MASQUERADE plus the usual home-router firewall: nothing unsolicited comes in), and a public
# network in between where shoal-relay runs:
#
#   home1 192.168.1.2 -- 192.168.1.1 nat1 10.201.1.2 --\                      (relay on 10.201.0.1)
#                                                       public 10.201.1.1 / 10.201.2.1
#   home2 192.168.2.2 -- 192.168.2.1 nat2 10.201.2.2 --/
#
# The public network has no route to either home, so the only way between the homes is
# through the NATs' mappings. A host peer in home1 and a joiner in home2 meet through the
# relay, punch, and must end up on a direct path on both sides; the relay must have seen them
# at their NATs' addresses. Needs root, `ip netns` and iptables; exits 77 (skipped) without
# them. Removes everything it created (namespaces, hence their veths and rules) however it ends.
set -euo pipefail
probe=$1
relay_bin=$2
source "$(dirname "${BASH_SOURCE[0]}")/../netns.sh"
netns_require "creating network namespaces and NAT rules"
if ! command -v iptables >/dev/null; then
  echo "SKIPPED: iptables is not installed (bash cmake/install-deps.sh test installs it)"; exit 77
fi

tag=$$
public="shoal-public-$tag"; nat1="shoal-nat1-$tag"; nat2="shoal-nat2-$tag"
home1="shoal-home1-$tag"; home2="shoal-home2-$tag"
namespaces=("$public" "$nat1" "$nat2" "$home1" "$home2")
pids=()
outputs=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -f "${outputs[@]}"
  netns_cleanup  # deleting a namespace deletes its veth ends (and their peers) and its iptables rules
}
trap cleanup EXIT
netns_add "${namespaces[@]}"
in_ns() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

netns_link "$public" "pn1-$tag" 10.201.1.1/24 "$nat1" "n1p-$tag" 10.201.1.2/24
netns_link "$public" "pn2-$tag" 10.201.2.1/24 "$nat2" "n2p-$tag" 10.201.2.2/24
netns_link "$nat1" "n1h-$tag" 192.168.1.1/24 "$home1" "h1-$tag" 192.168.1.2/24
netns_link "$nat2" "n2h-$tag" 192.168.2.1/24 "$home2" "h2-$tag" 192.168.2.2/24
ip -n "$public" addr add 10.201.0.1/32 dev lo
in_ns "$public" sysctl -qw net.ipv4.ip_forward=1
ip -n "$home1" route add default via 192.168.1.1
ip -n "$home2" route add default via 192.168.2.1
for n in 1 2; do
  ns="shoal-nat$n-$tag"; wan="n${n}p-$tag"
  ip -n "$ns" route add default via "10.201.$n.1"
  in_ns "$ns" sysctl -qw net.ipv4.ip_forward=1
  in_ns "$ns" iptables -t nat -A POSTROUTING -o "$wan" -j MASQUERADE
  # A home router's firewall: from outside, only replies to what went out. (Dropping the
  # unsolicited in INPUT also keeps it from leaving a conntrack entry that would make the
  # NAT pick another port for the home's own punch towards the same remote.)
  for chain in INPUT FORWARD; do
    in_ns "$ns" iptables -A "$chain" -i "$wan" -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
    in_ns "$ns" iptables -A "$chain" -i "$wan" -j DROP
  done
done

# Bound to every address on a host with several: each reply must leave from the address the
# client dialled, or no NAT mapping matches it (the socket tracks that with IP_PKTINFO).
# `ip netns exec` execs the program, so $! is what to stop.
ip netns exec "$public" "$relay_bin" --bind 0.0.0.0 --port 40300 --stats-interval 0 & pids+=($!)
out1=$(mktemp); out2=$(mktemp); outputs=("$out1" "$out2")
ip netns exec "$home1" "$probe" host 10.201.0.1:40300 41001 20 >"$out1" & host_pid=$!; pids+=($host_pid)
set +e
in_ns "$home2" "$probe" join 10.201.0.1:40300 41002 192.168.1.2:41001 15 >"$out2"
join_status=$?
wait "$host_pid"; host_status=$?
set -e
host_line=$(cat "$out1"); join_line=$(cat "$out2")
echo "$host_line"
echo "$join_line"
echo "host exit $host_status, joiner exit $join_status"
[ "$host_status" -eq 0 ] && [ "$join_status" -eq 0 ] || { echo "FAILED: the peers did not connect directly"; exit 1; }
# Through NAT for real: the relay saw each home at its NAT's public address, port preserved.
[[ "$host_line" =~ path=direct\ public=10\.201\.1\.2:41001\  ]] || { echo "FAILED: host not direct via nat1"; exit 1; }
[[ "$join_line" =~ path=direct\ public=10\.201\.2\.2:41002\  ]] || { echo "FAILED: joiner not direct via nat2"; exit 1; }
# Both punched, and each home received the other's punches through both NATs.
[[ "$host_line" =~ punch_rounds=[1-9].*punches_in=[1-9] ]] || { echo "FAILED: host did not punch"; exit 1; }
[[ "$join_line" =~ punch_rounds=[1-9].*punches_in=[1-9] ]] || { echo "FAILED: joiner did not punch"; exit 1; }
echo "OK: direct after punching through two NATs"
