// SPDX-License-Identifier: MIT
// A C# bot that joins a shoal-lan-match session next to its C++ peers: it builds the same
// arena (lan_match's arena.cpp, in C#), finds the host by LAN discovery, drives the ball its
// id gives it, and reports its world at the match's final frame the way a `shoal-lan-match
// --peer` does, so that its states can be compared with theirs bit for bit:
//   joined peer=ID address=HOST:PORT
//   sample final=1 frame=F peer=ID peers=N bodies=B
//   pose PX PY PZ QW QX QY QZ VX VY VZ WX WY WZ R      (B lines, balls then shared objects)
// Then it keeps serving the others until its stdin closes (or 10 s), and leaves.
//
//   shoal-lan-match --peer --host --peers 3 --objects 30 --seconds 4 --settle-seconds 4 --loopback-discovery &
//   SHOAL_CREDENTIALS=... dotnet LanMatchBot.dll --peers 3 --objects 30 --seconds 4 --settle-seconds 4 --loopback-discovery
//
// It takes the launcher's flags that shape the match (the same values as the C++ peers'):
// --peers, --objects, --seconds, --settle-seconds, --seed, --loss, --latency-ms, --session,
// --discovery-port, --loopback-discovery, --insecure (else credentials from SHOAL_CREDENTIALS).
using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Threading.Tasks;
using Shoal;

var o = new Options(args);
Arena arena = new Arena(o.Peers, o.Objects);
var worldConfig = new WorldConfig
{
    ArenaHalfX = arena.HalfExtent, ArenaHalfZ = arena.HalfExtent, LinearDamping = 0.6f, AngularDamping = 0.6f,
    PushAcceleration = 20, MaxPushSpeed = 6,
};
using var world = new World(worldConfig);
arena.Build(world);

var enet = new EnetConfig { Insecure = o.Insecure };
if (!o.Insecure) enet.Credentials = Environment.GetEnvironmentVariable("SHOAL_CREDENTIALS") ??
    throw new InvalidOperationException("the bot needs its credentials in SHOAL_CREDENTIALS, or --insecure");
LinkConditions outbound = LinkConditions.Default;  // each peer impairs what it sends, as lan_match's do
outbound.LatencyMs = o.LatencyMs;
outbound.Loss = o.Loss;
enet.Conditioner = new Conditioner { Outbound = outbound, Inbound = LinkConditions.Default, Seed = o.Seed * 1000 + 99 };
using var peer = new Peer(new PeerConfig { Session = o.Session }, world, Transport.Enet(enet));

using (var seeker = new LanSeeker(new LanConfig { Port = (ushort)o.DiscoveryPort, LoopbackOnly = o.LoopbackDiscovery }))
{
    LanSession found = seeker.Find(o.Session, 10_000) ??
        throw new InvalidOperationException($"no host announced session '{o.Session}' on UDP port {o.DiscoveryPort} within 10 s");
    peer.Join(found.Address);
}

// The match's timeline, as lan_match's Timeline: frames every peer agrees on without being told.
const int second = 60;
int botsStop = (int)Math.Round(o.Seconds * second);
int settled = (int)Math.Round((o.Seconds + o.SettleSeconds) * second);
int compare = (settled + second - 1) / second * second;
int finalFrame = compare + 3 * second;
const int reportDelay = 20;

uint[] bodies = arena.AllBodies();
uint ball = 0;
var random = new Random((int)o.Seed);
var clock = Stopwatch.StartNew();
bool everyoneHere = false;
while (true)
{
    if (clock.Elapsed.TotalSeconds > finalFrame / 60.0 + 40) throw new TimeoutException($"the match did not reach frame {finalFrame} in time");
    if (ball != 0)
    {
        everyoneHere = everyoneHere || peer.Peers.Length >= o.Peers;
        Vec3 at = peer.Visual(ball).Position;
        // Towards the middle, where the objects are, wandering a little; nothing after botsStop.
        peer.SetInput(everyoneHere && peer.Frame < botsStop
            ? new Input(-Math.Sign(at.X) * 0.7f + (float)(random.NextDouble() - 0.5), 0, -Math.Sign(at.Z) * 0.7f + (float)(random.NextDouble() - 0.5))
            : default);
    }
    peer.Update();
    while (peer.PollEvent(out Event e))
    {
        if (e.Kind == EventKind.JoinFailed) throw new InvalidOperationException($"joining failed: {e.JoinFailure} {peer.EventReason}");
        if (e.Kind != EventKind.JoinedMatch) continue;
        ball = arena.BallOf(e.Peer);
        peer.SetControlled(ball);
        Console.WriteLine($"joined peer={e.Peer} address={peer.Address}");
    }
    if (ball != 0 && peer.Frame >= finalFrame + reportDelay) break;
    peer.Wait(2);
}

Console.WriteLine($"sample final=1 frame={finalFrame} peer={peer.Id} peers={peer.Peers.Length} bodies={bodies.Length}");
foreach (uint id in bodies)
{
    ObjectState s = peer.StateAt(id, finalFrame);
    string F(float v) => v.ToString("R", CultureInfo.InvariantCulture);
    Console.WriteLine($"pose {F(s.Position.X)} {F(s.Position.Y)} {F(s.Position.Z)} {F(s.Orientation.W)} {F(s.Orientation.X)} " +
                      $"{F(s.Orientation.Y)} {F(s.Orientation.Z)} {F(s.LinearVelocity.X)} {F(s.LinearVelocity.Y)} {F(s.LinearVelocity.Z)} " +
                      $"{F(s.AngularVelocity.X)} {F(s.AngularVelocity.Y)} {F(s.AngularVelocity.Z)} {(s.AtRest ? 1 : 0)}");
}
Console.Out.Flush();

// Keep serving the others (their catch-up may still need this peer's frames) until stdin closes.
Task<string> stdinClosed = Task.Run(() => Console.In.ReadToEnd());
var lingerEnd = clock.Elapsed.TotalSeconds + 10;
while (!stdinClosed.IsCompleted && clock.Elapsed.TotalSeconds < lingerEnd)
{
    peer.Update();
    while (peer.PollEvent(out _)) { }
    peer.Wait(5);
}
peer.Leave();
return 0;

/// <summary>lan_match's arena (samples/lan_match/arena.cpp): a ball per player on a ring and the
/// shared objects, spheres and boxes alternating, on a grid in the middle.</summary>
internal sealed class Arena
{
    private const float Spacing = 1.5f, ObjectSize = 0.4f, BallRadius = 0.5f, Margin = 5;
    private readonly int balls, objects, side;
    private readonly float halfWidth;

    public Arena(int balls, int objects)
    {
        this.balls = balls;
        this.objects = objects;
        side = (int)Math.Ceiling(MathF.Sqrt(objects));
        halfWidth = (float)(side - 1) * Spacing * 0.5f;
    }

    public float HalfExtent => halfWidth + Margin;
    public uint BallOf(ushort peer) => 1 + (uint)(peer % balls);

    public void Build(World world)
    {
        float ring = halfWidth + Margin * 0.5f;
        for (int p = 0; p < balls; ++p)
        {
            float angle = 6.2831853f * (float)p / (float)balls;
            world.AddSphere(1 + (uint)p, BallRadius, 2.0f, ObjectState.At(MathF.Cos(angle) * ring, BallRadius, MathF.Sin(angle) * ring));
        }
        for (int i = 0; i < objects; ++i)
        {
            ObjectState state = ObjectState.At((float)(i % side) * Spacing - halfWidth, ObjectSize, (float)(i / side) * Spacing - halfWidth);
            state.AtRest = true;
            if (i % 2 == 0) world.AddSphere(100 + (uint)i, ObjectSize, 1.0f, state);
            else world.AddBox(100 + (uint)i, ObjectSize, ObjectSize, ObjectSize, 1.0f, state);
        }
    }

    public uint[] AllBodies()
    {
        var ids = new uint[balls + objects];
        for (int p = 0; p < balls; ++p) ids[p] = 1 + (uint)p;
        for (int i = 0; i < objects; ++i) ids[balls + i] = 100 + (uint)i;
        return ids;
    }
}

internal sealed class Options
{
    public int Peers = 4, Objects = 200, DiscoveryPort = 47474;
    public double Seconds = 14, SettleSeconds = 6;
    public float Loss, LatencyMs;
    public ulong Seed = 1;
    public string Session = "shoal-lan-match";
    public bool LoopbackDiscovery, Insecure;

    public Options(string[] args)
    {
        for (int i = 0; i < args.Length; ++i)
        {
            string Next() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value");
            double Number() => double.Parse(Next(), CultureInfo.InvariantCulture);
            switch (args[i])
            {
                case "--peers": Peers = (int)Number(); break;
                case "--objects": Objects = (int)Number(); break;
                case "--seconds": Seconds = Number(); break;
                case "--settle-seconds": SettleSeconds = Number(); break;
                case "--seed": Seed = (ulong)Number(); break;
                case "--loss": Loss = (float)Number(); break;
                case "--latency-ms": LatencyMs = (float)Number(); break;
                case "--session": Session = Next(); break;
                case "--discovery-port": DiscoveryPort = (int)Number(); break;
                case "--loopback-discovery": LoopbackDiscovery = true; break;
                case "--insecure": Insecure = true; break;
                default: throw new ArgumentException($"unknown flag {args[i]}: see the comment at the top of Program.cs");
            }
        }
    }
}
