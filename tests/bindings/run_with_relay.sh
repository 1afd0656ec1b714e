#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_with_relay.sh RELAY_EXE TEST_EXE: runs a C test against a shoal-relay on loopback, the
# relay's port in SHOAL_TEST_RELAY_PORT; fails when the test fails, when the relay dies, or
# when the relay never carried a session of two members.
set -euo pipefail
relay_exe=$1 test_exe=$2
# shellcheck source=../relay_process.sh
source "$(dirname "$0")/../relay_process.sh"
start_relay "$relay_exe"
status=0
SHOAL_TEST_RELAY_PORT=$relay_port "$test_exe" || status=$?
check_relay_carried "c-api-relay" 2 || status=1
exit "$status"
