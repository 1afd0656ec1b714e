// SPDX-License-Identifier: MIT
// A headless match in C#: three peers in this process, each on its own ENet socket on
// 127.0.0.1 whose every datagram out is lost with 10% probability (seeded), secured with
// credentials of one authority. Their players push balls into a row of boxes for a few
// seconds, then the world settles; the peers' states are compared at one frame, bit for bit,
// and the verdict printed as shoal-lan-match prints its own. Exit 0 when consistent.
//
//   dotnet HeadlessMatch.dll [--seconds S] [--loss P] [--seed N]
using System;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using Shoal;

int players = 3;
double playSeconds = 5, loss = 0.10;
ulong seed = 1;
for (int i = 0; i + 1 < args.Length; i += 2)
{
    switch (args[i])
    {
        case "--seconds": playSeconds = double.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
        case "--loss": loss = double.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
        case "--seed": seed = ulong.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
        default: Console.Error.WriteLine($"unknown flag {args[i]}: expected --seconds, --loss or --seed"); return 2;
    }
}

uint[] balls = { 1, 2, 3 };
uint[] boxes = Enumerable.Range(100, 6).Select(i => (uint)i).ToArray();
uint[] everything = balls.Concat(boxes).ToArray();

World BuildWorld()
{
    var world = new World(new WorldConfig { ArenaHalfX = 8, ArenaHalfZ = 8, LinearDamping = 0.6f, AngularDamping = 0.6f });
    for (int p = 0; p < players; ++p)
    {
        double angle = 2 * Math.PI * p / players;
        world.AddSphere(balls[p], 0.5f, 2, ObjectState.At((float)(5 * Math.Cos(angle)), 0.5f, (float)(5 * Math.Sin(angle))));
    }
    for (int b = 0; b < boxes.Length; ++b) world.AddBox(boxes[b], 0.4f, 0.4f, 0.4f, 1, ObjectState.At(-3.75f + 1.5f * b, 0.4f, 0));
    return world;
}

using var authority = new Authority("csharp-headless-match");
var worlds = new World[players];
var peers = new Peer[players];
var config = new PeerConfig { Session = "csharp-headless-match" };
for (int p = 0; p < players; ++p)
{
    worlds[p] = BuildWorld();
    var enet = new EnetConfig { Credentials = authority.Invite(3600), TimeoutMs = 3000 };
    enet.Conditioner = new Conditioner { Outbound = LinkConditions.Lossy((float)loss, 10), Inbound = LinkConditions.Default, Seed = seed * 100 + (ulong)p };
    peers[p] = new Peer(config, worlds[p], Transport.Enet(enet));
    peers[p].SetControlled(balls[p]);
}

var clock = Stopwatch.StartNew();
void Frame()
{
    foreach (Peer peer in peers)
    {
        peer.Update();
        while (peer.PollEvent(out Event e))
        {
            if (e.Kind == EventKind.Desync) Console.WriteLine($"desync at frame {e.Frame} seen by peer {peer.Id}");
            if (e.Kind == EventKind.JoinFailed) throw new InvalidOperationException($"a join failed: {peer.EventReason}");
        }
    }
    peers[0].Wait(2);
}

peers[0].Host();
for (int p = 1; p < players; ++p) peers[p].Join(peers[0].Address);
while (clock.Elapsed.TotalSeconds < 20 && !peers.All(peer => peer.JoinProgress.Step == JoinStep.Joined && peer.Peers.Length == players)) Frame();
if (!peers.All(peer => peer.JoinProgress.Step == JoinStep.Joined))
{
    Console.WriteLine("verdict: NOT CONSISTENT (the peers never all joined)");
    return 1;
}
double joinedAt = clock.Elapsed.TotalSeconds;
Console.WriteLine($"{players} peers joined in {joinedAt:F1} s over ENet on 127.0.0.1 at {loss * 100:F0}% loss");

// Play: each pushes towards the boxes, swerving; then no input until every peer sees the world at rest.
while (clock.Elapsed.TotalSeconds < joinedAt + playSeconds)
{
    double t = clock.Elapsed.TotalSeconds;
    for (int p = 0; p < players; ++p)
    {
        Vec3 at = peers[p].Visual(balls[p]).Position;
        peers[p].SetInput(new Input(-at.X * 0.3f + (float)Math.Sin(t * 2 + p), 0, -at.Z * 0.3f + (float)Math.Cos(t * 3 + p)));
    }
    Frame();
}
foreach (Peer peer in peers) peer.SetInput(default);
bool AllAtRest() => peers.All(peer => everything.All(id => peer.State(id).AtRest));
double settleUntil = clock.Elapsed.TotalSeconds + 15;
while (clock.Elapsed.TotalSeconds < settleUntil && !AllAtRest()) Frame();
double restedAt = clock.Elapsed.TotalSeconds;
while (clock.Elapsed.TotalSeconds < restedAt + 1) Frame();  // owners' last words reach everyone

int common = peers.Min(peer => peer.Frame);
int differing = 0;
foreach (uint id in everything)
{
    ObjectState first = peers[0].StateAt(id, common);
    for (int p = 1; p < players; ++p)
    {
        ObjectState other = peers[p].StateAt(id, common);
        if (!SameBits(first, other))
        {
            ++differing;
            Console.WriteLine($"object {id}: peer 0 at {first.Position}, peer {p} at {other.Position}");
        }
    }
}

Console.WriteLine();
Console.WriteLine($"{"peer",4} {"frames",7} {"rtt_ms",7} {"loss",6} {"overrides",10} {"catchup_frames",15} {"snapshots_in",13}");
foreach (Peer peer in peers)
{
    PeerStats s = peer.Stats;
    RemoteStats link = peer.RemoteStats(0);
    Console.WriteLine($"{peer.Id,4} {s.Frame,7} {link.RttMs,7:F1} {link.PacketLoss * 100,5:F1}% {s.Overrides,10} {s.CatchupFrames,15} {s.SnapshotsReceived,13}");
}
Console.WriteLine();
Console.WriteLine($"objects compared at frame {common} ({(AllAtRest() ? "all at rest" : "some still moving")}): {everything.Length} " +
                  $"({boxes.Length} shared, {balls.Length} balls); {(differing == 0 ? "every state the same bits on every peer" : $"{differing} states NOT the same bits")}");
Console.WriteLine($"verdict: {(differing == 0 ? "CONSISTENT" : "NOT CONSISTENT")}");
foreach (Peer peer in peers) peer.Dispose();
foreach (World world in worlds) world.Dispose();
return differing == 0 ? 0 : 1;

static bool SameBits(in ObjectState a, in ObjectState b)
{
    float[] x = { a.Position.X, a.Position.Y, a.Position.Z, a.Orientation.W, a.Orientation.X, a.Orientation.Y, a.Orientation.Z,
                  a.LinearVelocity.X, a.LinearVelocity.Y, a.LinearVelocity.Z, a.AngularVelocity.X, a.AngularVelocity.Y, a.AngularVelocity.Z };
    float[] y = { b.Position.X, b.Position.Y, b.Position.Z, b.Orientation.W, b.Orientation.X, b.Orientation.Y, b.Orientation.Z,
                  b.LinearVelocity.X, b.LinearVelocity.Y, b.LinearVelocity.Z, b.AngularVelocity.X, b.AngularVelocity.Y, b.AngularVelocity.Z };
    return a.AtRest == b.AtRest && x.Zip(y).All(pair => BitConverter.SingleToInt32Bits(pair.First) == BitConverter.SingleToInt32Bits(pair.Second));
}
