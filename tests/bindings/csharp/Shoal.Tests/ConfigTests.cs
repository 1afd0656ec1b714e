// SPDX-License-Identifier: MIT
// Configs start from the C++ defaults, and what the library refuses comes back as a
// ShoalException carrying its own message, which names the field.
using System;
using Xunit;

namespace Shoal.Tests
{
    public class ConfigTests
    {
        [Fact]
        public void DefaultsComeFromTheLibrary()
        {
            var config = new PeerConfig();
            Assert.Equal("shoal", config.Session);
            Assert.InRange(config.TickHz, 1, 1000);
            Assert.True(config.HistoryFrames >= config.MaxResimulatedFrames + 8);
            Assert.True(config.Quantize && config.Delta && !config.ExactCompare);
            Assert.True(config.SmoothingDefault.WarpDistanceM > 0);
            Assert.True(new WorldConfig().Gravity.Y < 0);
            var enet = new EnetConfig();
            Assert.Equal("127.0.0.1", enet.BindHost);
            Assert.False(enet.Insecure);  // secured by default
            Assert.Equal("", enet.Credentials);
            Assert.True(enet.TokenGraceMs > 0);
            Assert.Equal(1.0f, ObjectState.Default.Orientation.W);
        }

        [Fact]
        public void AWrongPeerConfigValueThrowsWithShoalsMessageNamingTheField()
        {
            using var world = MemoryMatch.BuildWorld(1);
            using var network = new MemoryNetwork(1);
            var config = new PeerConfig { TickHz = 0 };
            var e = Assert.Throws<ShoalException>(() => new Peer(config, world, network.CreateEndpoint()));
            Assert.Equal(ErrorCode.InvalidArgument, e.Code);
            Assert.Contains("tick_hz", e.Message);
            Assert.Contains("shoal_peer_create_with_world", e.Message);  // the function, as shoal_last_error says
            // The world is free again: a good config makes a peer on it.
            using var peer = new Peer(new PeerConfig(), world, network.CreateEndpoint());
        }

        [Fact]
        public void AWrongWorldValueNamesTheField()
        {
            var e = Assert.Throws<ShoalException>(() => new World(new WorldConfig { SolverIterations = 0 }));
            Assert.Contains("solver_iterations", e.Message);
        }

        [Fact]
        public void ENetRefusesToStartWithoutCredentialsUnlessTheGameAsksForTheClear()
        {
            var e = Assert.Throws<ShoalException>(() => Transport.Enet(new EnetConfig()));
            Assert.Contains("credentials", e.Message);
            Assert.Contains("insecure", e.Message);
            var bad = Assert.Throws<ShoalException>(() => Transport.Enet(new EnetConfig { Credentials = "not credentials" }));
            Assert.Contains("not well-formed", bad.Message);
            using var authority = new Authority("config-test");
            using (Transport.Enet(new EnetConfig { Credentials = authority.Invite(60) })) { }
            using (Transport.Enet(new EnetConfig { Insecure = true })) { }
        }

        [Fact]
        public void TextTooLongForItsFieldIsRefusedByName()
        {
            var e = Assert.Throws<ArgumentException>(() => new PeerConfig { Session = new string('x', 256) });
            Assert.Contains("Session", e.Message);
            Assert.Contains("255", e.Message);
        }
    }
}
