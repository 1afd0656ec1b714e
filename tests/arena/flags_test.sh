#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A wrong flag or value: exit 2 and a message naming what is wrong, before any window opens.
# usage: flags_test.sh ARENA
set -u
arena=$1
failures=0

expect_usage_error() {
  local message=$1
  shift
  local stderr status
  stderr=$("$arena" "$@" 2>&1 >/dev/null)
  status=$?
  if [ $status -ne 2 ] || ! grep -qF -- "$message" <<<"$stderr"; then
    echo "FAIL: shoal-arena $* exited $status with: $stderr"
    echo "      expected exit 2 and '$message'"
    failures=$((failures + 1))
  fi
}

expect_usage_error "unknown flag '--bogus'" --bogus
expect_usage_error "--bots expects a number from 0 to 7, got '9'" --bots 9
expect_usage_error "--loss expects a number from 0" --loss half
expect_usage_error "--join expects HOST:PORT, got 'somehost'" --join somehost
expect_usage_error "--screenshot needs --frames N" --screenshot out.png
expect_usage_error "--host and --join exclude each other" --host --join 127.0.0.1:40000
expect_usage_error "--frames needs a value" --frames
expect_usage_error "--physics: unknown engine 'havok': expected reference, bullet or box2d" --physics havok
[ $failures -eq 0 ] && echo "PASS: every wrong flag was refused with exit 2 and a clear message"
exit $((failures > 0))
