#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every source file says its licence in one line (LICENSE has the full text):
#   bash cmake/spdx.sh add     adds the line where it is missing (running it again changes nothing)
#   bash cmake/spdx.sh check   lists the files without it and fails if there are any (a test runs this)
# The line goes first, or after a script's #! line, in the comment style of the file.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tag="SPDX-License-Identifier: MIT"

# The sources: C and C++, shell, CMake, pkg-config and CMake templates. Build trees are skipped.
sources() {
  find sdk bindings samples tests cmake docs .ci CMakeLists.txt -type f \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.c' -o -name '*.h' -o -name '*.sh' \
       -o -name '*.cmake' -o -name 'CMakeLists.txt' -o -name '*.in' -o -name '*.gp' \
       -o -name '*.py' -o -name '*.js' -o -path '.ci/run' \) \
    -not -path '*/build/*' 2>/dev/null | sort
}

comment_for() {
  case "$1" in
    *.cpp | *.hpp | *.js) echo "// $tag" ;;
    *.c | *.h) echo "/* $tag */" ;;  # shoal.h stays valid C89
    *) echo "# $tag" ;;
  esac
}

has_tag() { head -n 3 "$1" | grep -qF "$tag"; }

case "${1:-}" in
  add)
    while IFS= read -r file; do
      has_tag "$file" && continue
      line=$(comment_for "$file")
      if head -n 1 "$file" | grep -q '^#!'; then
        { head -n 1 "$file"; echo "$line"; tail -n +2 "$file"; } >"$file.spdx"
      else
        { echo "$line"; cat "$file"; } >"$file.spdx"
      fi
      chmod --reference="$file" "$file.spdx"
      mv "$file.spdx" "$file"
      echo "spdx: added to $file"
    done < <(sources)
    ;;
  check)
    missing=0
    while IFS= read -r file; do
      if ! has_tag "$file"; then
        echo "spdx: no '$tag' line in the first 3 lines of $file" >&2
        missing=$((missing + 1))
      fi
    done < <(sources)
    if [ "$missing" -gt 0 ]; then
      echo "spdx: $missing file(s) without a licence line; run: bash cmake/spdx.sh add" >&2
      exit 1
    fi
    echo "spdx: $(sources | wc -l) files, each with its licence line"
    ;;
  *)
    echo "usage: bash cmake/spdx.sh add|check" >&2
    exit 2
    ;;
esac
