#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages Shoal needs to build and test, only those that are missing.
# Fast when nothing is missing: one dpkg-query call, no apt.
#   --windows  also the Windows cross-build's tools (cmake --preset windows-mingw) and wine,
#              which runs its programs and the windows: tests (large: not installed otherwise)
set -euo pipefail

# The one list of system packages; later features append here (SDL2, imgui, gnuplot, xvfb...).
packages=(
  build-essential
  cmake
  ninja-build
  ccache        # compiler cache: fresh clones and one-line changes rebuild fast
  pkg-config
  libenet-dev
  libsodium-dev # encrypted, authenticated links (sdk/src/security)
  libcereal-dev
  libfmt-dev
  doctest-dev
  gnuplot-nox   # shoal-lan-match --plot
  libsdl2-dev   # shoal-arena window
  libimgui-dev  # shoal-arena overlay (its library has the SDL2 backend)
  libstb-dev    # needed by imgui; stb_image_write for arena screenshots
  xvfb          # arena screenshot test under a virtual X server
  xauth         # xvfb-run needs it
  iptables      # NAT traversal test (tests/nat): MASQUERADE in network namespaces
  libbullet-dev # shoal::bullet, Bullet behind shoal::Simulation (sdk/engines/bullet)
  libbox2d-dev  # shoal::box2d, Box2D behind shoal::Simulation (sdk/engines/box2d)
  clang-14            # the libFuzzer targets (tests/fuzz/run-fuzzers.sh)
  libclang-rt-14-dev  # libFuzzer and the sanitizers' runtimes for clang-14
  doxygen       # the API reference and guides (cmake --build build --target docs, tests/docs)
  chromium      # tests/docs opens every page headless; the test skips without it
  python3-dev   # the Python module shoal (bindings/python): Debian's Python and its headers
  pybind11-dev  # ... built with pybind11
  python3-numpy # ... its bulk reads are numpy arrays
  python3-pytest      # tests/python
  python3-matplotlib  # the divergence plot sample (optional: its test skips without it)
)

# The C# binding's reference assemblies from NuGet, once per machine (where dotnet is installed).
bash "$(dirname "${BASH_SOURCE[0]}")/../bindings/csharp/install-reference-pack.sh"
if [ "${1:-}" = --windows ]; then
  packages+=(
    g++-mingw-w64-x86-64-posix  # the cross compilers, posix threads (std::thread with GCC 12)
    wine64                      # runs the Windows programs and tests here
  )
fi

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
