#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bash cmake/install-deps.sh SET: installs the Debian packages a set needs, only those missing.
#   match  what `bash cmake/run.sh match` needs: the build tools, the SDK's libraries, and what
#          the samples draw with (gnuplot for shoal-lan-match --plot, SDL2 for shoal-two-peers)
#   test   the match's, and what every test needs (`bash cmake/run.sh test`)
#   fuzz   the match's, and clang with libFuzzer (tests/fuzz/run-fuzzers.sh)
#   windows  the test set's, and the Windows cross-build's tools (cmake --preset windows-mingw)
#          with wine, which runs its programs and the windows: tests (large: only on request)
# `--list` after the set prints its packages and exits. Fast when nothing is missing: one
# dpkg-query call, no apt.
set -euo pipefail

match=(
  build-essential
  cmake
  ninja-build
  ccache        # compiler cache: fresh clones and one-line changes rebuild fast
  pkg-config
  libenet-dev
  libsodium-dev # encrypted, authenticated links (sdk/src/security)
  libcereal-dev
  libfmt-dev
  gnuplot-nox   # shoal-lan-match --plot
  libsdl2-dev   # the windows of shoal-two-peers and shoal-arena
)
test=(
  "${match[@]}"
  doctest-dev
  libimgui-dev  # shoal-arena overlay (its library has the SDL2 backend)
  libstb-dev    # needed by imgui; stb_image_write for arena screenshots
  xvfb          # arena screenshot test under a virtual X server
  xauth         # xvfb-run needs it
  iproute2      # `ip netns`: tests in network namespaces (tests/netns.sh)
  iptables      # NAT traversal test (tests/nat): MASQUERADE in network namespaces
  libbullet-dev # shoal::bullet, Bullet behind shoal::Simulation (sdk/engines/bullet)
  libbox2d-dev  # shoal::box2d, Box2D behind shoal::Simulation (sdk/engines/box2d)
  doxygen       # the API reference and guides (cmake --build build --target docs, tests/docs)
  chromium      # tests/docs opens every page headless; the test skips without it
  python3-dev   # the Python module shoal (bindings/python): Debian's Python and its headers
  pybind11-dev  # ... built with pybind11
  python3-numpy # ... its bulk reads are numpy arrays
  python3-pytest      # tests/python
  python3-matplotlib  # the divergence plot sample (optional: its test skips without it)
)
fuzz=(
  "${match[@]}"
  doctest-dev         # configuring with the tests on (the fuzz build does) looks for it
  clang-14            # the libFuzzer targets (tests/fuzz/run-fuzzers.sh)
  libclang-rt-14-dev  # libFuzzer and the sanitizers' runtimes for clang-14
)
windows=(
  "${test[@]}"
  g++-mingw-w64-x86-64-posix  # the cross compilers, posix threads (std::thread with GCC 12)
  wine64                      # runs the Windows programs and tests here
)

case "${1:-}" in
  match) packages=("${match[@]}") ;;
  test) packages=("${test[@]}") ;;
  fuzz) packages=("${fuzz[@]}") ;;
  windows) packages=("${windows[@]}") ;;
  *)
    echo "usage: bash cmake/install-deps.sh match|test|fuzz|windows [--list]" >&2
    echo "  match: build tools, ENet, libsodium, Cereal, fmt, gnuplot, SDL2 (the main job and samples)" >&2
    echo "  test:  the match's, and what the tests need (doctest, engines, Xvfb, Doxygen, Chromium...)" >&2
    echo "  fuzz:  the match's, and clang-14 with libFuzzer" >&2
    echo "  windows: the test set's, and mingw-w64 with wine (cmake --preset windows-mingw)" >&2
    exit 2
    ;;
esac
if [ "${2:-}" = --list ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
set_name=$1

# The C# binding's reference assemblies from NuGet, once per machine (where dotnet is installed).
[ "$set_name" = match ] || bash "$(dirname "${BASH_SOURCE[0]}")/../bindings/csharp/install-reference-pack.sh"

installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null \
  | awk '$2 == "ii" { print $1 }' || true)
missing=()
for package in "${packages[@]}"; do
  grep -qxF "$package" <<<"$installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root (or with sudo): apt-get install ${missing[*]}" >&2
    exit 1
  fi
else
  as_root=()
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
