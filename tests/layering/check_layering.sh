#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_layering.sh ROOT LAYER...   (layers in order, as SHOAL_LAYERS lists them)
# Fails, listing each offence, when under ROOT/sdk:
#   - a file in src/<layer>/ includes a header of a later layer;
#   - src/ has a folder that is not a layer (its sources would silently not be built);
#   - a public header (include/shoal/, an engine adapter's too) includes ENet, Cereal or an
#     internal layer header, which would leak them to every game that includes it;
#   - an engine adapter (engines/<name>/) includes a layer other than core: adapters sit on
#     Shoal's public API (and core's header-only helpers), like a game's own would;
#   - a layer below peer includes a public header of the peer layer (shoal/peer.hpp,
#     recording.hpp, audit.hpp): the plain types those layers share live in their own headers
#     (peer_config.hpp, update_cost.hpp, state.hpp...).
set -uo pipefail
root=$1
shift
layers=("$@")
src=$root/sdk/src
public=$root/sdk/include/shoal
offences=0

report() {
  echo "layering: $*"
  offences=$((offences + 1))
}

include_pattern() {  # include of a header under any of the given folders
  local IFS='|'
  echo "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($*)/"
}

if [ -d "$src" ]; then
  for dir in "$src"/*/; do
    name=$(basename "$dir")
    [[ " ${layers[*]} " == *" $name "* ]] || report "sdk/src/$name is not a layer (${layers[*]})"
  done
fi

for ((i = 0; i < ${#layers[@]}; i++)); do
  layer=${layers[i]}
  later=("${layers[@]:i+1}")
  [ -d "$src/$layer" ] && [ ${#later[@]} -gt 0 ] || continue
  while IFS= read -r hit; do
    report "$hit: $layer may not include a later layer (${later[*]})"
  done < <(grep -rnE "$(include_pattern "${later[@]}")" "$src/$layer" | sed "s|^$root/||")
done

peer_layer_headers='shoal/(peer|recording|audit)\.hpp'
for layer in "${layers[@]}"; do
  [ "$layer" = peer ] && break
  [ -d "$src/$layer" ] || continue
  while IFS= read -r hit; do
    report "$hit: $layer may not include the peer layer's public headers"
  done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]$peer_layer_headers" "$src/$layer" | sed "s|^$root/||")
done

for dir in "$public" "$root"/sdk/engines/*/include/shoal; do
  [ -d "$dir" ] || continue
  while IFS= read -r hit; do
    report "$hit: public headers may not include ENet, Cereal or internal headers"
  done < <(grep -rnE "$(include_pattern enet cereal "${layers[@]}")|^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]enet\.h" \
             "$dir" | sed "s|^$root/||")
done

if [ -d "$root/sdk/engines" ]; then
  while IFS= read -r hit; do
    report "$hit: an engine adapter may use Shoal's public headers and core only"
  done < <(grep -rnE "$(include_pattern "${layers[@]:1}")" "$root/sdk/engines" | sed "s|^$root/||")
fi

if [ "$offences" -gt 0 ]; then
  echo "layering: $offences offence(s)"
  exit 1
fi
echo "layering: ok (${#layers[@]} layers)"
