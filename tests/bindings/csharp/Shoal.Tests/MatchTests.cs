// SPDX-License-Identifier: MIT
using System.Linq;
using Xunit;

namespace Shoal.Tests
{
    public class MatchTests
    {
        [Fact]
        public void ThreePeersAtTenPercentLossEndConsistentBitForBit()
        {
            using var match = new MemoryMatch(seed: 48, loss: 0.10f);
            for (int p = 0; p < 3; ++p) match.AddPeer(3, match.Network.CreateEndpoint());
            match.Connect();
            match.Play(frames: 420, restFrames: 600);
            PeerStats host = match.Peers[0].Stats;
            Assert.True(host.SnapshotsReceived > 100, $"the host heard {host.SnapshotsReceived} snapshots");
            Assert.Equal(0UL, host.Desyncs);
            // The boxes were pushed off their row (else a match that never moved would pass).
            Assert.Contains(MemoryMatch.Boxes, id => !Bits.Same(match.Peers[0].State(id), ObjectState.At(-2.25f + 1.5f * (id - 100), 0.4f, 0)));
            match.AssertConsistent(MemoryMatch.Balls.Take(3).Concat(MemoryMatch.Boxes));
            foreach (Peer peer in match.Peers)
            {
                Assert.Equal(new ushort[] { 0, 1, 2 }, peer.Peers);
                for (int p = 0; p < 3; ++p) Assert.Equal((ushort)p, peer.Owner(MemoryMatch.Balls[p]));
            }
        }
    }
}
