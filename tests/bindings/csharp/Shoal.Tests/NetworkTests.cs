// SPDX-License-Identifier: MIT
// Real sockets on loopback: two peers over ENet, secured with credentials of one authority,
// the joiner finding the host by LAN discovery; the relay's session codes and hybrid addresses.
using System;
using System.Diagnostics;
using Xunit;

namespace Shoal.Tests
{
    public class NetworkTests
    {
        [Fact]
        public void TwoSecuredPeersOverENetMeetThroughLanDiscovery()
        {
            using var authority = new Authority("csharp-enet");
            var lan = new LanConfig { Port = 47481, LoopbackOnly = true, AnnounceIntervalMs = 50 };
            using World hostWorld = MemoryMatch.BuildWorld(2), guestWorld = MemoryMatch.BuildWorld(2);
            var config = new PeerConfig { Session = "csharp-enet" };
            using var host = new Peer(config, hostWorld, Transport.Enet(new EnetConfig { Credentials = authority.Invite(600), TimeoutMs = 3000 }));
            using var guest = new Peer(config, guestWorld, Transport.Enet(new EnetConfig { Credentials = authority.Invite(600), TimeoutMs = 3000 }));
            host.SetControlled(1);
            guest.SetControlled(2);
            host.Host();
            using var announcer = new LanAnnouncer(lan, "csharp-enet", host.Address);
            using var seeker = new LanSeeker(lan);
            LanSession? found = null;
            var clock = Stopwatch.StartNew();
            while (found == null && clock.ElapsedMilliseconds < 5000)
            {
                announcer.Update();
                host.Update();
                found = seeker.Find("csharp-enet", 20);
            }
            Assert.NotNull(found);
            Assert.Equal(host.Address.Port, found!.Address.Port);
            Assert.True(announcer.Stats.Sent > 0 && seeker.Stats.Received > 0);
            guest.Join(found.Address);
            while (clock.ElapsedMilliseconds < 15000 && !(guest.InMatch && host.ReadPeers(Span<ushort>.Empty) == 2 && guest.Owner(1) == 0 && host.Owner(2) == 1))
            {
                host.Update();
                guest.Update();
                while (host.PollEvent(out _)) { }
                while (guest.PollEvent(out _)) { }
                host.Wait(2);
            }
            Assert.True(guest.InMatch);
            Assert.Equal(new ushort[] { 0, 1 }, guest.Peers);
            Assert.Equal((ushort)1, host.Owner(2));
        }

        [Fact]
        public void RelayCodesAndHybridAddresses()
        {
            string code = Relay.SessionCode("friday-night");
            Assert.Equal(6, code.Length);
            Assert.Equal(code, Relay.SessionCode("friday-night"));
            Address hybrid = Relay.HybridAddress(new Address("203.0.113.7", 40000), Relay.HostSlot);
            Assert.Equal("203.0.113.7/1", hybrid.Host);
            var relay = new RelayConfig { Session = "friday-night", Token = "t0k3n", Relay = new Address("127.0.0.1", 9) };
            Assert.Equal("friday-night", relay.Session);
            Assert.Equal(9, relay.Relay.Port);
            // Secured by default through its local socket's config, as ENet.
            var e = Assert.Throws<ShoalException>(() => Transport.Relay(relay));
            Assert.Contains("credentials", e.Message);
            EnetConfig local = relay.Local;
            local.Insecure = true;
            relay.Local = local;
            using (Transport.Relay(relay)) { }
            var hybridConfig = new HybridConfig();
            Assert.True(hybridConfig.DirectTimeoutMs > 0);
            Assert.Throws<ShoalException>(() => Transport.Hybrid(hybridConfig));  // no credentials, no relay named
        }
    }
}
