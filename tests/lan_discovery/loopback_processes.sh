#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Two seeker processes share the discovery port on one machine; one announcer process; both
# seekers must find it, and a seeker of another session must not.
set -euo pipefail
probe=$1
port=47481
session="loopback-$$"
out=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$out"' EXIT

"$probe" seek "$session" "$port" 8000 >"$out/a" & a=$!
"$probe" seek "$session" "$port" 8000 >"$out/b" & b=$!
"$probe" seek "other-$session" "$port" 1500 >"$out/other" & other=$!
"$probe" announce "$session" "$port" 127.0.0.1:40123 10 loopback & announcer=$!

status=0
wait "$a" || status=1
wait "$b" || status=1
if wait "$other"; then echo "a seeker of another session found: $(cat "$out/other")"; status=1; fi
kill "$announcer" 2>/dev/null || true
for f in a b; do
  echo "seeker $f: $(cat "$out/$f")"
  grep -qx "found 127.0.0.1:40123 version [0-9]*" "$out/$f" || status=1
done
exit $status
