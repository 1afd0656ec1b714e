// SPDX-License-Identifier: MIT
#nullable enable  // as in Unity, where the project does not turn it on
using System;
using Shoal.Interop;

namespace Shoal
{
    /// <summary>
    /// A network endpoint, given to exactly one <see cref="Peer"/>, which then owns it (this object
    /// is then spent). ENet, relay and hybrid transports are secured when made, from their config's
    /// credentials, unless the config asks for the clear (Insecure).
    /// </summary>
    public sealed class Transport : IDisposable
    {
        private TransportHandle? handle;

        internal Transport(IntPtr pointer) { handle = new TransportHandle(pointer); }

        /// <summary>Binds a UDP endpoint. Throws ShoalException naming what is wrong: no credentials
        /// and not Insecure, a bad field, a port in use.</summary>
        public static Transport Enet(EnetConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_transport_create_enet(config.raw, out IntPtr pointer));
            return new Transport(pointer);
        }

        /// <summary>A transport whose connections all go through a relay (shoal-relay), secured by
        /// config.Local's credentials; it joins the session in the background.</summary>
        public static Transport Relay(RelayConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_transport_create_relay(config.raw, out IntPtr pointer));
            return new Transport(pointer);
        }

        /// <summary>Direct where possible, the relay where not, secured by config.Direct's credentials.</summary>
        public static Transport Hybrid(HybridConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_transport_create_hybrid(config.raw, out IntPtr pointer));
            return new Transport(pointer);
        }

        /// <summary>A transport made of the game's own network (<see cref="CustomTransport"/>), in the
        /// clear unless secured (<see cref="Secure"/>).</summary>
        public static Transport Custom(CustomTransport transport) => transport.CreateNative();

        /// <summary>Secures a transport made in the clear (in-process, custom, or ENet with Insecure),
        /// in place, with this peer's credentials; 0 = the default token grace.</summary>
        public void Secure(string credentials, uint tokenGraceMs = 0) =>
            ShoalException.Check(Native.shoal_transport_secure(Live(), credentials, tokenGraceMs));

        /// <summary>Hands the native transport over to a peer being made: from now on it is the peer's,
        /// whatever the outcome.</summary>
        internal IntPtr Take()
        {
            TransportHandle live = Live();
            IntPtr pointer = live.DangerousGetHandle();
            live.SetHandleAsInvalid();
            handle = null;
            return pointer;
        }

        private TransportHandle Live() =>
            handle ?? throw new ObjectDisposedException(nameof(Transport), "the transport was given to a peer or disposed");

        /// <summary>Destroys a transport never given to a peer; nothing once a peer took it.</summary>
        public void Dispose()
        {
            handle?.Dispose();
            handle = null;
        }
    }

    /// <summary>
    /// An in-process network whose time and losses the caller controls: deterministic matches for
    /// tests and tools (host "mem").
    /// </summary>
    public sealed class MemoryNetwork : IDisposable
    {
        private readonly MemoryNetworkHandle handle;

        /// <summary>A network whose impairments replay from <paramref name="seed"/>.</summary>
        public MemoryNetwork(ulong seed)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_memory_network_create(seed, out IntPtr pointer));
            handle = new MemoryNetworkHandle(pointer);
        }

        /// <summary>Sets the network's clock, µs; call it before updating the peers at that time.</summary>
        public void SetTime(long nowUs) => ShoalException.Check(Native.shoal_memory_network_set_time_us(handle, nowUs));

        /// <summary>Impairs every link, both directions.</summary>
        public void SetConditions(LinkConditions conditions) =>
            ShoalException.Check(Native.shoal_memory_network_set_conditions(handle, conditions));

        /// <summary>A new endpoint at host "mem", <paramref name="port"/> (0 = the next free one).</summary>
        public Transport CreateEndpoint(ushort port = 0, uint timeoutMs = 2000)
        {
            ShoalException.Check(Native.shoal_memory_network_create_endpoint(handle, port, timeoutMs, out IntPtr pointer));
            return new Transport(pointer);
        }

        /// <summary>Destroys the handle; endpoints keep working, but time no longer advances.</summary>
        public void Dispose() => handle.Dispose();
    }

    /// <summary>Issues the credentials of one session (shoal::SessionAuthority); usually the host's.</summary>
    public sealed class Authority : IDisposable
    {
        private readonly AuthorityHandle handle;

        /// <summary>A fresh authority (a random signing key) for <paramref name="session"/>, 1..64 bytes.</summary>
        public Authority(string session)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_authority_create(session, out IntPtr pointer));
            handle = new AuthorityHandle(pointer);
        }

        /// <summary>Credentials for one peer, valid for this many seconds, as text: secret, hand them
        /// to that peer only.</summary>
        public string Invite(long validitySeconds = 12 * 3600)
        {
            var buffer = new byte[Capacity.Credentials];
            ShoalException.Check(Native.shoal_authority_invite(handle, validitySeconds, buffer));
            return Text.FromBuffer(buffer);
        }

        /// <summary>Destroys the authority (its credentials stay valid).</summary>
        public void Dispose() => handle.Dispose();
    }

    /// <summary>Relays: the session codes, the lobby, and hybrid addresses.</summary>
    public static class Relay
    {
        /// <summary>The slot the match host asks for.</summary>
        public const ushort HostSlot = 1;
        /// <summary>The host name of peers reached through the relay: join (VirtualHost, HostSlot).</summary>
        public const string VirtualHost = "relay";

        /// <summary>The short code <paramref name="session"/> has on every relay.</summary>
        public static string SessionCode(string session)
        {
            Library.EnsureCompatible();
            var buffer = new byte[Capacity.RelayId];
            ShoalException.Check(Native.shoal_relay_session_code(session, buffer));
            return Text.FromBuffer(buffer);
        }

        /// <summary>Asks a relay for its sessions, blocking up to <paramref name="timeoutMs"/>.</summary>
        public static RelaySession[] ListSessions(Address relay, int timeoutMs, int capacity = 64)
        {
            Library.EnsureCompatible();
            var sessions = new shoal_relay_session[capacity];
            ShoalException.Check(Native.shoal_relay_list_sessions(relay.ToNative("relay"), timeoutMs, sessions, (uint)capacity, out uint count));
            var found = new RelaySession[Math.Min((int)count, capacity)];
            for (int i = 0; i < found.Length; ++i) found[i] = new RelaySession(sessions[i]);
            return found;
        }

        /// <summary>The address to join a hybrid peer at: its direct address and its relay slot (0: none).</summary>
        public static Address HybridAddress(Address direct, ushort relaySlot)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_hybrid_address(direct.ToNative("direct"), relaySlot, out shoal_address address));
            return Address.FromNative(address);
        }
    }

    /// <summary>Announces one session on the LAN (shoal::LanAnnouncer).</summary>
    public sealed class LanAnnouncer : IDisposable
    {
        private readonly LanAnnouncerHandle handle;

        /// <summary>Announces <paramref name="session"/> at <paramref name="address"/> (the host's Peer.Address).</summary>
        public LanAnnouncer(LanConfig config, string session, Address address)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_lan_announcer_create(config.raw, session, address.ToNative("address"), out IntPtr pointer));
            handle = new LanAnnouncerHandle(pointer);
        }

        /// <summary>Sends the announcement when the interval has passed; never blocks. Once per frame.</summary>
        public void Update() => ShoalException.Check(Native.shoal_lan_announcer_update(handle));

        /// <summary>Its counters (Sent).</summary>
        public LanStats Stats
        {
            get
            {
                ShoalException.Check(Native.shoal_lan_announcer_stats(handle, out shoal_lan_stats stats));
                return new LanStats(stats);
            }
        }

        /// <summary>Stops announcing.</summary>
        public void Dispose() => handle.Dispose();
    }

    /// <summary>Listens for LAN announcements (shoal::LanSeeker).</summary>
    public sealed class LanSeeker : IDisposable
    {
        private readonly LanSeekerHandle handle;

        /// <summary>A seeker listening on config.Port.</summary>
        public LanSeeker(LanConfig config)
        {
            Library.EnsureCompatible();
            ShoalException.Check(Native.shoal_lan_seeker_create(config.raw, out IntPtr pointer));
            handle = new LanSeekerHandle(pointer);
        }

        /// <summary>The first announcement of <paramref name="session"/> heard so far, or null; never blocks.</summary>
        public LanSession? Poll(string session)
        {
            ShoalException.Check(Native.shoal_lan_seeker_poll(handle, session, out shoal_lan_session found, out int ok));
            return ok != 0 ? new LanSession(found) : null;
        }

        /// <summary>The same, waiting up to <paramref name="timeoutMs"/>.</summary>
        public LanSession? Find(string session, int timeoutMs)
        {
            ShoalException.Check(Native.shoal_lan_seeker_find(handle, session, timeoutMs, out shoal_lan_session found, out int ok));
            return ok != 0 ? new LanSession(found) : null;
        }

        /// <summary>Its counters.</summary>
        public LanStats Stats
        {
            get
            {
                ShoalException.Check(Native.shoal_lan_seeker_stats(handle, out shoal_lan_stats stats));
                return new LanStats(stats);
            }
        }

        /// <summary>Closes the seeker's socket.</summary>
        public void Dispose() => handle.Dispose();
    }
}
