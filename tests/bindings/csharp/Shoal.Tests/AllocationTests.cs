// SPDX-License-Identifier: MIT
// What a game calls every frame allocates nothing on the managed heap once the match runs,
// and the bulk reads give what the per-object calls give.
using System;
using System.Linq;
using Xunit;

namespace Shoal.Tests
{
    public class AllocationTests
    {
        [Fact]
        public void TheCallsOfEveryFrameAllocateNothingAndBulkReadsMatchTheSingleOnes()
        {
            using var match = new MemoryMatch(seed: 12, loss: 0.05f);
            match.AddPeer(2, match.Network.CreateEndpoint());
            match.AddPeer(2, match.Network.CreateEndpoint());
            match.Connect();
            match.Play(60, 0);
            Peer peer = match.Peers[1];
            var visuals = new VisualState[8];
            var ids = new uint[8];
            int bodies = peer.ReadObjects(ids);
            Assert.Equal(6, bodies);
            Assert.Equal(MemoryMatch.Balls.Take(2).Concat(MemoryMatch.Boxes), ids.Take(bodies));
            Assert.Equal(bodies, peer.ReadVisuals(visuals));
            for (int b = 0; b < bodies; ++b)
            {
                VisualState one = peer.Visual(ids[b]);
                Assert.Equal(one.Position, visuals[b].Position);
                Assert.Equal(one.Orientation, visuals[b].Orientation);
            }
            Assert.Equal(bodies, peer.ReadVisuals(Span<VisualState>.Empty));  // only the count

            var input = new Input(1, 0, 0);
            Frames(300);  // once first: what the runtime allocates once (JIT tiers, statics) is not per frame
            long before = GC.GetAllocatedBytesForCurrentThread();
            Frames(300);
            long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.True(allocated == 0, $"{allocated} bytes allocated on the managed heap in 300 frames");

            void Frames(int count)
            {
              for (int frame = 0; frame < count; ++frame)
              {
                match.NowUs += MemoryMatch.RenderUs;
                match.Network.SetTime(match.NowUs);
                foreach (Peer p in match.Peers)
                {
                    p.SetInput(input);
                    p.UpdateAt(match.NowUs);
                    while (p.PollEvent(out Event e)) { }
                    p.ReadVisuals(visuals);
                    _ = p.Visual(1);
                    _ = p.Stats.Frame;
                }
              }
            }
        }
    }
}
