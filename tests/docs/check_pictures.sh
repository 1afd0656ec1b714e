#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_pictures.sh ROOT [FIGURE...]: every picture a Markdown file of the repository shows
# (![..](path) or <img src="path">, other than a web address) is a file git tracks, at that
# path from the Markdown file, so it shows on the repository's pages from a plain checkout;
# and each FIGURE the docs build makes (docs/CMakeLists.txt) is committed in ROOT/docs.
# check_pictures.sh --self-test: the check must fail on a guide showing a picture that is
# missing, or present but not committed, and pass once it is committed.
set -euo pipefail

# Prints "FILE: PICTURE" for each picture that is not committed; ROOT must be a git checkout.
uncommitted() {
  local root=$1 guide picture dir target
  shift
  cd "$root"
  while IFS= read -r guide; do
    dir=$(dirname "$guide")
    while IFS= read -r picture; do
      case "$picture" in http://* | https://* | "") continue ;; esac
      target=$(realpath -m --relative-to=. "$dir/$picture")
      [ -n "$(git ls-files -- "$target")" ] || echo "$guide: $picture"
    done < <(grep -oE '!\[[^]]*\]\([^) ]+|<img[^>]* src="[^"]+' "$guide" | sed -E 's/^!\[[^]]*\]\(//; s/^<img.* src="//')
  done < <(git ls-files -- '*.md')
  local figure
  for figure in "$@"; do
    [ -n "$(git ls-files -- "docs/$figure")" ] || echo "docs/CMakeLists.txt: $figure (made by the docs build)"
  done
}

if [ "${1:-}" = --self-test ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  git -C "$scratch" init -q
  mkdir -p "$scratch/docs"
  printf '# Guide\n\n![A plot](plot.svg)\n' >"$scratch/docs/guide.md"
  git -C "$scratch" add docs/guide.md
  status=0
  [ -n "$(uncommitted "$scratch")" ] || { echo "FAILED: a missing picture passed"; status=1; }
  echo '<svg xmlns="http://www.w3.org/2000/svg"/>' >"$scratch/docs/plot.svg"
  [ -n "$(uncommitted "$scratch" plot.svg)" ] || { echo "FAILED: a picture git does not track passed"; status=1; }
  git -C "$scratch" add docs/plot.svg
  [ -z "$(uncommitted "$scratch" plot.svg)" ] || { echo "FAILED: a committed picture was refused"; status=1; }
  [ -n "$(uncommitted "$scratch" plot.svg cost.svg)" ] || { echo "FAILED: a figure of the docs build left uncommitted passed"; status=1; }
  [ $status -eq 0 ] && echo "ok: missing and untracked pictures are found, committed ones pass"
  exit $status
fi

root=${1:?usage: check_pictures.sh ROOT [FIGURE...] | --self-test}
shift
if ! git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIPPED: $root is not a git checkout, so what is committed cannot be told"
  exit 77
fi
missing=$(uncommitted "$root" "$@")
if [ -n "$missing" ]; then
  echo "Pictures shown but not committed (cmake --build build --target docs-figures, then git add):"
  echo "$missing"
  exit 1
fi
echo "ok: every picture a guide shows is committed beside it"
