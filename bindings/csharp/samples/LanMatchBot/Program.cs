// SPDX-License-Identifier: MIT
// A C# peer of a shoal-lan-match match, beside C++ and Python peers: shoal-lan-match starts it
// for a peer index given with --peer-command (samples/lan_match/PEERS.md says what it is given
// and what it reports), and judges it with the same verdict as its own peers:
//
//   build/bin/shoal-lan-match --peers 3 --loss 0.1 --latency-ms 50 \
//       --peer-command "2=build/csharp/shoal-lan-peer-csharp"
//
// (build/csharp/shoal-lan-peer-csharp runs `dotnet LanMatchBot.dll` with the build's libshoal_c.)
// It builds the arena of arena.cpp bit for bit, finds the host by LAN discovery (or hosts, as
// peer 0; or plays through a relay), drives its ball into the shared objects, prints the report
// lines, serves the others until the launcher says quit, and leaves. What it does not implement
// (other physics, projectiles) it refuses with an `error` line and exit status 1.
using System;

var output = new ReportWriter(Console.Out);
try
{
    new LanPeer(new PeerOptions(args), output).Play();
    return 0;
}
catch (Exception e)  // any failure, reported to the launcher by its message
{
    output.Error(e.Message);
    Console.Error.WriteLine($"LanMatchBot: {e.Message}");
    return 1;
}
