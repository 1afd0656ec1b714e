// SPDX-License-Identifier: MIT
using System.Runtime.InteropServices;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>
    /// How a correction's error leaves what is drawn (shoal_smoothing_rule, shoal::SmoothingRule):
    /// above the warp limits the object snaps; above the blend thresholds the error closes by a
    /// speed-dependent fraction per 1/30 s; below them at the minimum closing speed.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SmoothingRule
    {
#pragma warning disable CS1591 // each field is documented in shoal.h, under the same name in snake_case
        public float WarpDistanceM, WarpAngleRad, BlendThresholdM, BlendThresholdRad, SlowSpeed;
        public float SlowBlendThresholdM, SlowBlendThresholdRad, LowSpeed, HighSpeed;
        public float BlendRateLowSpeed, BlendRateHighSpeed, MinClosingSpeedLow, MinClosingSpeedHigh;
        public float MinClosingAngularSpeedLow, MinClosingAngularSpeedHigh;
#pragma warning restore CS1591

        /// <summary>A default-constructed shoal::SmoothingRule.</summary>
        public static SmoothingRule Default
        {
            get
            {
                Library.EnsureCompatible();
                ShoalException.Check(Native.shoal_smoothing_rule_default(out SmoothingRule rule));
                return rule;
            }
        }
    }

    /// <summary>One row of a smoothing rules table: the rule of one (object type, control mode).</summary>
    public sealed class SmoothingEntry
    {
        /// <summary>The row for this type and mode.</summary>
        public SmoothingEntry(ushort objectType, ControlMode controlMode, SmoothingRule rule)
        {
            ObjectType = objectType;
            ControlMode = controlMode;
            Rule = rule;
        }

        /// <summary>The type the simulation gives a body (0 without one).</summary>
        public ushort ObjectType { get; }
        /// <summary>Controlled or not.</summary>
        public ControlMode ControlMode { get; }
        /// <summary>The rule for that type and mode.</summary>
        public SmoothingRule Rule { get; }
    }

    /// <summary>Impairments of one direction of a link (shoal_link_conditions): the seeded link conditioner.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct LinkConditions
    {
        /// <summary>One-way delay, ms.</summary>
        public float LatencyMs;
        /// <summary>Uniform +- around the latency, ms.</summary>
        public float JitterMs;
        /// <summary>Fraction of datagrams dropped, 0..1.</summary>
        public float Loss;
        /// <summary>Fraction delivered twice, 0..1.</summary>
        public float Duplicate;
        /// <summary>Fraction held back behind later ones, 0..1.</summary>
        public float Reorder;
        /// <summary>Queue cap when bandwidth-limited.</summary>
        public uint QueueLimitBytes;
        /// <summary>0 = unlimited.</summary>
        public ulong BandwidthBytesPerS;

        /// <summary>The C++ defaults: a perfect link.</summary>
        public static LinkConditions Default
        {
            get
            {
                Library.EnsureCompatible();
                ShoalException.Check(Native.shoal_link_conditions_default(out LinkConditions conditions));
                return conditions;
            }
        }

        /// <summary>The defaults with this loss (and optionally latency).</summary>
        public static LinkConditions Lossy(float loss, float latencyMs = 0)
        {
            LinkConditions c = Default;
            c.Loss = loss;
            c.LatencyMs = latencyMs;
            return c;
        }
    }

    /// <summary>Both directions of an endpoint's simulated network (shoal_conditioner).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Conditioner
    {
        /// <summary>What this endpoint sends.</summary>
        public LinkConditions Outbound;
        /// <summary>What this endpoint receives.</summary>
        public LinkConditions Inbound;
        /// <summary>The same seed replays the same impairments.</summary>
        public ulong Seed;

        /// <summary>Both directions impaired alike, from this seed.</summary>
        public static Conditioner Both(LinkConditions link, ulong seed) =>
            new Conditioner { Outbound = link, Inbound = link, Seed = seed };
    }
}
