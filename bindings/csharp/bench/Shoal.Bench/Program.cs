// SPDX-License-Identifier: MIT
// The C# binding's own cost per update(), measured against C++ calling the same library, side
// by side in one run: 4 peers of one match (1,000 objects on the reference physics, simulated
// in native code) on the in-process network at 5% loss. Frames alternate between A (each
// peer's Peer.UpdateAt through the binding, timed in C#) and B (shoal_peer_update_at called and
// timed by C++: native_driver.cpp) on the same peers, in rounds of four frames A, B, B, A or
// B, A, A, B; each round gives A's and B's cost per update, and their medians over the rounds
// are compared. Also: the managed bytes the A frames allocated (the runtime's own counter), a
// call's fixed cost, and one bulk read of every body's visual state against one call per body.
// build/csharp/shoal-bench-csharp runs it with the build's libraries.
//
//   build/csharp/shoal-bench-csharp [--objects 1000] [--peers 4] [--rounds 1500] [--frames 2]
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Runtime.InteropServices;
using Shoal;

int objects = 1000, players = 4, rounds = 1500, framesPerRound = 2;
for (int i = 0; i + 1 < args.Length; i += 2)
{
    int value = int.Parse(args[i + 1], CultureInfo.InvariantCulture);
    switch (args[i])
    {
        case "--objects": objects = value; break;
        case "--peers": players = value; break;
        case "--rounds": rounds = value; break;
        case "--frames": framesPerRound = value; break;
        default: Console.Error.WriteLine($"unknown flag {args[i]}"); return 2;
    }
}

// The world: a ball per player on a ring around a grid of spheres and boxes, as shoal-lan-match's.
int side = (int)Math.Ceiling(Math.Sqrt(objects));
float half = (side - 1) * 1.5f * 0.5f;
World BuildWorld()
{
    var world = new World(new WorldConfig { ArenaHalfX = half + 5, ArenaHalfZ = half + 5, LinearDamping = 0.6f, AngularDamping = 0.6f });
    for (int p = 0; p < players; ++p)
    {
        double angle = 2 * Math.PI * p / players;
        world.AddSphere((uint)(1 + p), 0.5f, 2, ObjectState.At((float)((half + 2.5) * Math.Cos(angle)), 0.5f, (float)((half + 2.5) * Math.Sin(angle))));
    }
    for (int i = 0; i < objects; ++i)
    {
        ObjectState s = ObjectState.At((i % side) * 1.5f - half, 0.4f, (i / side) * 1.5f - half);
        s.AtRest = true;
        if (i % 2 == 0) world.AddSphere((uint)(100 + i), 0.4f, 1, s);
        else world.AddBox((uint)(100 + i), 0.4f, 0.4f, 0.4f, 1, s);
    }
    return world;
}

using var network = new MemoryNetwork(2026);
network.SetConditions(LinkConditions.Lossy(0.05f, 20));
var worlds = Enumerable.Range(0, players).Select(_ => BuildWorld()).ToArray();
var peers = new Peer[players];
for (int p = 0; p < players; ++p)
{
    peers[p] = new Peer(new PeerConfig(), worlds[p], network.CreateEndpoint());
    peers[p].SetControlled((uint)(1 + p));
}
IntPtr[] native = peers.Select(p => p.NativePointer).ToArray();
long now = 1_000_000;
var inputs = new Input[players];

void Advance() { now += 16667; network.SetTime(now); }
void Steer(int frame)
{
    for (int p = 0; p < players; ++p)
    {
        inputs[p] = new Input(((frame / 50 + p) % 2 == 0) ? 1 : -1, 0, ((frame / 80 + p) % 3) - 1);
        peers[p].SetInput(inputs[p]);
    }
}
void DrainEvents() { foreach (Peer peer in peers) while (peer.PollEvent(out _)) { } }

peers[0].Host();
for (int p = 1; p < players; ++p)
{
    peers[p].Join(peers[0].Address);
    for (int f = 0; f < 900 && peers[p].JoinProgress.Step != JoinStep.Joined; ++f)
    {
        Advance();
        foreach (Peer peer in peers) peer.UpdateAt(now);
        DrainEvents();
    }
}
int frame = 0;
for (; frame < 240; ++frame)  // warm-up: the JIT, the caches, the match under way
{
    Steer(frame);
    Advance();
    foreach (Peer peer in peers) peer.UpdateAt(now);
    DrainEvents();
}
if (!peers.All(p => p.JoinProgress.Step == JoinStep.Joined)) { Console.Error.WriteLine("the peers never all joined"); return 1; }

var csharp = new List<double>();
var cpp = new List<double>();
long allocated = 0, csharpUpdates = 0;
double tickNs = 1e9 / Stopwatch.Frequency;
// Frames alternate A, B, B, A or B, A, A, B (which, drawn from a seeded generator each round):
// both callers meet the same match, busier or quieter as it goes, and no rhythm of the peers'
// work (something every other frame, every third...) falls on one caller more than the other.
var order = new Random(48);
for (int round = 0; round < rounds; ++round)
{
    double bindingNs = 0, cppNs = 0;
    bool flipped = order.Next(2) == 1;
    for (int f = 0; f < 2 * framesPerRound; ++f, ++frame)
    {
        Steer(frame);
        Advance();
        if (((f + f / 2) % 2 == 0) != flipped)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int p = 0; p < players; ++p)
            {
                long start = Stopwatch.GetTimestamp();
                peers[p].UpdateAt(now);
                bindingNs += (Stopwatch.GetTimestamp() - start) * tickNs;
            }
            allocated += GC.GetAllocatedBytesForCurrentThread() - before;
            csharpUpdates += players;
        }
        else
        {
            long spent = Driver.shoal_bench_update_peers(native, players, now);
            if (spent < 0) throw new InvalidOperationException("shoal_peer_update_at failed in the C++ driver");
            cppNs += spent;
        }
        DrainEvents();
    }
    csharp.Add(bindingNs / (framesPerRound * players) / 1000.0);
    cpp.Add(cppNs / (framesPerRound * players) / 1000.0);
}

// The binding's fixed cost of a call: one that does nothing else (the peer's frame number).
var call = new List<double>();
for (int r = 0; r < 101; ++r)
{
    long start = Stopwatch.GetTimestamp();
    for (int i = 0; i < 1000; ++i) _ = peers[0].Frame;
    call.Add((Stopwatch.GetTimestamp() - start) * tickNs / 1000.0);
}

// One bulk read of every body's visual state, against one call per body.
int bodies = peers[1].ReadVisuals(Span<VisualState>.Empty);
var visuals = new VisualState[bodies];
var ids = new uint[bodies];
peers[1].ReadObjects(ids);
var bulk = new List<double>();
var single = new List<double>();
for (int r = 0; r < 201; ++r)
{
    long start = Stopwatch.GetTimestamp();
    peers[1].ReadVisuals(visuals);
    bulk.Add((Stopwatch.GetTimestamp() - start) * tickNs / 1000.0);
    start = Stopwatch.GetTimestamp();
    for (int b = 0; b < bodies; ++b) visuals[b] = peers[1].Visual(ids[b]);
    single.Add((Stopwatch.GetTimestamp() - start) * tickNs / 1000.0);
}

double Median(List<double> xs) { var s = xs.OrderBy(x => x).ToList(); return s[s.Count / 2]; }
double viaBinding = Median(csharp), viaCpp = Median(cpp), ratio = viaBinding / viaCpp;
Console.WriteLine($"C# binding vs C++ calling libshoal_c: {players} peers, {objects} objects (+{players} balls) on the reference physics,");
Console.WriteLine($"in-process network at 5% loss; {rounds} rounds of {2 * framesPerRound} frames, whose frames alternate A (every peer updated");
Console.WriteLine($"through the binding, timed in C#) and B (every peer updated by C++, timed in C++): A, B, B, A or B, A, A, B; medians of the rounds");
Console.WriteLine();
Console.WriteLine($"{"caller",-34} {"median us/update",17} {"min",9} {"max",9}");
Console.WriteLine($"{"A: C# Peer.UpdateAt (the binding)",-34} {viaBinding,17:F1} {csharp.Min(),9:F1} {csharp.Max(),9:F1}");
Console.WriteLine($"{"B: C++ shoal_peer_update_at",-34} {viaCpp,17:F1} {cpp.Min(),9:F1} {cpp.Max(),9:F1}");
double pairedRatio = Median(csharp.Zip(cpp, (x, y) => x / y).ToList());
Console.WriteLine($"{"ratio A/B of the medians",-34} {ratio,17:F3}   (at most 1.05: {(ratio <= 1.05 ? "yes" : "NO")})");
Console.WriteLine($"{"median of the rounds' A/B",-34} {pairedRatio,17:F3}   (at most 1.05: {(pairedRatio <= 1.05 ? "yes" : "NO")})");
Console.WriteLine();
Console.WriteLine($"a call through the binding that does nothing else (Peer.Frame): median {Median(call):F1} ns");
Console.WriteLine($"managed bytes allocated by {csharpUpdates} updates through the binding: {allocated} ({(double)allocated / csharpUpdates:F2} per update)");
Console.WriteLine($"one bulk read of {bodies} visual states (Peer.ReadVisuals): median {Median(bulk):F1} us; " +
                  $"{bodies} Peer.Visual calls: median {Median(single):F1} us");
foreach (Peer peer in peers) peer.Dispose();
foreach (World world in worlds) world.Dispose();
return 0;

internal static class Driver
{
    [DllImport("shoal_bench_driver", CallingConvention = CallingConvention.Cdecl)]
    public static extern long shoal_bench_update_peers(IntPtr[] peers, int count, long nowUs);
}
