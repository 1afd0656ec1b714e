#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two network namespaces joined by a veth pair: a seeker in one finds an announcer in the
# other by broadcast. Needs root and `ip netns`; exits 77 (skipped) without them. Removes the
# namespaces it created (which removes the veth pair) however it ends.
set -euo pipefail
probe=$1
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: creating network namespaces needs root"; exit 77
fi
if ! ip netns list >/dev/null 2>&1; then
  echo "SKIPPED: 'ip netns' does not work here"; exit 77
fi
tag=$$
seeker_ns="shoal-seek-$tag"
announcer_ns="shoal-announce-$tag"
cleanup() {
  ip netns del "$seeker_ns" 2>/dev/null || true
  ip netns del "$announcer_ns" 2>/dev/null || true
}
trap cleanup EXIT
ip netns add "$seeker_ns"
ip netns add "$announcer_ns"
ip link add "sv$tag" type veth peer name "av$tag"
ip link set "sv$tag" netns "$seeker_ns"
ip link set "av$tag" netns "$announcer_ns"
ip -n "$seeker_ns" addr add 10.213.0.1/24 dev "sv$tag"
ip -n "$announcer_ns" addr add 10.213.0.2/24 dev "av$tag"
for ns in "$seeker_ns" "$announcer_ns"; do ip -n "$ns" link set lo up; done
ip -n "$seeker_ns" link set "sv$tag" up
ip -n "$announcer_ns" link set "av$tag" up

session="netns-$tag"
ip netns exec "$announcer_ns" "$probe" announce "$session" 47482 10.213.0.2:40200 10 & announcer=$!
set +e
result=$(ip netns exec "$seeker_ns" "$probe" seek "$session" 47482 8000)
status=$?
set -e
kill "$announcer" 2>/dev/null || true
wait "$announcer" 2>/dev/null || true
echo "seeker: $result"
[ $status -eq 0 ] && [[ "$result" =~ ^found\ 10\.213\.0\.2:40200\ version ]]
