// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// The peer's settings: shoal_peer_config, starting from the C++ defaults (read from the library,
// so that the two cannot drift apart). The library checks every field when a peer is made and
// names the one it refuses.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>A peer's settings (shoal::PeerConfig); every property starts at the C++ default.</summary>
    public sealed class PeerConfig
    {
        internal shoal_peer_config raw;

        /// <summary>The defaults of a default-constructed shoal::PeerConfig.</summary>
        public PeerConfig()
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_peer_config_default(out raw));
        }

        /// <summary>The match's name (at most 255 bytes of UTF-8); peers of other sessions refuse each other.</summary>
        public unsafe string Session
        {
            get { fixed (byte* p = raw.session) return Text.Read(p, Capacity.Session); }
            set { fixed (byte* p = raw.session) Text.Write(value, p, Capacity.Session, nameof(Session)); }
        }

        /// <summary>Simulation frames per second, 1..1000.</summary>
        public float TickHz { get => raw.tick_hz; set => raw.tick_hz = value; }
        /// <summary>How far back a correction re-simulates, MaxResimulatedFrames + 8 .. 4096.</summary>
        public int HistoryFrames { get => raw.history_frames; set => raw.history_frames = value; }
        /// <summary>Catch-up work per update in frames, >= 1.</summary>
        public int MaxResimulatedFrames { get => raw.max_resimulated_frames; set => raw.max_resimulated_frames = value; }
        /// <summary>Owners send moving objects every N frames, >= 1.</summary>
        public int SnapshotIntervalFrames { get => raw.snapshot_interval_frames; set => raw.snapshot_interval_frames = value; }
        /// <summary>Desync checksum every N frames, 0 = off.</summary>
        public int ChecksumIntervalFrames { get => raw.checksum_interval_frames; set => raw.checksum_interval_frames = value; }
        /// <summary>Time-sync ping period, >= 10.</summary>
        public int PingIntervalMs { get => raw.ping_interval_ms; set => raw.ping_interval_ms = value; }
        /// <summary>How long a timed-out peer keeps its objects, 0 = not at all.</summary>
        public int RejoinGraceMs { get => raw.rejoin_grace_ms; set => raw.rejoin_grace_ms = value; }
        /// <summary>How much a correction re-simulates.</summary>
        public CatchupScope Catchup { get => (CatchupScope)raw.catchup; set => raw.catchup = (int)value; }
        /// <summary>Owner frames compared bit for bit (false: moving objects within the C++ tolerances).</summary>
        public bool ExactCompare { get => raw.exact_compare != 0; set => raw.exact_compare = value ? 1 : 0; }
        /// <summary>Quantise states on every peer (must match on all peers).</summary>
        public bool Quantize { get => raw.quantize != 0; set => raw.quantize = value ? 1 : 0; }
        /// <summary>Snapshot budget per remote peer, >= 1000.</summary>
        public int BytesPerSecond { get => raw.bytes_per_second; set => raw.bytes_per_second = value; }
        /// <summary>Simulate only near the controlled object.</summary>
        public bool FreezeOutsideSimulatedRegion { get => raw.freeze_outside_simulated_region != 0; set => raw.freeze_outside_simulated_region = value ? 1 : 0; }
        /// <summary>Debug: roll back this many frames every frame and compare, 0 = off.</summary>
        public int SyncTestFrames { get => raw.sync_test_frames; set => raw.sync_test_frames = value; }
        /// <summary>Quantisation box: positions outside it are clamped (and counted).</summary>
        public Vec3 WorldMin { get => raw.world_min; set => raw.world_min = value; }
        /// <summary>The box's other corner: it must hold the whole world, with margin.</summary>
        public Vec3 WorldMax { get => raw.world_max; set => raw.world_max = value; }
        /// <summary>Position resolution; world size x this at most 2^22.</summary>
        public float PositionUnitsPerM { get => raw.position_units_per_m; set => raw.position_units_per_m = value; }
        /// <summary>Faster is clamped (and counted).</summary>
        public float MaxLinearSpeedMps { get => raw.max_linear_speed_mps; set => raw.max_linear_speed_mps = value; }
        /// <summary>Faster is clamped (and counted).</summary>
        public float MaxAngularSpeedRadps { get => raw.max_angular_speed_radps; set => raw.max_angular_speed_radps = value; }
        /// <summary>A player owns what is this near its object, at least.</summary>
        public float CoreMinRadiusM { get => raw.core_min_radius_m; set => raw.core_min_radius_m = value; }
        /// <summary>... or as far as it goes in this time.</summary>
        public float CoreVelocityHorizonS { get => raw.core_velocity_horizon_s; set => raw.core_velocity_horizon_s = value; }
        /// <summary>Simulated (and sent) beyond the core region, m.</summary>
        public float SimulatedRadiusM { get => raw.simulated_radius_m; set => raw.simulated_radius_m = value; }
        /// <summary>The smoothing rule of every (type, mode) SmoothingRules does not name.</summary>
        public SmoothingRule SmoothingDefault { get => raw.smoothing_default; set => raw.smoothing_default = value; }
        /// <summary>Also send the zero velocities of objects at rest.</summary>
        public bool VelocitiesAtRest { get => raw.velocities_at_rest != 0; set => raw.velocities_at_rest = value ? 1 : 0; }
        /// <summary>Encode each object relative to the receiver's newest acknowledged state.</summary>
        public bool Delta { get => raw.delta != 0; set => raw.delta = value ? 1 : 0; }
        /// <summary>Per smallest-three component of an orientation, 8..20.</summary>
        public int OrientationBits { get => raw.orientation_bits; set => raw.orientation_bits = value; }
        /// <summary>Velocity resolution (also per rad/s), > 0.</summary>
        public float VelocityUnitsPerMps { get => raw.velocity_units_per_mps; set => raw.velocity_units_per_mps = value; }
        /// <summary>Older acknowledged states are no baseline, 1..1056.</summary>
        public int MaxBaselineAgeFrames { get => raw.max_baseline_age_frames; set => raw.max_baseline_age_frames = value; }
        /// <summary>Most important first within the packet and byte budgets.</summary>
        public bool Prioritize { get => raw.prioritize != 0; set => raw.prioritize = value ? 1 : 0; }
        /// <summary>Largest snapshot datagram, 64..1200.</summary>
        public int PacketBudgetBytes { get => raw.packet_budget_bytes; set => raw.packet_budget_bytes = value; }
        /// <summary>Priority of an object at rest (a moving one has 1).</summary>
        public float RestPriority { get => raw.rest_priority; set => raw.rest_priority = value; }
        /// <summary>Priority of any peer's controlled object.</summary>
        public float ControlledPriority { get => raw.controlled_priority; set => raw.controlled_priority = value; }
        /// <summary>At rest until the receiver acknowledges it at rest.</summary>
        public float CameToRestPriority { get => raw.came_to_rest_priority; set => raw.came_to_rest_priority = value; }
        /// <summary>An acknowledged resting object goes again once RestPriority x this accumulates, 0..3600.</summary>
        public float SettledRefreshS { get => raw.settled_refresh_s; set => raw.settled_refresh_s = value; }
        /// <summary>Priority falls from 1 at this distance from the receiver's controlled object.</summary>
        public float LodNearM { get => raw.lod_near_m; set => raw.lod_near_m = value; }
        /// <summary>... to LodFarFactor at this one and beyond.</summary>
        public float LodFarM { get => raw.lod_far_m; set => raw.lod_far_m = value; }
        /// <summary>0..1.</summary>
        public float LodFarFactor { get => raw.lod_far_factor; set => raw.lod_far_factor = value; }
        /// <summary>Without Prioritize, objects at rest are sent every N frames.</summary>
        public int RestSnapshotIntervalFrames { get => raw.rest_snapshot_interval_frames; set => raw.rest_snapshot_interval_frames = value; }
        /// <summary>Past inputs each snapshot carries, 1..16.</summary>
        public int InputRedundancy { get => raw.input_redundancy; set => raw.input_redundancy = value; }
        /// <summary>Frames one update may step when the clock is behind, >= 1.</summary>
        public int MaxClockCatchupFrames { get => raw.max_clock_catchup_frames; set => raw.max_clock_catchup_frames = value; }
        /// <summary>A moving object no core region holds goes about every N frames, 1..600.</summary>
        public int CoastingIntervalFrames { get => raw.coasting_interval_frames; set => raw.coasting_interval_frames = value; }
        /// <summary>Frames between SetInput and the frame the input applies to, 0..16.</summary>
        public int InputDelayFrames { get => raw.input_delay_frames; set => raw.input_delay_frames = value; }
        /// <summary>How long a join may take, 100..600000; past it EventKind.JoinFailed.</summary>
        public int JoinTimeoutMs { get => raw.join_timeout_ms; set => raw.join_timeout_ms = value; }
        /// <summary>The most bytes one game message may carry.</summary>
        public int MaxMessageBytes { get => raw.max_message_bytes; set => raw.max_message_bytes = value; }
        /// <summary>Bytes one peer may send per second in game messages.</summary>
        public int MessageBytesPerSecond { get => raw.message_bytes_per_second; set => raw.message_bytes_per_second = value; }
        /// <summary>Game messages one peer may send per second.</summary>
        public int MessagesPerSecond { get => raw.messages_per_second; set => raw.messages_per_second = value; }
        /// <summary>One sender's messages waiting for PollEvent, 1..4096.</summary>
        public int MaxQueuedMessages { get => raw.max_queued_messages; set => raw.max_queued_messages = value; }
        /// <summary>The least level passed to Log (default Info).</summary>
        public LogLevel LogLevel { get => (LogLevel)raw.log_level; set => raw.log_level = (int)value; }
        /// <summary>Bytes of the game's own input per frame (SetInputBytes), 0..64; must match on all peers.</summary>
        public int InputBytes { get => raw.input_bytes; set => raw.input_bytes = value; }
        /// <summary>Live spawned objects per peer, 1..65535.</summary>
        public uint MaxObjectsPerPeer { get => raw.max_objects_per_peer; set => raw.max_objects_per_peer = value; }
        /// <summary>Spawns one peer may make per second, 1..10000.</summary>
        public int MaxSpawnsPerSecond { get => raw.max_spawns_per_second; set => raw.max_spawns_per_second = value; }
        /// <summary>Spawn bytes one spawn may carry, 0..64.</summary>
        public uint MaxSpawnBytes { get => raw.max_spawn_bytes; set => raw.max_spawn_bytes = value; }

        /// <summary>Smoothing rules per (object type, control mode); a later row for the same pair
        /// replaces an earlier one. Copied when the peer is made.</summary>
        public List<SmoothingEntry> SmoothingRules { get; } = new List<SmoothingEntry>();

        /// <summary>Types whose objects vanish when their owner leaves (the others pass to the
        /// default owner). Copied when the peer is made.</summary>
        public List<ushort> RemovedOnLeave { get; } = new List<ushort>();

        /// <summary>Receives the peer's log lines at LogLevel and above, on the thread that calls the
        /// peer (during Update mostly). Null (the default): no line is even formatted.</summary>
        public Action<LogLevel, string>? Log { get; set; }

        /// <summary>A copy: what a peer keeps of its config.</summary>
        public PeerConfig Clone()
        {
            var copy = (PeerConfig)MemberwiseClone();
            copy.SmoothingRules.Clear();
            copy.SmoothingRules.AddRange(SmoothingRules);
            copy.RemovedOnLeave.Clear();
            copy.RemovedOnLeave.AddRange(RemovedOnLeave);
            return copy;
        }
    }
}
