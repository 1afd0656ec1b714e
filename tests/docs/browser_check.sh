#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# browser_check.sh HTML_DIR CHECKER GUIDES_DIR: opens every page of the built site in headless
# Chromium (check_pages.html loads each in a frame) and fails on a page that does not load, an
# image or SVG picture that does not display, a link to a local file that does not exist, or a
# guide (GUIDES_DIR/*.md) without its page. Exit 77 (skipped) when no Chromium is installed:
# `bash cmake/install-deps.sh test` installs Debian's.
set -euo pipefail
html_dir=$(cd "$1" && pwd) checker=$2 guides_dir=$3
for guide in "$guides_dir"/*.md; do
  name=$(basename "$guide" .md)
  page="md_docs_${name//-/_}.html"  # Doxygen's name for docs/<name>.md
  if [ ! -f "$html_dir/$page" ]; then
    echo "FAIL the guide docs/$name.md has no page $page in $html_dir" >&2
    exit 1
  fi
done
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIP no chromium: the pages were not opened (bash cmake/install-deps.sh test installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The checker lives beside the pages, so that it may read them (file:// access from files).
pages=$(cd "$html_dir" && find . -name '*.html' ! -name '_check_pages.html' | sed 's|^\./||' | sort)
count=$(wc -l <<<"$pages")
{
  echo "<script>const PAGES = ["
  while IFS= read -r page; do printf '"%s",\n' "$page"; done <<<"$pages"
  echo "];</script>"
  cat "$checker"
} >"$html_dir/_check_pages.html"
# --virtual-time-budget lets the checker's loads finish before the DOM is dumped; a wall-clock
# timeout bounds a browser that hangs.
timeout 240 "$browser" --headless=new --no-sandbox --disable-gpu --allow-file-access-from-files \
  --user-data-dir="$work/profile" --virtual-time-budget=120000 \
  --dump-dom "file://$html_dir/_check_pages.html" >"$work/dom.html" 2>"$work/browser.log" || {
  echo "FAIL chromium did not finish:" >&2
  tail -20 "$work/browser.log" >&2
  exit 1
}
rm -f "$html_dir/_check_pages.html"
result=$(sed -n 's|.*<pre id="result">\(.*\)</pre>.*|\1|p' "$work/dom.html" | head -1)
problems=$(awk '/<pre id="problems">/ { inside = 1 } inside { print } inside && /<\/pre>/ { exit }' "$work/dom.html" \
  | sed 's|<[^>]*>||g' | sed '/^$/d')
if [ "$result" != "OK $count" ]; then
  echo "FAIL expected 'OK $count' pages, the browser said '${result:-nothing}'" >&2
  [ -n "$problems" ] && echo "$problems" >&2
  exit 1
fi
echo "browser: $count pages loaded in Chromium; every image displayed and every local link resolved"
