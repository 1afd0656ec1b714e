#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_reference.sh DOXYGEN DOXYFILE OUT_DIR: runs Doxygen on the public headers alone and
# fails, listing them, on any warning (an undocumented declaration, a broken doc command).
set -euo pipefail
doxygen=$1 doxyfile=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
status=0
"$doxygen" "$doxyfile" >"$out/doxygen.log" 2>&1 || status=$?
warnings=0
[ -s "$out/warnings.txt" ] && warnings=$(grep -cE "(warning|error):" "$out/warnings.txt" || true)
if [ "$status" -ne 0 ] || [ "$warnings" -gt 0 ]; then
  echo "FAIL doxygen exited $status with $warnings warning(s):" >&2
  cat "$out/warnings.txt" "$out/doxygen.log" >&2 || true
  exit 1
fi
pages=$(find "$out/html" -name '*.html' | wc -l)
echo "reference: $pages pages, 0 warnings: every public declaration is documented"
