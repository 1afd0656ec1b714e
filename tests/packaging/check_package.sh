#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_package.sh BUILD_DIR WORK_DIR CONSUMER_DIR CXX VERSION C_API ENGINES [CXX_FLAG...]
# Installs BUILD_DIR into WORK_DIR/prefix, then builds and runs the consumer with CMake's
# find_package(shoal) (and its C program when C_API is ON: Shoal was built with its C API) and
# with pkg-config; ENGINES ("bullet,box2d", or "") are the engine adapters Shoal was built
# with, each found as a component and as shoal-ENGINE.pc. Fails on the first step that fails.
set -euo pipefail
build_dir=$1 work=$2 consumer=$3 cxx=$4 version=$5 c_api=$6 engines=${7//,/;}
shift 7
cxx_flags="$*"  # the sanitizer flags Shoal was built with, if any
prefix=$work/prefix

rm -rf "$work"
mkdir -p "$work"
step() { echo "== $*"; }

step "install into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for file in include/shoal/types.hpp include/shoal/drop_reason.hpp; do
  [ -f "$prefix/$file" ] || { echo "install did not produce $file"; exit 1; }
done

step "find_package(shoal) consumer"
cmake -S "$consumer" -B "$work/consumer-cmake" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$cxx_flags" \
  -DCMAKE_C_FLAGS="$cxx_flags" -DEXPECT_C_API="$c_api" -DEXPECT_ENGINES="$engines" \
  -DEXPECTED_SHOAL_VERSION="$version" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer-cmake"
"$work/consumer-cmake/shoal-consumer"
if [ "$c_api" = ON ]; then
  [ -f "$prefix/include/shoal/shoal.h" ] || { echo "install did not produce include/shoal/shoal.h"; exit 1; }
  "$work/consumer-cmake/shoal-c-consumer"
fi
if [ -n "$engines" ]; then
  "$work/consumer-cmake/shoal-engines-consumer"
fi

step "pkg-config consumer"
pc_path=$(dirname "$(find "$prefix" -name shoal.pc -print -quit)")
export PKG_CONFIG_PATH=$pc_path
pc_version=$(pkg-config --modversion shoal)
[ "$pc_version" = "$version" ] || { echo "shoal.pc says version $pc_version, expected $version"; exit 1; }
pkg-config --cflags --libs shoal
# The library is static by default, so link with --static to pull in ENet and fmt.
# shellcheck disable=SC2046,SC2086
"$cxx" -std=c++20 $cxx_flags "$consumer/main.cpp" -o "$work/consumer-pkgconfig" \
  $(pkg-config --cflags --libs --static shoal)
"$work/consumer-pkgconfig"
if [ -n "$engines" ]; then
  modules=() defines=()
  for engine in ${engines//;/ }; do
    modules+=("shoal-$engine")
    defines+=("-DSHOAL_CONSUMER_${engine^^}")
  done
  # shellcheck disable=SC2046,SC2086
  "$cxx" -std=c++20 $cxx_flags "${defines[@]}" "$consumer/engines.cpp" -o "$work/engines-pkgconfig" \
    $(pkg-config --cflags --libs --static "${modules[@]}")
  "$work/engines-pkgconfig"
fi
echo "packaging: ok"
