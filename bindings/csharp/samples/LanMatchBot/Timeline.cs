// SPDX-License-Identifier: MIT
using System;

/// <summary>
/// The frames a match is organised by (samples/lan_match/timeline.hpp, for matches without
/// projectiles): every peer agrees on them without being told, frame 0 being the host's start.
/// </summary>
internal sealed class Timeline
{
    public Timeline(double seconds, double settleSeconds, float tickHz)
    {
        TickHz = tickHz;
        SampleInterval = FrameAt(1);
        BotsStop = FrameAt(seconds);
        int settled = FrameAt(seconds + settleSeconds);
        Compare = (settled + SampleInterval - 1) / SampleInterval * SampleInterval;  // on a whole second
    }

    public float TickHz { get; }
    /// <summary>A progress sample every second of match time.</summary>
    public int SampleInterval { get; }
    /// <summary>Bots push until this frame.</summary>
    public int BotsStop { get; }
    /// <summary>The first frame the launcher compares every peer's states at (then the next
    /// SettleChecks seconds' frames, until every object rests on every peer).</summary>
    public int Compare { get; }
    public const int SettleChecks = 3;
    /// <summary>A peer reports frame F once it is this far past it, so that the owner frames for
    /// F (delayed, lost and resent) have arrived.</summary>
    public const int ReportDelay = 20;

    /// <summary>The frame of the final sample.</summary>
    public int FinalFrame => Compare + SettleChecks * SampleInterval;

    public double SecondsAt(int frame) => frame / (double)TickHz;

    private int FrameAt(double seconds) => (int)Math.Round(seconds * TickHz, MidpointRounding.AwayFromZero);  // std::lround
}
