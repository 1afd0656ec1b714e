// SPDX-License-Identifier: MIT
// Every enum of shoal.h, with the C values.
namespace Shoal
{
    /// <summary>How much a correction re-simulates (shoal_catchup_scope).</summary>
    public enum CatchupScope
    {
        /// <summary>The whole simulated region.</summary>
        Region = 0,
        /// <summary>The corrected objects and what they touch.</summary>
        Object = 1,
    }

    /// <summary>Whether an object is driven by a player or bot (shoal_control_mode).</summary>
    public enum ControlMode
    {
        /// <summary>Nobody drives it.</summary>
        Uncontrolled = 0,
        /// <summary>A player or bot drives it.</summary>
        Controlled = 1,
    }

    /// <summary>How much a log line matters (shoal_log_level).</summary>
    public enum LogLevel
    {
        /// <summary>Routine: a stale snapshot dropped.</summary>
        Debug = 0,
        /// <summary>Worth knowing: an object snapped, a peer expelled.</summary>
        Info = 1,
        /// <summary>A malformed or hostile message dropped, a peer refused.</summary>
        Warn = 2,
        /// <summary>This peer failed at something.</summary>
        Error = 3,
        /// <summary>As a config's level: no line at all.</summary>
        Off = 4,
    }

    /// <summary>What a peer reports (shoal_event_kind).</summary>
    public enum EventKind
    {
        /// <summary>This peer has an id and a synchronised clock.</summary>
        JoinedMatch = 0,
        /// <summary>A peer connected to this one.</summary>
        PeerJoined = 1,
        /// <summary>A peer left or stayed away too long; its objects passed on.</summary>
        PeerLeft = 2,
        /// <summary>A peer timed out; its objects wait for the rejoin grace period.</summary>
        PeerLost = 3,
        /// <summary>A lost peer came back in time.</summary>
        PeerRejoined = 4,
        /// <summary>An object's owner changed.</summary>
        OwnershipChanged = 5,
        /// <summary>An owner corrected an object at a frame, depth frames back.</summary>
        OverrideApplied = 6,
        /// <summary>An object was too far behind to re-simulate: snapped.</summary>
        Snapped = 7,
        /// <summary>A frame disagrees with a peer's checksum.</summary>
        Desync = 8,
        /// <summary>Joining gave up: see JoinStep and JoinFailure.</summary>
        JoinFailed = 9,
        /// <summary>A peer of another wire version or encoding was refused; see Peer.EventReason.</summary>
        IncompatiblePeer = 10,
        /// <summary>A game message; its bytes: Peer.LastMessage.</summary>
        Message = 11,
    }

    /// <summary>How a game message travels (shoal_delivery).</summary>
    public enum Delivery
    {
        /// <summary>Arrives once, in order per sender.</summary>
        Reliable = 0,
        /// <summary>May be lost or reordered, never waits.</summary>
        Unreliable = 1,
    }

    /// <summary>The steps of joining a match (shoal_join_step).</summary>
    public enum JoinStep
    {
        /// <summary>Neither host nor join yet.</summary>
        Idle = 0,
        /// <summary>Reaching the host.</summary>
        Connecting = 1,
        /// <summary>Connecting to every member.</summary>
        Meshing = 2,
        /// <summary>Measuring the match clock.</summary>
        Syncing = 3,
        /// <summary>In the match, waiting for baselines.</summary>
        Baselines = 4,
        /// <summary>In the match with everything it needs.</summary>
        Joined = 5,
        /// <summary>Gave up.</summary>
        Failed = 6,
    }

    /// <summary>Why a join failed (shoal_join_failure).</summary>
    public enum JoinFailure
    {
        /// <summary>It did not fail.</summary>
        None = 0,
        /// <summary>A peer never answered in time.</summary>
        NoAnswer = 1,
        /// <summary>The host turned the request down.</summary>
        Refused = 2,
        /// <summary>The host connection ended first.</summary>
        HostLost = 3,
        /// <summary>Another wire version or encoding.</summary>
        Incompatible = 4,
    }

    /// <summary>The channels of a transport and what each promises (shoal_channel).</summary>
    public enum Channel
    {
        /// <summary>Reliable and ordered.</summary>
        Control = 0,
        /// <summary>Unreliable; stale messages may be dropped.</summary>
        State = 1,
        /// <summary>Unreliable and unordered.</summary>
        Time = 2,
    }

    /// <summary>What a transport reports (shoal_transport_event_kind).</summary>
    public enum TransportEventKind
    {
        /// <summary>A connection is up.</summary>
        Connected = 0,
        /// <summary>A connection ended gracefully.</summary>
        Disconnected = 1,
        /// <summary>A connection was lost, or never came up.</summary>
        TimedOut = 2,
        /// <summary>A message arrived.</summary>
        Message = 3,
    }

    /// <summary>Why something received was dropped (shoal_drop_reason).</summary>
    public enum DropReason
    {
        /// <summary>Not a Shoal datagram.</summary>
        BadMagic = 0,
        /// <summary>A protocol version this build does not speak.</summary>
        UnsupportedVersion = 1,
        /// <summary>A message kind not known.</summary>
        UnknownKind = 2,
        /// <summary>Ends before the data it announces.</summary>
        Truncated = 3,
        /// <summary>Longer than the limit for its kind.</summary>
        Oversize = 4,
        /// <summary>Parses, but a value is impossible.</summary>
        Malformed = 5,
        /// <summary>Older than what was accepted.</summary>
        Stale = 6,
        /// <summary>State for an object the sender does not own.</summary>
        NotOwner = 7,
        /// <summary>Without a valid join token in time.</summary>
        NoToken = 8,
        /// <summary>A token or signature that does not verify.</summary>
        BadToken = 9,
        /// <summary>A join token past its expiry.</summary>
        TokenExpired = 10,
        /// <summary>A join token for another session.</summary>
        WrongSession = 11,
        /// <summary>Fails authentication.</summary>
        Forged = 12,
        /// <summary>A sealed message received before.</summary>
        Replayed = 13,
        /// <summary>An impossible spawn or removal.</summary>
        BadSpawn = 14,
        /// <summary>Past the sender's limits.</summary>
        OverLimit = 15,
        /// <summary>The number of reasons; not a reason itself.</summary>
        Count = 16,
    }
}
