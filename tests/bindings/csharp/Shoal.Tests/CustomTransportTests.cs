// SPDX-License-Identifier: MIT
// A transport written in C# carries a whole match: an in-process network of queues whose
// unreliable channels lose 10% (seeded), the control channel nothing.
using System;
using System.Collections.Generic;
using System.Linq;
using Xunit;

namespace Shoal.Tests
{
    internal sealed class QueueNetwork
    {
        public readonly List<QueueTransport> Endpoints = new List<QueueTransport>();
        public readonly Random Random = new Random(4848);
        public int Lost;
        public Exception? ThrowOnSend;
    }

    internal sealed class QueueTransport : CustomTransport
    {
        private readonly QueueNetwork network;
        private readonly ushort port;
        private readonly Queue<(TransportEventKind kind, uint connection, Channel channel, byte[] bytes)> inbox =
            new Queue<(TransportEventKind, uint, Channel, byte[])>();
        public int Destroyed;
        public int Sent;

        public QueueTransport(QueueNetwork network)
        {
            this.network = network;
            network.Endpoints.Add(this);
            port = (ushort)network.Endpoints.Count;  // 1, 2, 3...: also the connection id others know it by
        }

        private QueueTransport? At(uint connection) =>
            connection >= 1 && connection <= network.Endpoints.Count ? network.Endpoints[(int)connection - 1] : null;

        public override uint Connect(Address remote)
        {
            QueueTransport? other = remote.Host == "queue" ? At(remote.Port) : null;
            if (other == null) return 0;
            inbox.Enqueue((TransportEventKind.Connected, remote.Port, Channel.Control, Array.Empty<byte>()));
            other.inbox.Enqueue((TransportEventKind.Connected, port, Channel.Control, Array.Empty<byte>()));
            return remote.Port;
        }

        public override void Disconnect(uint connection)
        {
            inbox.Enqueue((TransportEventKind.Disconnected, connection, Channel.Control, Array.Empty<byte>()));
            At(connection)?.inbox.Enqueue((TransportEventKind.Disconnected, port, Channel.Control, Array.Empty<byte>()));
        }

        public override bool Send(uint connection, Channel channel, ReadOnlySpan<byte> bytes)
        {
            if (network.ThrowOnSend != null) throw network.ThrowOnSend;
            QueueTransport? other = At(connection);
            if (other == null || bytes.Length > MaxMessageSize) return false;
            ++Sent;
            if (channel != Channel.Control && network.Random.NextDouble() < 0.10)
            {
                ++network.Lost;
                return true;
            }
            other.inbox.Enqueue((TransportEventKind.Message, port, channel, bytes.ToArray()));
            return true;
        }

        public override bool Poll(long nowUs, out TransportEvent transportEvent)
        {
            transportEvent = default;
            if (inbox.Count == 0) return false;
            var (kind, connection, channel, bytes) = inbox.Dequeue();
            transportEvent = new TransportEvent { Kind = kind, Connection = connection, Channel = channel, Payload = new ArraySegment<byte>(bytes) };
            return true;
        }

        public override void Wait(int timeoutMs) { }
        public override Address LocalAddress => new Address("queue", port);
        public override Address RemoteAddress(uint connection) => new Address("queue", (ushort)connection);
        public override int MaxMessageSize => 1400;
        protected override void OnDestroyed() => ++Destroyed;
    }

    public class CustomTransportTests
    {
        [Fact]
        public void ATransportWrittenInCSharpCarriesAWholeMatchAtTenPercentLoss()
        {
            var network = new QueueNetwork();
            var transports = Enumerable.Range(0, 3).Select(_ => new QueueTransport(network)).ToList();
            using (var match = new MemoryMatch(seed: 1, loss: 0))
            {
                foreach (QueueTransport t in transports) match.AddPeer(3, Transport.Custom(t));
                Assert.Equal(new Address("queue", 1).ToString(), match.Peers[0].Address.ToString());
                match.Connect();
                match.Play(frames: 300, restFrames: 600);
                Assert.True(network.Lost > 50, $"only {network.Lost} messages lost");
                Assert.All(transports, t => Assert.True(t.Sent > 200));
                match.AssertConsistent(MemoryMatch.Balls.Take(3).Concat(MemoryMatch.Boxes));
                Assert.All(transports, t => Assert.Equal(0, t.Destroyed));
            }
            Assert.All(transports, t => Assert.Equal(1, t.Destroyed));  // with its peer, once
        }

        [Fact]
        public void AnExceptionInTheGamesTransportComesOutOfTheCallThatLedThere()
        {
            var network = new QueueNetwork();
            using var match = new MemoryMatch(seed: 1, loss: 0);
            match.AddPeer(2, Transport.Custom(new QueueTransport(network)));
            match.AddPeer(2, Transport.Custom(new QueueTransport(network)));
            match.Connect();
            network.ThrowOnSend = new InvalidOperationException("the platform's socket is gone");
            var e = Assert.Throws<InvalidOperationException>(() => match.Frame());
            Assert.Equal("the platform's socket is gone", e.Message);
        }
    }
}
