#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one NuGet package the C# binding needs beyond the machine's offline folder
# (/opt/nuget/packages): NETStandard.Library.Ref 2.1.0, netstandard2.1's reference assemblies,
# which the .NET SDK does not ship. Fetched once per machine with the ordinary client (dotnet
# restore) into $SHOAL_NUGET_REFERENCE_DIR (default ~/.cache/shoal/nuget); every build and
# test after that is offline. Does nothing without dotnet; a failed fetch only warns (CMake
# then says it leaves the C# binding out).
set -euo pipefail
command -v dotnet >/dev/null || exit 0
folder=${SHOAL_NUGET_REFERENCE_DIR:-$HOME/.cache/shoal/nuget}
[ -f "$folder/netstandard.library.ref/2.1.0/netstandard.library.ref.2.1.0.nupkg" ] && exit 0

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 DOTNET_CLI_WORKLOAD_UPDATE_NOTIFY_DISABLE=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/reference-pack.csproj" <<'PROJECT'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>netstandard2.1</TargetFramework></PropertyGroup>
</Project>
PROJECT
echo "install-deps: fetching NETStandard.Library.Ref 2.1.0 (netstandard2.1 reference assemblies) into $folder" >&2
if ! dotnet restore "$scratch/reference-pack.csproj" --packages "$folder" -nodeReuse:false >"$scratch/restore.log" 2>&1; then
  echo "install-deps: could not fetch NETStandard.Library.Ref (the C# binding will be left out):" >&2
  tail -5 "$scratch/restore.log" >&2
fi
