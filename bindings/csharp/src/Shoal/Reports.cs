// SPDX-License-Identifier: MIT
// What a peer and the other parts report: events, statistics, addresses. Plain values, copied
// out of the C structs.
using Shoal.Interop;

namespace Shoal
{
    /// <summary>Where a transport is reached: a host name or numeric address and a port.</summary>
    public readonly struct Address
    {
        /// <summary>This host and port.</summary>
        public Address(string host, ushort port) { Host = host; Port = port; }

        /// <summary>Numeric address or host name.</summary>
        public string Host { get; }
        /// <summary>Port.</summary>
        public ushort Port { get; }

        /// <inheritdoc/>
        public override string ToString() => $"{Host}:{Port}";

        internal static unsafe Address FromNative(in shoal_address a)
        {
            fixed (byte* host = a.host) return new Address(Text.Read(host, Capacity.Host), a.port);
        }

        internal unsafe shoal_address ToNative(string field)
        {
            var a = new shoal_address { port = Port };
            Text.Write(Host, a.host, Capacity.Host, field);
            return a;
        }
    }

    /// <summary>
    /// One event of a peer (shoal_event); fields that do not apply to its kind are
    /// <see cref="Peer.NoPeer"/>, 0 or <see cref="Peer.NoFrame"/>.
    /// </summary>
    public readonly struct Event
    {
        private readonly shoal_event raw;

        internal Event(in shoal_event e) { raw = e; }

        /// <summary>What happened.</summary>
        public EventKind Kind => (EventKind)raw.kind;
        /// <summary>The peer concerned.</summary>
        public ushort Peer => raw.peer;
        /// <summary>The object concerned.</summary>
        public uint Object => raw.@object;
        /// <summary>The frame concerned.</summary>
        public int Frame => raw.frame;
        /// <summary>Override: how many frames back it reached; sync-test desync: the rollback.</summary>
        public int Depth => raw.depth;
        /// <summary>Desync: how many objects <see cref="DesyncObject"/> gives.</summary>
        public int DesyncObjectCount => (int)raw.object_count;
        /// <summary>Desync: more objects disagreed than it lists.</summary>
        public bool DesyncObjectsTruncated => raw.objects_truncated != 0;
        /// <summary>Join failed: the step it was stuck in.</summary>
        public JoinStep JoinStep => (JoinStep)raw.join_step;
        /// <summary>Join failed: why.</summary>
        public JoinFailure JoinFailure => (JoinFailure)raw.join_failure;

        /// <summary>Desync: the index-th object that disagreed, 0..DesyncObjectCount-1.</summary>
        public unsafe uint DesyncObject(int index)
        {
            if (index < 0 || index >= DesyncObjectCount) throw new System.ArgumentOutOfRangeException(nameof(index));
            fixed (uint* objects = raw.objects) return objects[index];
        }

        /// <inheritdoc/>
        public override string ToString() => $"{Kind} peer {Peer} object {Object} frame {Frame}";
    }

    /// <summary>How far joining has come.</summary>
    public readonly struct JoinProgress
    {
        internal JoinProgress(in shoal_join_progress p) { Step = (JoinStep)p.step; Done = p.done; Needed = p.needed; ElapsedMs = p.elapsed_ms; }

        /// <summary>Which step.</summary>
        public JoinStep Step { get; }
        /// <summary>The step's count so far.</summary>
        public int Done { get; }
        /// <summary>... of this many; 0 when the step counts nothing.</summary>
        public int Needed { get; }
        /// <summary>How long joining took, or has been trying.</summary>
        public long ElapsedMs { get; }
    }

    /// <summary>A peer's main counters (shoal_stats).</summary>
    public readonly struct PeerStats
    {
        private readonly shoal_stats raw;
        internal PeerStats(in shoal_stats s) { raw = s; }

        /// <summary>Newest simulated frame.</summary>
        public int Frame => raw.frame;
        /// <summary>Remote peers (see Peer.RemoteStats).</summary>
        public int RemoteCount => (int)raw.remote_count;
        /// <summary>Owner frames that replaced a differing own frame.</summary>
        public ulong Overrides => raw.overrides;
        /// <summary>Frames re-simulated by catch-up.</summary>
        public ulong CatchupFrames => raw.catchup_frames;
        /// <summary>Corrections too old to re-simulate.</summary>
        public ulong Snaps => raw.snaps;
        /// <summary>Owner changes seen.</summary>
        public ulong OwnershipChanges => raw.ownership_changes;
        /// <summary>Snapshot datagrams sent.</summary>
        public ulong SnapshotsSent => raw.snapshots_sent;
        /// <summary>Snapshot datagrams received.</summary>
        public ulong SnapshotsReceived => raw.snapshots_received;
        /// <summary>Snapshot and ack bytes sent.</summary>
        public ulong SnapshotBytesSent => raw.snapshot_bytes_sent;
        /// <summary>Deltas whose baseline was missing (recovered).</summary>
        public ulong BaselineMisses => raw.baseline_misses;
        /// <summary>State fields clamped to the snapshot bounds.</summary>
        public ulong QuantizationClamps => raw.quantization_clamps;
        /// <summary>Desync checksums that disagreed.</summary>
        public ulong Desyncs => raw.desyncs;
        /// <summary>Objects this peer owns now.</summary>
        public ulong OwnedObjects => raw.owned_objects;
        /// <summary>Objects left out of the last step.</summary>
        public ulong FrozenObjects => raw.frozen_objects;
        /// <summary>Bad or unwanted packets dropped, all reasons.</summary>
        public ulong DroppedPackets => raw.dropped_packets;
    }

    /// <summary>The counters of what the game adds: spawns, removals, messages, the pace (shoal_game_stats).</summary>
    public readonly struct GameStats
    {
        private readonly shoal_game_stats raw;
        internal GameStats(in shoal_game_stats s) { raw = s; }

        /// <summary>Spawns applied here.</summary>
        public ulong ObjectsSpawned => raw.objects_spawned;
        /// <summary>Removals applied here.</summary>
        public ulong ObjectsRemoved => raw.objects_removed;
        /// <summary>Game messages sent.</summary>
        public ulong MessagesSent => raw.messages_sent;
        /// <summary>Game messages accepted and queued as events.</summary>
        public ulong MessagesReceived => raw.messages_received;
        /// <summary>Received and not polled yet.</summary>
        public ulong MessagesQueued => raw.messages_queued;
        /// <summary>Resting objects whose owner was asked for its state.</summary>
        public ulong RestRepairsRequested => raw.rest_repairs_requested;
        /// <summary>The match's speed, a fraction of TickHz.</summary>
        public float Pace => raw.pace;
    }

    /// <summary>One remote peer's link, smoothed over about a second (shoal_remote_stats).</summary>
    public readonly struct RemoteStats
    {
        private readonly shoal_remote_stats raw;
        internal RemoteStats(in shoal_remote_stats s) { raw = s; }

        /// <summary>Its id.</summary>
        public ushort Peer => raw.peer;
        /// <summary>Round-trip time, ms.</summary>
        public float RttMs => raw.rtt_ms;
        /// <summary>Round-trip jitter, ms.</summary>
        public float RttVarianceMs => raw.rtt_variance_ms;
        /// <summary>Measured loss of what it sends, 0..1.</summary>
        public float PacketLoss => raw.packet_loss;
        /// <summary>Datagrams sent to it per second.</summary>
        public float PacketsOutPerS => raw.packets_out_per_s;
        /// <summary>Datagrams from it per second.</summary>
        public float PacketsInPerS => raw.packets_in_per_s;
        /// <summary>Bytes sent to it per second.</summary>
        public float BytesOutPerS => raw.bytes_out_per_s;
        /// <summary>Bytes from it per second.</summary>
        public float BytesInPerS => raw.bytes_in_per_s;
    }

    /// <summary>One change of an object's owner, as the peer applied it (shoal_ownership_change).</summary>
    public readonly struct OwnershipChange
    {
        internal OwnershipChange(in shoal_ownership_change c)
        {
            Frame = c.frame; Owner = c.owner; Author = c.author; Sequence = c.sequence; AppliedAt = c.applied_at;
        }

        /// <summary>The frame from which the new owner's state counts.</summary>
        public int Frame { get; }
        /// <summary>The new owner.</summary>
        public ushort Owner { get; }
        /// <summary>Who made the change (the claimant, or the one handing over).</summary>
        public ushort Author { get; }
        /// <summary>The object's change counter (the higher wins a race).</summary>
        public uint Sequence { get; }
        /// <summary>The peer's newest frame when it applied the change.</summary>
        public int AppliedAt { get; }
    }

    /// <summary>What a peer knows of one object at one frame (Peer.Diagnose, shoal_object_diagnosis),
    /// for finding out why peers disagree on it.</summary>
    public sealed class ObjectDiagnosis
    {
        internal unsafe ObjectDiagnosis(in shoal_object_diagnosis d)
        {
            Object = d.@object;
            Frame = d.frame;
            Held = d.held != 0;
            Confirmed = d.confirmed != 0;
            State = d.state;
            Owner = d.owner;
            Frozen = d.frozen != 0;
            var ownership = new OwnershipChange[System.Math.Min(d.ownership_count, (uint)Capacity.OwnershipHistory)];
            fixed (shoal_ownership_change* first = &d.ownership0)
            {
                for (int i = 0; i < ownership.Length; ++i) ownership[i] = new OwnershipChange(first[i]);
            }
            Ownership = ownership;
            LastOwnerFrame = d.last_owner_frame;
            LastOwnerFrameAt = d.last_owner_frame_at;
            Overrides = d.overrides;
            OwnerSaid = d.owner_said != 0;
            OwnerSaidFrame = d.owner_said_frame;
            OwnerSaidState = d.owner_said_state;
        }

        /// <summary>The object asked about.</summary>
        public uint Object { get; }
        /// <summary>The frame asked about.</summary>
        public int Frame { get; }
        /// <summary>That frame is in the peer's history (<see cref="State"/> is valid).</summary>
        public bool Held { get; }
        /// <summary>... and its state there is its owner's own, not the peer's guess.</summary>
        public bool Confirmed { get; }
        /// <summary>Its state at <see cref="Frame"/>, when held.</summary>
        public ObjectState State { get; }
        /// <summary>Its owner now.</summary>
        public ushort Owner { get; }
        /// <summary>Left out of the peer's last step (outside its simulated region).</summary>
        public bool Frozen { get; }
        /// <summary>Its last owner changes seen here, oldest first.</summary>
        public OwnershipChange[] Ownership { get; }
        /// <summary>The newest frame of it its owner sent that the peer took in (Peer.NoFrame: none, or the peer owns it).</summary>
        public int LastOwnerFrame { get; }
        /// <summary>The peer's newest frame when <see cref="LastOwnerFrame"/> arrived.</summary>
        public int LastOwnerFrameAt { get; }
        /// <summary>Owner frames of it that differed from the peer's own.</summary>
        public ulong Overrides { get; }
        /// <summary><see cref="OwnerSaidFrame"/> and <see cref="OwnerSaidState"/> are valid.</summary>
        public bool OwnerSaid { get; }
        /// <summary>The frame of <see cref="OwnerSaidState"/>.</summary>
        public int OwnerSaidFrame { get; }
        /// <summary>What its owner last said of it in a snapshot, as received (quantised).</summary>
        public ObjectState OwnerSaidState { get; }
    }

    /// <summary>A live spawned object (shoal_spawned_object).</summary>
    public sealed class SpawnedObject
    {
        internal unsafe SpawnedObject(in shoal_spawned_object o)
        {
            Object = o.@object;
            Type = o.type;
            Spawner = o.spawner;
            Owner = o.owner;
            Frame = o.frame;
            var bytes = new byte[o.byte_count];
            fixed (byte* from = o.bytes)
            {
                for (int i = 0; i < bytes.Length; ++i) bytes[i] = from[i];
            }
            SpawnBytes = bytes;
        }

        /// <summary>Its id.</summary>
        public uint Object { get; }
        /// <summary>The game-defined type given to Spawn.</summary>
        public ushort Type { get; }
        /// <summary>The peer that spawned it.</summary>
        public ushort Spawner { get; }
        /// <summary>Its owner now.</summary>
        public ushort Owner { get; }
        /// <summary>The frame it was spawned in.</summary>
        public int Frame { get; }
        /// <summary>Its spawn bytes.</summary>
        public byte[] SpawnBytes { get; }
    }

    /// <summary>What a LAN announcer or seeker did so far.</summary>
    public readonly struct LanStats
    {
        internal LanStats(in shoal_lan_stats s) { Sent = s.sent; Received = s.received; OtherSessions = s.other_sessions; Dropped = s.dropped; }

        /// <summary>Announcer: datagrams sent.</summary>
        public ulong Sent { get; }
        /// <summary>Seeker: datagrams heard.</summary>
        public ulong Received { get; }
        /// <summary>Seeker: announcements of another session.</summary>
        public ulong OtherSessions { get; }
        /// <summary>Seeker: garbage, other versions, truncated.</summary>
        public ulong Dropped { get; }
    }

    /// <summary>One heard LAN announcement.</summary>
    public sealed class LanSession
    {
        internal unsafe LanSession(in shoal_lan_session s)
        {
            fixed (byte* name = s.session) Session = Text.Read(name, Capacity.LanSession);
            Address = Address.FromNative(s.address);
            ProtocolVersion = s.protocol_version;
        }

        /// <summary>The session's name.</summary>
        public string Session { get; }
        /// <summary>Where the host's transport listens: join there.</summary>
        public Address Address { get; }
        /// <summary>The host's protocol version.</summary>
        public int ProtocolVersion { get; }
    }

    /// <summary>A session running on a relay (the lobby).</summary>
    public sealed class RelaySession
    {
        internal unsafe RelaySession(in shoal_relay_session s)
        {
            fixed (byte* id = s.session) Session = Text.Read(id, Capacity.RelayId);
            fixed (byte* code = s.code) Code = Text.Read(code, Capacity.RelayId);
            Members = (int)s.members;
        }

        /// <summary>Its id.</summary>
        public string Session { get; }
        /// <summary>Its short code.</summary>
        public string Code { get; }
        /// <summary>Peers in it now.</summary>
        public int Members { get; }
    }

    /// <summary>A connection's figures, smoothed over about a second (shoal_link_stats).</summary>
    public struct LinkStats
    {
        /// <summary>Round-trip time, ms.</summary>
        public float RttMs;
        /// <summary>Its variation, ms.</summary>
        public float RttVarianceMs;
        /// <summary>0..1.</summary>
        public float PacketLoss;
        /// <summary>Datagrams sent per second.</summary>
        public float PacketsOutPerS;
        /// <summary>Datagrams received per second.</summary>
        public float PacketsInPerS;
        /// <summary>Bytes sent per second.</summary>
        public float BytesOutPerS;
        /// <summary>Bytes received per second.</summary>
        public float BytesInPerS;
    }
}
