// SPDX-License-Identifier: MIT
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using Shoal;

/// <summary>After "killed P": says when every object P owned here has a live owner again.</summary>
internal sealed class ReownWatch
{
    private readonly List<(ushort Dead, uint[] Objects)> watched = new List<(ushort, uint[])>();

    public void Killed(Peer peer, uint[] bodies, ushort dead) =>
        watched.Add((dead, bodies.Where(id => peer.Owner(id) == dead).ToArray()));

    /// <summary>Calls <paramref name="report"/>(P, now in us on the steady clock every process
    /// shares) for each killed peer whose objects all have a live owner now.</summary>
    public void Check(Peer peer, Action<ushort, long> report)
    {
        if (watched.Count == 0) return;
        ushort[] live = peer.Peers;
        watched.RemoveAll(entry =>
        {
            bool reowned = entry.Objects.All(id =>
            {
                ushort owner = peer.Owner(id);
                return owner != entry.Dead && Array.IndexOf(live, owner) >= 0;
            });
            if (reowned) report(entry.Dead, SteadyMicroseconds());
            return reowned;
        });
    }

    // Stopwatch reads CLOCK_MONOTONIC on Linux, the clock of C++'s steady_clock.
    private static long SteadyMicroseconds()
    {
        long ticks = Stopwatch.GetTimestamp(), perSecond = Stopwatch.Frequency;
        return ticks / perSecond * 1_000_000 + ticks % perSecond * 1_000_000 / perSecond;
    }
}
