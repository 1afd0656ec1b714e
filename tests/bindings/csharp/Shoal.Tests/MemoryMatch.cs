// SPDX-License-Identifier: MIT
// N peers of one match on the in-process network, driven render frame by render frame at
// simulated time: the same run on every machine, every loop bounded by a frame count.
using System;
using System.Collections.Generic;
using Xunit;

namespace Shoal.Tests
{
    internal sealed class MemoryMatch : IDisposable
    {
        public const long RenderUs = 16667;  // one render frame at 60 Hz
        public static readonly uint[] Balls = { 1, 2, 3, 4 };
        public static readonly uint[] Boxes = { 100, 101, 102, 103 };

        public readonly MemoryNetwork Network;
        public readonly List<Peer> Peers = new List<Peer>();
        public readonly List<World> Worlds = new List<World>();
        public long NowUs = 1_000_000;

        public MemoryMatch(ulong seed, float loss, float latencyMs = 20)
        {
            Network = new MemoryNetwork(seed);
            Network.SetConditions(LinkConditions.Lossy(loss, latencyMs));
        }

        /// <summary>The same world on every peer: a ball per player on a ring, a row of boxes.</summary>
        public static World BuildWorld(int players)
        {
            var config = new WorldConfig { ArenaHalfX = 8, ArenaHalfZ = 8, LinearDamping = 0.6f, AngularDamping = 0.6f };
            var world = new World(config);
            for (int p = 0; p < players; ++p)
            {
                double angle = 2 * Math.PI * p / players;
                world.AddSphere(Balls[p], 0.5f, 2, ObjectState.At((float)(4 * Math.Cos(angle)), 0.5f, (float)(4 * Math.Sin(angle))));
            }
            for (int b = 0; b < Boxes.Length; ++b) world.AddBox(Boxes[b], 0.4f, 0.4f, 0.4f, 1, ObjectState.At(-2.25f + 1.5f * b, 0.4f, 0));
            return world;
        }

        public void AddPeer(int players, Transport transport, PeerConfig? config = null)
        {
            World world = BuildWorld(players);
            Worlds.Add(world);
            var peer = new Peer(config ?? new PeerConfig(), world, transport);
            peer.SetControlled(Balls[Peers.Count]);
            Peers.Add(peer);
        }

        public void Frame()
        {
            NowUs += RenderUs;
            Network.SetTime(NowUs);
            foreach (Peer peer in Peers)
            {
                peer.UpdateAt(NowUs);
                while (peer.PollEvent(out Event e)) Assert.NotEqual(EventKind.Desync, e.Kind);
            }
        }

        public bool Connected()
        {
            foreach (Peer peer in Peers)
            {
                if (!peer.InMatch || peer.ReadPeers(Span<ushort>.Empty) != Peers.Count) return false;
            }
            return true;
        }

        /// <summary>Peer 0 hosts, the others join it, one at a time.</summary>
        public void Connect()
        {
            Peers[0].Host();
            for (int p = 1; p < Peers.Count; ++p)
            {
                Peers[p].Join(Peers[0].Address);
                for (int frame = 0; frame < 600 && Peers[p].JoinProgress.Step != JoinStep.Joined; ++frame) Frame();
            }
            for (int frame = 0; frame < 600 && !Connected(); ++frame) Frame();
            Assert.True(Connected(), "the peers never all saw each other");
        }

        /// <summary>Players push their balls about (each its own way, turning now and then), then rest.</summary>
        public void Play(int frames, int restFrames)
        {
            for (int frame = 0; frame < frames; ++frame)
            {
                for (int p = 0; p < Peers.Count; ++p)
                {
                    float x = ((frame / 45 + p) % 2 == 0) ? 1 : -1;
                    float z = ((frame / 70 + p) % 3) - 1;
                    Peers[p].SetInput(new Input(x, 0, z));
                }
                Frame();
            }
            foreach (Peer peer in Peers) peer.SetInput(default);
            for (int frame = 0; frame < restFrames; ++frame) Frame();
        }

        /// <summary>Every object's state at the newest frame all peers hold, the same on every peer, bit for bit.</summary>
        public void AssertConsistent(IEnumerable<uint> objects)
        {
            int common = int.MaxValue;
            foreach (Peer peer in Peers) common = Math.Min(common, peer.Frame);
            foreach (uint id in objects)
            {
                ObjectState first = Peers[0].StateAt(id, common);
                for (int p = 1; p < Peers.Count; ++p)
                {
                    ObjectState other = Peers[p].StateAt(id, common);
                    Assert.True(Bits.Same(first, other), $"object {id} at frame {common}: peer 0 has {Bits.Show(first)}, peer {p} {Bits.Show(other)}");
                }
            }
        }

        public void Dispose()
        {
            foreach (Peer peer in Peers) peer.Dispose();
            foreach (World world in Worlds) world.Dispose();
            Network.Dispose();
        }
    }

    internal static class Bits
    {
        public static bool Same(in ObjectState a, in ObjectState b) =>
            Same(a.Position, b.Position) && Same(a.LinearVelocity, b.LinearVelocity) && Same(a.AngularVelocity, b.AngularVelocity) &&
            BitConverter.SingleToInt32Bits(a.Orientation.W) == BitConverter.SingleToInt32Bits(b.Orientation.W) &&
            BitConverter.SingleToInt32Bits(a.Orientation.X) == BitConverter.SingleToInt32Bits(b.Orientation.X) &&
            BitConverter.SingleToInt32Bits(a.Orientation.Y) == BitConverter.SingleToInt32Bits(b.Orientation.Y) &&
            BitConverter.SingleToInt32Bits(a.Orientation.Z) == BitConverter.SingleToInt32Bits(b.Orientation.Z) &&
            a.AtRest == b.AtRest;

        private static bool Same(Vec3 a, Vec3 b) =>
            BitConverter.SingleToInt32Bits(a.X) == BitConverter.SingleToInt32Bits(b.X) &&
            BitConverter.SingleToInt32Bits(a.Y) == BitConverter.SingleToInt32Bits(b.Y) &&
            BitConverter.SingleToInt32Bits(a.Z) == BitConverter.SingleToInt32Bits(b.Z);

        public static string Show(in ObjectState s) => $"{s.Position} v{s.LinearVelocity} rest={s.AtRest}";
    }
}
