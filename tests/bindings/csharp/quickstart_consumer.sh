#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's C# quickstart, as written, in a project of its own that restores the packed Shoal
# package from a local folder (nothing else: no network, a fresh packages folder), builds, and
# runs: the package must carry the binding and libshoal_c (runtimes/linux-x64/native), and the
# quickstart's match must come together.
#   quickstart_consumer.sh README.md FEED_DIR WORK_DIR VERSION DOTNET "[PRELOAD...]"
set -euo pipefail
readme=$1 feed=$2 work=$3 version=$4 dotnet=$5 preload=${6:-}

package="$feed/Shoal.$version.nupkg"
[ -f "$package" ] || { echo "no package at $package (the shoal_csharp target packs it)"; exit 1; }
rm -rf "$work"
mkdir -p "$work/feed"
cp "$package" "$work/feed/"
# The first ```csharp block of the README, as a person would copy it.
awk '/^```csharp$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' "$readme" >"$work/Program.cs"
[ -s "$work/Program.cs" ] || { echo "README.md has no \`\`\`csharp block"; exit 1; }
lines=$(wc -l <"$work/Program.cs")
echo "quickstart: $lines lines from README.md"
cat >"$work/Quickstart.csproj" <<PROJECT
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Nullable>enable</Nullable>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Shoal" Version="$version" />
  </ItemGroup>
</Project>
PROJECT
cat >"$work/nuget.config" <<CONFIG
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$work/feed" />
  </packageSources>
  <config>
    <add key="globalPackagesFolder" value="$work/packages" />
  </config>
</configuration>
CONFIG
# A packages folder of its own, empty: the package is really restored from the local folder
# (never an older copy cached elsewhere).
export NUGET_PACKAGES="$work/packages"
"$dotnet" build "$work/Quickstart.csproj" -c Release -o "$work/out" -nodeReuse:false -v:quiet -nologo \
  -p:RestoreConfigFile="$work/nuget.config" -p:NuGetAudit=false
# What the restore unpacked: the package as NuGet sees it.
unpacked="$work/packages/shoal/$version"
for entry in lib/netstandard2.1/Shoal.dll runtimes/linux-x64/native/libshoal_c.so; do
  [ -f "$unpacked/$entry" ] || { echo "the package lacks $entry:"; (cd "$unpacked" && find . -type f); exit 1; }
done
[ -f "$work/out/runtimes/linux-x64/native/libshoal_c.so" ] || { echo "the build did not take libshoal_c from the package"; exit 1; }

# Run with the library from the package only: nothing on the library path.
output=$(env -u LD_LIBRARY_PATH $preload "$dotnet" "$work/out/Quickstart.dll")
echo "$output"
grep -q "in match: True, peers: 2" <<<"$output" || { echo "the quickstart's match did not come together"; exit 1; }
echo "quickstart: ok"
