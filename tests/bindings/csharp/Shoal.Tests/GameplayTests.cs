// SPDX-License-Identifier: MIT
// What a game does besides moving: its own messages both ways, the log hook, its input bytes,
// objects spawned and removed on the reference physics, events and statistics.
using System;
using System.Collections.Generic;
using System.Linq;
using Xunit;

namespace Shoal.Tests
{
    public class GameplayTests
    {
        [Fact]
        public void MessagesBothWaysAndTheLogHookSayingWhyOneWasRefused()
        {
            var lines = new List<(LogLevel, string)>();
            var config = new PeerConfig { InputBytes = 4, LogLevel = LogLevel.Debug, Log = (level, text) => lines.Add((level, text)) };
            using var match = new MemoryMatch(seed: 3, loss: 0.10f);
            match.AddPeer(2, match.Network.CreateEndpoint(), config);
            match.AddPeer(2, match.Network.CreateEndpoint(), config);
            match.Connect();
            Peer host = match.Peers[0], guest = match.Peers[1];
            Assert.True(host.SendMessage(1, new byte[] { 1, 2, 3 }, Delivery.Reliable, frame: 42));
            Assert.True(guest.SendMessage(Peer.NoPeer, new byte[] { 9 }, Delivery.Reliable));
            host.SetInputBytes(new byte[] { 0xAB, 0xCD });
            var tooMany = Assert.Throws<ShoalException>(() => host.SetInputBytes(new byte[] { 1, 2, 3, 4, 5 }));  // 4 travel
            Assert.Contains("input_bytes", tooMany.Message);
            var received = new List<(int peer, byte[] bytes, int frame, bool reliable)>();
            for (int f = 0; f < 300 && received.Count < 2; ++f)
            {
                match.NowUs += MemoryMatch.RenderUs;
                match.Network.SetTime(match.NowUs);
                foreach (Peer p in match.Peers)
                {
                    p.UpdateAt(match.NowUs);
                    while (p.PollEvent(out Event e))
                    {
                        if (e.Kind == EventKind.Message) received.Add((p == host ? 0 : 1, p.LastMessage.ToArray(), e.Frame, p.LastMessageReliable));
                    }
                }
            }
            Assert.Contains(received, r => r.peer == 1 && r.bytes.SequenceEqual(new byte[] { 1, 2, 3 }) && r.frame == 42 && r.reliable);
            Assert.Contains(received, r => r.peer == 0 && r.bytes.SequenceEqual(new byte[] { 9 }) && r.frame == Peer.NoFrame);
            Assert.True(host.GameStats.MessagesSent == 1 && host.GameStats.MessagesReceived == 1);
            // A message to a peer that does not exist: refused, and the log says so too.
            var e2 = Assert.Throws<ShoalException>(() => host.SendMessage(7, new byte[] { 1 }));
            Assert.Equal(ErrorCode.InvalidArgument, e2.Code);
            Assert.NotEmpty(lines);  // the peers logged (joins, at least) through the C# callback
            Assert.All(lines, l => Assert.False(string.IsNullOrEmpty(l.Item2)));
        }

        [Fact]
        public void SpawnedObjectsReachEveryPeerAndLeaveAgain()
        {
            using var match = new MemoryMatch(seed: 5, loss: 0.05f);
            for (int p = 0; p < 2; ++p)
            {
                World world = MemoryMatch.BuildWorld(2);
                world.SetSpawnSphere(3, 0.2f, 1);
                world.AddSpawnSlots(8);
                match.Worlds.Add(world);
                var peer = new Peer(new PeerConfig { MaxSpawnBytes = 4 }, world, match.Network.CreateEndpoint());
                peer.SetControlled(MemoryMatch.Balls[p]);
                match.Peers.Add(peer);
            }
            match.Connect();
            uint id = match.Peers[1].Spawn(3, ObjectState.At(0, 2, 3), new byte[] { 1, 2, 3, 4 });
            for (int f = 0; f < 120; ++f) match.Frame();
            var live = new uint[4];
            Assert.Equal(1, match.Peers[0].ReadSpawnedObjects(live));
            Assert.Equal(id, live[0]);
            Assert.Equal((ushort)1, match.Peers[0].SpawnedObject(id)!.Owner);
            Assert.Equal(2UL, (ulong)match.Peers.Sum(p => (long)p.GameStats.ObjectsSpawned));
            Assert.Throws<ShoalException>(() => match.Peers[0].Remove(id));  // not the host's
            match.Peers[1].Remove(id);
            for (int f = 0; f < 120; ++f) match.Frame();
            Assert.All(match.Peers, p => Assert.Equal(0, p.ReadSpawnedObjects(live)));
            Assert.Null(match.Peers[0].SpawnedObject(id));
        }

        [Fact]
        public void StatisticsAndTheJoinProgressOfAMatch()
        {
            using var match = new MemoryMatch(seed: 9, loss: 0);
            match.AddPeer(2, match.Network.CreateEndpoint());
            match.AddPeer(2, match.Network.CreateEndpoint());
            Assert.Equal(Peer.NoPeer, match.Peers[1].Id);
            Assert.Equal(Peer.NoFrame, match.Peers[1].Frame);
            Assert.Equal(JoinStep.Idle, match.Peers[1].JoinProgress.Step);
            match.Connect();
            match.Play(60, 60);
            PeerStats stats = match.Peers[1].Stats;
            Assert.Equal(1, stats.RemoteCount);
            Assert.True(stats.SnapshotsSent > 10 && stats.Frame > 100);
            Assert.Equal((ushort)0, match.Peers[1].RemoteStats(0).Peer);
            Assert.Throws<ShoalException>(() => match.Peers[1].RemoteStats(1));
            Assert.Equal((ushort)1, match.Peers[1].Id);
            Assert.Equal(1.0f, match.Peers[1].GameStats.Pace);
            var unknown = Assert.Throws<ShoalException>(() => match.Peers[0].State(999));
            Assert.Equal(ErrorCode.UnknownObject, unknown.Code);
        }
    }
}
