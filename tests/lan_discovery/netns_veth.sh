#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two network namespaces joined by a veth pair: a seeker in one finds an announcer in the
# other by broadcast. Needs root and `ip netns`; exits 77 (skipped) without them. Removes the
# namespaces it created (which removes the veth pair) however it ends.
set -euo pipefail
probe=$1
source "$(dirname "${BASH_SOURCE[0]}")/../netns.sh"
netns_require
tag=$$
seeker_ns="shoal-seek-$tag"
announcer_ns="shoal-announce-$tag"
trap netns_cleanup EXIT
netns_add "$seeker_ns" "$announcer_ns"
netns_link "$seeker_ns" "sv$tag" 10.213.0.1/24 "$announcer_ns" "av$tag" 10.213.0.2/24

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
