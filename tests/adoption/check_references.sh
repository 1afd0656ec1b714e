#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_references.sh ROOT: fails on any text in the tree that points a reader at something
# outside the repository that they cannot open: an issue by its number (or "the issue" that
# asked or said something), a design document by its number, or the notes kept beside the
# project (the shared design and seed folders, the notes, architecture and platform files
# there). Every file git tracks is read (README, CHANGELOG, docs, code, comments, tests,
# samples), binary ones left out; outside a git checkout, every file but build trees. The
# patterns below are written so that this file does not match them.
# check_references.sh --self-test: the check must fail on each kind of reference (planted in a
# scratch tree, since this tree holds none).
set -euo pipefail

# Extended regular expressions, case-insensitive unless marked.
patterns_ci=(
  '\bissues? (#|no\.? ?)?[0-9]+'
  '\bissue #[0-9]+'
  '\b(the|this|that) ([a-z-]+ )?issue'"'"'s\b'
  '\b(the|this|that) ([a-z-]+ )?issue (asks|asked|says|said)\b'
  '\bdocuments? #?[0-9]{3}'
  '\bdocument-[0-9]{3}'
  'shared/(design|seeds|tools)\b'
  '\bNOTES\.md\b'
)
patterns_cs=(
  '\bARCHITECTURE\.md\b'
  '\bPLATFORM\.md\b'
)

scan() {
  local root=$1 files
  if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(cd "$root" && git ls-files)
  else
    files=$(cd "$root" && find . -type f -not -path './build*' -not -path './.git/*' | sed 's|^\./||')
  fi
  local args=() pattern
  for pattern in "${patterns_ci[@]}"; do args+=(-e "$pattern"); done
  local found_ci found_cs
  found_ci=$(cd "$root" && xargs -d '\n' -r grep -n -I -i -E "${args[@]}" -- <<<"$files" || true)
  args=()
  for pattern in "${patterns_cs[@]}"; do args+=(-e "$pattern"); done
  found_cs=$(cd "$root" && xargs -d '\n' -r grep -n -I -E "${args[@]}" -- <<<"$files" || true)
  printf '%s\n%s\n' "$found_ci" "$found_cs" | sed '/^$/d'
}

if [ "${1:-}" = --self-test ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  status=0
  i=0
  # Each planted line must be found on its own; built from pieces so this file holds none.
  iw=iss dw=docu
  for line in "see ${iw}ue 34" "as ${iw}ues 33 and 34 ask" "(${iw}ue #12)" "the sync-core ${iw}ue's scenarios" \
              "what the ${iw}ue asked" "per ${dw}ment 001" "${dw}ment-000-style rules" "/work/shared/""design/x.md" \
              "seeds/NOTES"".md" "ARCHI""TECTURE.md" "PLAT""FORM.md"; do
    i=$((i + 1))
    mkdir -p "$scratch/$i"
    printf 'int x;  // %s\n' "$line" >"$scratch/$i/code.cpp"
    if [ -z "$(scan "$scratch/$i")" ]; then
      echo "FAILED: the check missed: $line"
      status=1
    fi
  done
  # And what must pass: ordinary words near these.
  mkdir -p "$scratch/clean"
  printf '%s\n' "the authority issues credentials" "reissue_departed" "docs/architecture.md" \
    "a known ${iw}ue with ENet" >"$scratch/clean/text.md"
  if [ -n "$(scan "$scratch/clean")" ]; then
    echo "FAILED: the check flags ordinary text:"
    scan "$scratch/clean"
    status=1
  fi
  [ $status -eq 0 ] && echo "ok: every kind of reference is found, ordinary text passes"
  exit $status
fi

root=${1:?usage: check_references.sh ROOT | --self-test}
found=$(scan "$root")
if [ -n "$found" ]; then
  echo "References to issues or documents outside the repository (say what the reader needs instead):"
  echo "$found"
  exit 1
fi
echo "ok: no reference to an issue or a document outside the repository"
