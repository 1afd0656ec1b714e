#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# readme_code.sh README SAMPLE: the README's Quickstart code is the sample's own, which the
# build compiles: the first cpp block after "## Quickstart" must be, line for line, the lines
# between "// [quickstart]" and "// [/quickstart]" in SAMPLE, less their common indentation.
set -euo pipefail
readme=$1 sample=$2
shown=$(awk '/^## Quickstart/ { section = 1; next } /^## / { section = 0 }
  section && /^```cpp/ { block = 1; next } block && /^```/ { exit } block' "$readme")
compiled=$(awk '/\/\/ \[\/quickstart\]/ { exit } on; /\/\/ \[quickstart\]/ { on = 1 }' "$sample")
indent=$(sed -n 's/^\( *\)[^ ].*/\1/p' <<<"$compiled" | awk '{ print length }' | sort -n | head -1)
compiled=$(sed -E "s/^ {0,${indent:-0}}//" <<<"$compiled")
[ -n "$shown" ] || { echo "FAILED: no cpp block in the README's Quickstart"; exit 1; }
[ -n "$compiled" ] || { echo "FAILED: no // [quickstart] region in $sample"; exit 1; }
if [ "$shown" != "$compiled" ]; then
  echo "FAILED: the README's Quickstart code differs from $sample (< README, > sample):"
  diff <(echo "$shown") <(echo "$compiled") || true
  exit 1
fi
echo "ok: the README shows $(wc -l <<<"$shown") lines of $(basename "$sample"), as compiled"
