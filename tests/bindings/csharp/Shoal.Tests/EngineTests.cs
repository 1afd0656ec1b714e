// SPDX-License-Identifier: MIT
// The Box2D and Bullet worlds from C#, simulated in native code: two peers at 5% loss on the
// in-process network settle bit for bit. Skipped (with the reason) where the library was
// built without that adapter.
using System;
using Xunit;

namespace Shoal.Tests
{
    public class EngineTests
    {
        private static void PlayTwo(Func<int, Transport, Peer> make, uint[] balls, uint[] all)
        {
            using var network = new MemoryNetwork(11);
            network.SetConditions(LinkConditions.Lossy(0.05f, 20));
            using Peer host = make(0, network.CreateEndpoint()), guest = make(1, network.CreateEndpoint());
            var peers = new[] { host, guest };
            long now = 1_000_000;
            void Frame()
            {
                now += MemoryMatch.RenderUs;
                network.SetTime(now);
                foreach (Peer p in peers) { p.UpdateAt(now); while (p.PollEvent(out _)) { } }
            }
            host.Host();
            guest.Join(host.Address);
            for (int f = 0; f < 600 && guest.JoinProgress.Step != JoinStep.Joined; ++f) Frame();
            Assert.Equal(JoinStep.Joined, guest.JoinProgress.Step);
            for (int f = 0; f < 240; ++f)
            {
                host.SetInput(new Input(1, 1, 1));
                guest.SetInput(new Input(-1, -1, -1));
                Frame();
            }
            host.SetInput(default);
            guest.SetInput(default);
            for (int f = 0; f < 900; ++f) Frame();
            int common = Math.Min(host.Frame, guest.Frame);
            foreach (uint id in all) Assert.True(Bits.Same(host.StateAt(id, common), guest.StateAt(id, common)), $"object {id} differs");
            Assert.Contains(balls, id => host.State(id).Position.X != (id == balls[0] ? -3f : 3f));
        }

        private static bool Available(Action make)
        {
            try { make(); return true; }
            catch (ShoalException e) when (e.Message.Contains("built without")) { return false; }
        }

        [Fact]
        public void Box2dWorldsFromCSharpSettleBitForBit()
        {
            if (!Available(() => new Box2dConfig())) return;  // this library has no Box2D adapter
            var worlds = new Box2dWorld[2];
            Peer Make(int p, Transport t)
            {
                var world = worlds[p] = new Box2dWorld(new Box2dConfig());
                world.AddWall(0, -8, 9, 1); world.AddWall(0, 8, 9, 1); world.AddWall(-8, 0, 1, 9); world.AddWall(8, 0, 1, 9);
                world.AddDisc(1, 0.5f, 2, ObjectState.At(-3, 0, 0));
                world.AddDisc(2, 0.5f, 2, ObjectState.At(3, 0, 0));
                for (uint b = 0; b < 4; ++b) world.AddBox(100 + b, 0.4f, 0.4f, 1, ObjectState.At(-1.5f + b, 1, 0));
                var peer = new Peer(new PeerConfig(), world, t);
                peer.SetControlled((uint)(p + 1));
                return peer;
            }
            try { PlayTwo(Make, new uint[] { 1, 2 }, new uint[] { 1, 2, 100, 101, 102, 103 }); }
            finally { foreach (var w in worlds) w?.Dispose(); }
        }

        [Fact]
        public void BulletWorldsFromCSharpSettleBitForBit()
        {
            if (!Available(() => new BulletConfig())) return;  // this library has no Bullet adapter
            var worlds = new BulletWorld[2];
            Peer Make(int p, Transport t)
            {
                var world = worlds[p] = new BulletWorld(new BulletConfig { LinearDamping = 0.8f, AngularDamping = 0.8f });  // at rest in time
                world.AddPlane(new Vec3(0, 1, 0), 0);
                world.AddSphere(1, 0.5f, 2, ObjectState.At(-3, 0.5f, 0));
                world.AddSphere(2, 0.5f, 2, ObjectState.At(3, 0.5f, 0));
                for (uint b = 0; b < 4; ++b) world.AddBox(100 + b, new Vec3(0.4f, 0.4f, 0.4f), 1, ObjectState.At(-1.5f + b, 0.4f, 0));
                var peer = new Peer(new PeerConfig(), world, t);
                peer.SetControlled((uint)(p + 1));
                return peer;
            }
            try { PlayTwo(Make, new uint[] { 1, 2 }, new uint[] { 1, 2, 100, 101, 102, 103 }); }
            finally { foreach (var w in worlds) w?.Dispose(); }
        }
    }
}
