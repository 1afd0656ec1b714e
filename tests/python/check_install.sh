#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_install.sh BUILD_DIR WORK_DIR PYTHON INSTALL_DIR: installs the build's Python component
# into WORK_DIR/prefix and imports the installed copy (not the build tree's) with PYTHON; then
# checks that INSTALL_DIR (SHOAL_PYTHON_INSTALL_DIR) under the default prefix, /usr/local, is
# on that Python's own path, so that `cmake --install build` makes `import shoal` work as is.
set -euo pipefail
build_dir=$1 work=$2 python=$3 install_dir=$4
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build_dir" --component python --prefix "$work/prefix" >/dev/null
site="$work/prefix/$install_dir"
for file in __init__.py __init__.pyi py.typed; do
  [ -f "$site/shoal/$file" ] || { echo "install did not produce $site/shoal/$file"; exit 1; }
done
ls "$site"/shoal/_shoal*.so >/dev/null
# In the sanitizer build the installed module needs the sanitizer runtime first, as in the tree.
preload=$(sed -n 's/^preload="\(.*\)"$/\1/p' "$build_dir/bin/shoal-python")
if [ -n "$preload" ]; then
  export LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0
fi
PYTHONPATH="$site" "$python" -c "
import shoal, sys
assert shoal.__file__.startswith('$site'), shoal.__file__
world = shoal.ReferencePhysics()
world.add_sphere(1, 0.5, 1.0)
with shoal.Peer(shoal.PeerConfig(), world, shoal.enet_transport(insecure=True)) as peer:
    peer.host()
    peer.update()
    assert peer.in_match
print('installed module', shoal.__version__, 'imports from', shoal.__file__)
"
case "$install_dir" in
  /*) default_site=$install_dir ;;
  *) default_site=/usr/local/$install_dir ;;
esac
unset LD_PRELOAD
"$python" -c "import sys; sys.exit(0 if '$default_site' in sys.path else 1)" || {
  echo "$default_site is not on $python's path: cmake --install with the default prefix would not reach it" >&2
  exit 1
}
echo "python install: ok ($default_site is on $python's path)"
