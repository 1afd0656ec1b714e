#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_versions.sh BIN_DIR VERSION CHANGELOG: every program in BIN_DIR answers --version with
# "NAME VERSION (wire W, relay R)" (a C program, NAME ending in -c: "NAME VERSION (wire W)") and
# exit 0, and CHANGELOG.md has an entry for VERSION.
set -euo pipefail
bin_dir=$1 version=$2 changelog=$3
failures=0 checked=0
for program in "$bin_dir"/shoal-*; do
  [ -x "$program" ] || continue
  name=$(basename "$program")
  # The C binding tests are plain C programs of the test suite, not Shoal's programs.
  case "$name" in shoal-test-bindings-*) continue ;; esac
  checked=$((checked + 1))
  if ! output=$(timeout 10 "$program" --version 2>&1); then
    echo "FAIL $name --version exited non-zero: $output" >&2
    failures=$((failures + 1))
  elif [[ "$name" == *-c ]] && grep -qE "^$name $version \(wire [0-9]+\)$" <<<"$output"; then
    :  # a C sample: the C API gives no relay version
  elif ! grep -qE "^$name $version \(wire [0-9]+, relay [0-9]+\)$" <<<"$output"; then
    echo "FAIL $name --version printed '$output', expected '$name $version (wire W, relay R)'" >&2
    failures=$((failures + 1))
  fi
done
if [ "$checked" -eq 0 ]; then
  echo "FAIL no program found in $bin_dir" >&2
  exit 1
fi
if ! grep -qE "^## \[$version\]" "$changelog"; then
  echo "FAIL CHANGELOG.md has no '## [$version]' entry" >&2
  failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || exit 1
echo "$checked programs print version $version; CHANGELOG.md lists it"
