// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
// The settings of worlds, transports and LAN discovery: each a class over its C struct, starting
// from the C++ defaults read from the library. The library checks them and names what it refuses.
using Shoal.Interop;

namespace Shoal
{
    /// <summary>The reference physics' settings (shoal::ReferencePhysicsConfig).</summary>
    public sealed class WorldConfig
    {
        internal shoal_world_config raw;

        /// <summary>The C++ defaults.</summary>
        public WorldConfig()
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_world_config_default(out raw));
        }

        /// <summary>Seconds per step, (0, 1]; match 1 / TickHz.</summary>
        public float Dt { get => raw.dt; set => raw.dt = value; }
        /// <summary>m/s^2.</summary>
        public Vec3 Gravity { get => raw.gravity; set => raw.gravity = value; }
        /// <summary>Walls at x = +-ArenaHalfX (m), > 0.</summary>
        public float ArenaHalfX { get => raw.arena_half_x; set => raw.arena_half_x = value; }
        /// <summary>Walls at z = +-ArenaHalfZ (m), > 0; ground at y = 0.</summary>
        public float ArenaHalfZ { get => raw.arena_half_z; set => raw.arena_half_z = value; }
        /// <summary>Bounciness of every contact, 0..1.</summary>
        public float Restitution { get => raw.restitution; set => raw.restitution = value; }
        /// <summary>Coulomb coefficient, >= 0.</summary>
        public float Friction { get => raw.friction; set => raw.friction = value; }
        /// <summary>1/s, >= 0.</summary>
        public float LinearDamping { get => raw.linear_damping; set => raw.linear_damping = value; }
        /// <summary>1/s, >= 0.</summary>
        public float AngularDamping { get => raw.angular_damping; set => raw.angular_damping = value; }
        /// <summary>Contact solver passes per step, 1..256.</summary>
        public int SolverIterations { get => raw.solver_iterations; set => raw.solver_iterations = value; }
        /// <summary>Still bodies fall asleep.</summary>
        public bool AllowSleep { get => raw.allow_sleep != 0; set => raw.allow_sleep = value ? 1 : 0; }
        /// <summary>m/s below which a body counts as still.</summary>
        public float SleepLinearSpeed { get => raw.sleep_linear_speed; set => raw.sleep_linear_speed = value; }
        /// <summary>rad/s below which a body counts as still.</summary>
        public float SleepAngularSpeed { get => raw.sleep_angular_speed; set => raw.sleep_angular_speed = value; }
        /// <summary>Frames a still group waits before sleeping, >= 1.</summary>
        public int SleepFrames { get => raw.sleep_frames; set => raw.sleep_frames = value; }
        /// <summary>m/s^2 of a full input push.</summary>
        public float PushAcceleration { get => raw.push_acceleration; set => raw.push_acceleration = value; }
        /// <summary>m/s past which pushing stops accelerating.</summary>
        public float MaxPushSpeed { get => raw.max_push_speed; set => raw.max_push_speed = value; }
        /// <summary>Frames of engine state kept for catch-up, >= 1.</summary>
        public int HistoryFrames { get => raw.history_frames; set => raw.history_frames = value; }
        /// <summary>Broad-phase cell edge (m), > 0.</summary>
        public float GridCellSize { get => raw.grid_cell_size; set => raw.grid_cell_size = value; }
    }

    /// <summary>An ENet (UDP) endpoint's settings (shoal::TransportConfig). Secured by default:
    /// set <see cref="Credentials"/> (from <see cref="Authority.Invite"/>), or <see cref="Insecure"/> = true.</summary>
    public sealed class EnetConfig
    {
        internal shoal_enet_config raw;

        /// <summary>The C++ defaults: 127.0.0.1, any free port, secured.</summary>
        public EnetConfig()
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_enet_config_default(out raw));
        }

        internal EnetConfig(shoal_enet_config from) { raw = from; }

        /// <summary>Local address ("0.0.0.0" = every interface).</summary>
        public unsafe string BindHost
        {
            get { fixed (byte* p = raw.bind_host) return Text.Read(p, Capacity.Host); }
            set { fixed (byte* p = raw.bind_host) Text.Write(value, p, Capacity.Host, nameof(BindHost)); }
        }

        /// <summary>This peer's credentials (Authority.Invite); "" = none.</summary>
        public unsafe string Credentials
        {
            get { fixed (byte* p = raw.credentials) return Text.Read(p, Capacity.Credentials); }
            set { fixed (byte* p = raw.credentials) Text.Write(value, p, Capacity.Credentials, nameof(Credentials)); }
        }

        /// <summary>UDP port, 0 = any free one (see Peer.Address).</summary>
        public ushort Port { get => raw.port; set => raw.port = value; }
        /// <summary>Peers this endpoint accepts.</summary>
        public uint MaxConnections { get => raw.max_connections; set => raw.max_connections = value; }
        /// <summary>Silence after which a connection times out, > 0.</summary>
        public uint TimeoutMs { get => raw.timeout_ms; set => raw.timeout_ms = value; }
        /// <summary>Simulated bad network; the defaults impair nothing.</summary>
        public Conditioner Conditioner { get => raw.conditioner; set => raw.conditioner = value; }
        /// <summary>In the clear, asked for explicitly (every end of a link must agree). False (the default): Credentials are needed.</summary>
        public bool Insecure { get => raw.insecure != 0; set => raw.insecure = value ? 1 : 0; }
        /// <summary>How long a connection may take to present a valid token, 1..60000.</summary>
        public uint TokenGraceMs { get => raw.token_grace_ms; set => raw.token_grace_ms = value; }
    }

    /// <summary>A relay client's settings (shoal::RelayClientConfig): which relay, which session.</summary>
    public sealed class RelayConfig
    {
        internal shoal_relay_config raw;

        /// <summary>The C++ defaults (no relay, session or token: set them).</summary>
        public RelayConfig()
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_relay_config_default(out raw));
        }

        internal RelayConfig(shoal_relay_config from) { raw = from; }

        /// <summary>The relay server.</summary>
        public Address Relay { get => Address.FromNative(raw.relay); set => raw.relay = value.ToNative(nameof(Relay)); }

        /// <summary>Session id (created by its first member), or empty and...</summary>
        public unsafe string Session
        {
            get { fixed (byte* p = raw.session) return Text.Read(p, Capacity.RelayId); }
            set { fixed (byte* p = raw.session) Text.Write(value, p, Capacity.RelayId, nameof(Session)); }
        }

        /// <summary>... the short code of a running session.</summary>
        public unsafe string Code
        {
            get { fixed (byte* p = raw.code) return Text.Read(p, Capacity.RelayId); }
            set { fixed (byte* p = raw.code) Text.Write(value, p, Capacity.RelayId, nameof(Code)); }
        }

        /// <summary>Must equal the token the session was created with.</summary>
        public unsafe string Token
        {
            get { fixed (byte* p = raw.token) return Text.Read(p, Capacity.RelayId); }
            set { fixed (byte* p = raw.token) Text.Write(value, p, Capacity.RelayId, nameof(Token)); }
        }

        /// <summary>The local socket, and the credentials that secure the relay's links (a copy:
        /// change it, then set it back).</summary>
        public EnetConfig Local { get => new EnetConfig(raw.local); set => raw.local = value.raw; }

        /// <summary>0 = any free slot; Relay.HostSlot for the match host.</summary>
        public ushort Slot { get => raw.slot; set => raw.slot = value; }
        /// <summary>A relay restart shorter than this is survived.</summary>
        public uint ResumeTimeoutMs { get => raw.resume_timeout_ms; set => raw.resume_timeout_ms = value; }
        /// <summary>Silence after which the relay counts as lost and is rejoined.</summary>
        public uint RelayTimeoutMs { get => raw.relay_timeout_ms; set => raw.relay_timeout_ms = value; }
    }

    /// <summary>A hybrid transport's settings (shoal::HybridConfig): direct where possible, the relay where not.</summary>
    public sealed class HybridConfig
    {
        internal shoal_hybrid_config raw;

        /// <summary>The C++ defaults.</summary>
        public HybridConfig()
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_hybrid_config_default(out raw));
        }

        /// <summary>The fallback relay (a copy: change it, then set it back); its Local socket is
        /// unused, the direct one is shared.</summary>
        public RelayConfig Relay { get => new RelayConfig(raw.relay); set => raw.relay = value.raw; }

        /// <summary>The one socket, and the credentials that secure every link (a copy: change it,
        /// then set it back).</summary>
        public EnetConfig Direct { get => new EnetConfig(raw.direct); set => raw.direct = value.raw; }

        /// <summary>No direct connection within this: use the relay.</summary>
        public uint DirectTimeoutMs { get => raw.direct_timeout_ms; set => raw.direct_timeout_ms = value; }
        /// <summary>While on the relay, try direct again this often.</summary>
        public uint DirectRetryMs { get => raw.direct_retry_ms; set => raw.direct_retry_ms = value; }
    }

    /// <summary>LAN discovery's settings (shoal::LanDiscoveryConfig); host and joiners must use the same port.</summary>
    public sealed class LanConfig
    {
        internal shoal_lan_config raw;

        /// <summary>The C++ defaults.</summary>
        public LanConfig()
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_lan_config_default(out raw));
        }

        /// <summary>UDP port the announcements go to; host and joiners must agree.</summary>
        public ushort Port { get => raw.port; set => raw.port = value; }
        /// <summary>Time between announcements, 10..10000.</summary>
        public int AnnounceIntervalMs { get => raw.announce_interval_ms; set => raw.announce_interval_ms = value; }
        /// <summary>Announce on loopback alone (every peer on this machine).</summary>
        public bool LoopbackOnly { get => raw.loopback_only != 0; set => raw.loopback_only = value ? 1 : 0; }
    }

    /// <summary>A Box2D world's settings (shoal_box2d_config).</summary>
    public sealed class Box2dConfig
    {
        internal shoal_box2d_config raw;

        /// <summary>The C++ adapter's defaults, a world seen from above.</summary>
        public Box2dConfig()
        {
            Library.EnsureCompatible();
            try
            {
                ShoalException.Check(Native.shoal_box2d_config_default(out raw));
            }
            catch (System.EntryPointNotFoundException)
            {
                throw Engines.Missing("Box2D");
            }
        }

        /// <summary>m/s^2; 0 (the default) for a world seen from above.</summary>
        public float GravityX { get => raw.gravity_x; set => raw.gravity_x = value; }
        /// <summary>m/s^2.</summary>
        public float GravityY { get => raw.gravity_y; set => raw.gravity_y = value; }
        /// <summary>Seconds per step, (0, 1].</summary>
        public float Dt { get => raw.dt; set => raw.dt = value; }
        /// <summary>b2World::Step's, 1..256.</summary>
        public int VelocityIterations { get => raw.velocity_iterations; set => raw.velocity_iterations = value; }
        /// <summary>b2World::Step's, 1..256.</summary>
        public int PositionIterations { get => raw.position_iterations; set => raw.position_iterations = value; }
        /// <summary>m/s^2 of a full input push.</summary>
        public float PushAcceleration { get => raw.push_acceleration; set => raw.push_acceleration = value; }
        /// <summary>m/s: pushing does not speed a body past this.</summary>
        public float MaxPushSpeed { get => raw.max_push_speed; set => raw.max_push_speed = value; }
        /// <summary>Of every body added.</summary>
        public float Friction { get => raw.friction; set => raw.friction = value; }
        /// <summary>Of every body added, 0..1.</summary>
        public float Restitution { get => raw.restitution; set => raw.restitution = value; }
        /// <summary>Of every body added, 1/s.</summary>
        public float LinearDamping { get => raw.linear_damping; set => raw.linear_damping = value; }
        /// <summary>Of every body added, 1/s.</summary>
        public float AngularDamping { get => raw.angular_damping; set => raw.angular_damping = value; }
    }

    /// <summary>A Bullet world's settings (shoal_bullet_config).</summary>
    public sealed class BulletConfig
    {
        internal shoal_bullet_config raw;

        /// <summary>The C++ adapter's defaults and Bullet's materials.</summary>
        public BulletConfig()
        {
            Library.EnsureCompatible();
            try
            {
                ShoalException.Check(Native.shoal_bullet_config_default(out raw));
            }
            catch (System.EntryPointNotFoundException)
            {
                throw Engines.Missing("Bullet");
            }
        }

        /// <summary>m/s^2, y up.</summary>
        public Vec3 Gravity { get => raw.gravity; set => raw.gravity = value; }
        /// <summary>Seconds per step, (0, 1].</summary>
        public float Dt { get => raw.dt; set => raw.dt = value; }
        /// <summary>m/s^2 of a full input push.</summary>
        public float PushAcceleration { get => raw.push_acceleration; set => raw.push_acceleration = value; }
        /// <summary>m/s: pushing does not speed a body past this.</summary>
        public float MaxPushSpeed { get => raw.max_push_speed; set => raw.max_push_speed = value; }
        /// <summary>Of every body added.</summary>
        public float Friction { get => raw.friction; set => raw.friction = value; }
        /// <summary>Of every body added, 0..1.</summary>
        public float Restitution { get => raw.restitution; set => raw.restitution = value; }
        /// <summary>Of every body added: the share of its speed lost per second, 0..1.</summary>
        public float LinearDamping { get => raw.linear_damping; set => raw.linear_damping = value; }
        /// <summary>Of every body added, likewise.</summary>
        public float AngularDamping { get => raw.angular_damping; set => raw.angular_damping = value; }
    }
}
