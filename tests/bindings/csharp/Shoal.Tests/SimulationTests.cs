// SPDX-License-Identifier: MIT
// A Simulation written in C# drives a match: discs sliding on a plane, pushed by their
// players' input, damped, bouncing off walls and counting their bounces in user bytes; two
// spawn slots that C# fills and empties; freezing honoured.
using System;
using Xunit;

namespace Shoal.Tests
{
    internal sealed class SlidingDiscs : Simulation
    {
        public const int Players = 2;
        public const int SlotCount = 2;
        public const ushort Marker = 7;
        private readonly ObjectState[] states = new ObjectState[Players + SlotCount];
        private readonly bool[] filled = new bool[Players + SlotCount];
        public readonly byte[][] SpawnBytes = new byte[Players + SlotCount][];
        public readonly byte[] Bounces = new byte[Players + SlotCount];  // user bytes: game state beside the physics
        public readonly bool[] Frozen = new bool[Players + SlotCount];
        public int Steps, UserBytesRead;

        public SlidingDiscs()
        {
            for (int b = 0; b < states.Length; ++b) states[b] = ObjectState.Default;
            states[0].Position = new Vec3(-3, 0, 0);
            states[1].Position = new Vec3(3, 0, 0);
            for (int s = Players; s < states.Length; ++s) states[s].AtRest = true;  // empty slots
        }

        public override int BodyCount => states.Length;
        public override uint BodyId(int body) => (uint)(body + 1);
        public override float BoundingRadius(int body) => 0.5f;
        public override int SpawnSlotCount => SlotCount;
        public override bool CanSpawn(ushort type) => type == Marker;
        public override void Read(int body, out ObjectState state) => state = states[body];
        public override void Write(int body, in ObjectState state) => states[body] = state;

        public override void Step(int frame, ReadOnlySpan<BodyInput> inputs, ReadOnlySpan<byte> inputBytes)
        {
            ++Steps;
            const float dt = 1 / 60f;
            foreach (BodyInput input in inputs)
            {
                ref ObjectState s = ref states[input.Body];
                s.LinearVelocity.X += input.Input.Axis.X * 8 * dt;
                s.LinearVelocity.Z += input.Input.Axis.Z * 8 * dt;
                s.AtRest = false;
            }
            for (int b = 0; b < states.Length; ++b)
            {
                ref ObjectState s = ref states[b];
                if (s.AtRest || Frozen[b]) continue;
                s.Position.X += s.LinearVelocity.X * dt;
                s.Position.Z += s.LinearVelocity.Z * dt;
                bool bounced = false;
                if (Math.Abs(s.Position.X) > 6) { s.LinearVelocity.X = -s.LinearVelocity.X; bounced = true; }
                if (Math.Abs(s.Position.Z) > 6) { s.LinearVelocity.Z = -s.LinearVelocity.Z; bounced = true; }
                if (bounced) ++Bounces[b];
                s.LinearVelocity.X *= 0.97f;
                s.LinearVelocity.Z *= 0.97f;
                if (Math.Abs(s.LinearVelocity.X) + Math.Abs(s.LinearVelocity.Z) < 0.01f)
                {
                    s.LinearVelocity = default;
                    s.AtRest = true;
                }
            }
        }

        public override void SetFrozen(int body, bool frozen) => Frozen[body] = frozen;
        public override int UserBytesSize(ushort type) => 1;
        public override void ReadUserBytes(int body, Span<byte> bytes) { bytes[0] = Bounces[body]; ++UserBytesRead; }
        public override void WriteUserBytes(int body, ReadOnlySpan<byte> bytes) => Bounces[body] = bytes[0];

        public override void AddBody(int body, ushort type, in ObjectState state, ReadOnlySpan<byte> spawnBytes)
        {
            Assert.Equal(Marker, type);
            Assert.False(filled[body]);
            filled[body] = true;
            states[body] = state;
            SpawnBytes[body] = spawnBytes.ToArray();
        }

        public override void RemoveBody(int body)
        {
            filled[body] = false;
            states[body] = ObjectState.Default;
            states[body].AtRest = true;
        }
    }

    public class SimulationTests
    {
        [Fact]
        public void ASimulationWrittenInCSharpDrivesAMatchAndItsSpawnsBitForBit()
        {
            using var network = new MemoryNetwork(7);
            network.SetConditions(LinkConditions.Lossy(0.05f, 20));
            var sims = new[] { new SlidingDiscs(), new SlidingDiscs() };
            var config = new PeerConfig { MaxSpawnBytes = 8 };
            using var host = new Peer(config, sims[0], network.CreateEndpoint());
            using var guest = new Peer(config, sims[1], network.CreateEndpoint());
            var peers = new[] { host, guest };
            long now = 1_000_000;
            void Frame()
            {
                now += MemoryMatch.RenderUs;
                network.SetTime(now);
                foreach (Peer p in peers)
                {
                    p.UpdateAt(now);
                    while (p.PollEvent(out _)) { }
                }
            }
            host.SetControlled(1);
            guest.SetControlled(2);
            host.Host();
            guest.Join(host.Address);
            for (int f = 0; f < 600 && guest.JoinProgress.Step != JoinStep.Joined; ++f) Frame();
            Assert.Equal(JoinStep.Joined, guest.JoinProgress.Step);

            uint spawned = guest.Spawn(SlidingDiscs.Marker, ObjectState.At(1, 0, 1), new byte[] { 4, 8, 15 });
            var refused = Assert.Throws<ShoalException>(() => guest.Spawn(9, ObjectState.At(0, 0, 0)));
            Assert.Equal(ErrorCode.InvalidArgument, refused.Code);  // CanSpawn said no
            for (int f = 0; f < 240; ++f)
            {
                host.SetInput(new Input(1, 0, 0.5f));
                guest.SetInput(new Input(-1, 0, -0.25f));
                Frame();
            }
            host.SetInput(default);
            guest.SetInput(default);
            for (int f = 0; f < 600; ++f) Frame();

            Assert.True(sims[0].Steps > 800 && sims[1].Steps > 800);
            SpawnedObject? seen = host.SpawnedObject(spawned);
            Assert.NotNull(seen);
            Assert.Equal(new byte[] { 4, 8, 15 }, seen!.SpawnBytes);
            Assert.Equal((ushort)1, seen.Spawner);
            Assert.Contains(sims[0].SpawnBytes, b => b != null && b.Length == 3 && b[2] == 15);  // AddBody got them
            int common = Math.Min(host.Frame, guest.Frame);
            foreach (uint id in new uint[] { 1, 2, spawned })
            {
                Assert.True(Bits.Same(host.StateAt(id, common), guest.StateAt(id, common)), $"object {id} differs");
            }
            Assert.NotEqual(-3f, host.State(1).Position.X);  // it moved
            // The user bytes went through Shoal (read to be recorded and sent) and agree.
            Assert.True(sims[0].UserBytesRead > 0 && sims[1].UserBytesRead > 0);
            Assert.True(sims[0].Bounces[0] + sims[0].Bounces[1] > 0, "no disc ever bounced: the bytes were never anything but 0");
            Assert.Equal(sims[0].Bounces[0], sims[1].Bounces[0]);
            Assert.Equal(sims[0].Bounces[1], sims[1].Bounces[1]);
        }
    }
}
