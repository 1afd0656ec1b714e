#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# windows_native_in_package.sh CMAKE PACKAGE WINDOWS_DLL SHOAL_H
# The C# package (PACKAGE, a .nupkg) carries a Windows shoal_c.dll as
# runtimes/win-x64/native/shoal_c.dll, where a Windows build left one (WINDOWS_DLL), and what it
# carries is a 64-bit Windows DLL of this C API: its image version is shoal.h's
# SHOAL_C_ABI_VERSION.SHOAL_C_API_VERSION (bindings/c gives the library that VERSION), it has no
# debug information left, and it exports every function shoal.h declares.
# Exits 77 (CTest: skipped), saying why, where there is no Windows shoal_c.dll or no mingw-w64.
set -uo pipefail
cmake=$1 package=$(realpath "$2") windows_dll=$3 header=$4
entry=runtimes/win-x64/native/shoal_c.dll

[ -f "$windows_dll" ] || {
  echo "skipped: no Windows build's shoal_c.dll at $windows_dll (docs/platforms.md: cmake --preset windows-mingw)"
  exit 77
}
objdump=$(command -v x86_64-w64-mingw32-objdump) || {
  echo "skipped: no x86_64-w64-mingw32-objdump to read the DLL with (bash cmake/install-deps.sh windows)"
  exit 77
}
fail() {
  echo "FAIL: $*"
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
listing=$(cd "$work" && "$cmake" -E tar tf "$package") || fail "cannot list $package"
grep -qx "$entry" <<< "$listing" ||
  fail "$package has no $entry; it lists: $(tr '\n' ' ' <<< "$listing")"
(cd "$work" && "$cmake" -E tar xf "$package" "$entry") || fail "cannot unpack $entry from $package"
headers=$("$objdump" -p "$work/$entry") || fail "$entry is not a file objdump reads"

grep -q "file format pei-x86-64" <<< "$headers" || fail "$entry is not a 64-bit Windows DLL"
grep -q "debugging information removed" <<< "$headers" || fail "$entry still carries its debug information"
abi=$(sed -n 's/^#define SHOAL_C_ABI_VERSION \([0-9]*\)$/\1/p' "$header")
api=$(sed -n 's/^#define SHOAL_C_API_VERSION \([0-9]*\)$/\1/p' "$header")
major=$(awk '$1 == "MajorImageVersion" { print $2 }' <<< "$headers")
minor=$(awk '$1 == "MinorImageVersion" { print $2 }' <<< "$headers")
[ "$major.$minor" = "$abi.$api" ] ||
  fail "$entry is C ABI $major, C API $minor; shoal.h is ABI $abi, API $api (build the Windows build, then this one, again)"

declared=$(grep -oE '^SHOAL_C_API [^(]*\bshoal_[a-z0-9_]+\(' "$header" | grep -oE 'shoal_[a-z0-9_]+\($' | tr -d '(' | sort -u)
exported=$(grep -oE '^\s*\[ *[0-9]+\] shoal_[a-z0-9_]+$' <<< "$headers" | awk '{ print $NF }' | sort -u)
[ -n "$declared" ] || fail "found no SHOAL_C_API function in $header"
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
[ -z "$missing" ] || fail "$entry does not export: $(tr '\n' ' ' <<< "$missing")"

echo "$entry: pei-x86-64, stripped, $(stat -c %s "$work/$entry") bytes, C ABI $major, C API $minor," \
  "exports all $(wc -l <<< "$declared") functions of shoal.h"
