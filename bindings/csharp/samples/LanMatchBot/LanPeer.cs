// SPDX-License-Identifier: MIT
using System;
using System.Diagnostics;
using System.IO;
using System.Text;
using Shoal;

/// <summary>One peer of a shoal-lan-match match, as samples/lan_match/PEERS.md asks and
/// peer_process.cpp does in C++: joins (or hosts), drives its ball, reports, lingers, leaves.</summary>
internal sealed class LanPeer
{
    private const int WaitMs = 4;                 // loop pacing: well under one 16.7 ms frame
    private const int AutoFindMs = 2000;          // without --host/--join: look this long, then host
    private const int JoinFindMs = 10000;         // --join: look this long, then give up
    private const double LingerSeconds = 5;       // after reporting, while the others finish
    private const double PhaseIntervalSeconds = 0.25;  // join progress lines, until joined
    private const float MinPace = 0.25f;          // the slowest a match runs (PeerConfig's pace.min_rate in C++)
    private const string CredentialsVariable = "SHOAL_CREDENTIALS";

    private readonly PeerOptions options;
    private readonly ReportWriter output;
    private readonly Arena arena;
    private readonly uint[] bodies;
    private readonly ulong[] drops = new ulong[(int)DropReason.Count];
    private readonly Stopwatch clock = Stopwatch.StartNew();

    public LanPeer(PeerOptions options, ReportWriter output)
    {
        this.options = options;
        this.output = output;
        arena = new Arena(options.Peers, options.Objects);
        bodies = arena.AllBodies();
    }

    public void Play()
    {
        using World world = arena.Build();
        var config = new PeerConfig { Session = options.Session };
        if (options.RejoinGraceMs >= 0) config.RejoinGraceMs = options.RejoinGraceMs;
        var timeline = new Timeline(options.Seconds, options.SettleSeconds, config.TickHz);
        using var peer = new Peer(config, world, MakeTransport());
        if (options.RecordDir != null)
        {
            peer.Record(Path.Combine(options.RecordDir, $"peer-{options.Index}.shoalrec"), Encoding.ASCII.GetBytes(arena.Describe()));
        }
        using LanAnnouncer? announcer = EnterMatch(peer);

        Bot? bot = null;
        uint ball = 0;
        var launcher = new LauncherCommands(Console.In);
        var reown = new ReownWatch();
        Action<ushort> onKilled = dead => reown.Killed(peer, bodies, dead);
        Action<ushort, long> onReowned = output.Reowned;
        bool everyoneHere = false;
        int nextSample = timeline.SampleInterval;
        double nextPhase = 0;
        float slowestPace = 1;
        while (true)
        {
            announcer?.Update();
            // Bots start once every peer is here, so nobody joins a world already in motion.
            everyoneHere = everyoneHere || (bot != null && peer.Peers.Length >= options.Peers);
            if (everyoneHere) peer.SetInput(peer.Frame < timeline.BotsStop ? bot!.Next(peer, ball) : default);
            peer.Update();
            launcher.Read(onKilled);
            reown.Check(peer, onReowned);
            if (clock.Elapsed.TotalSeconds >= nextPhase && peer.JoinProgress.Step != JoinStep.Joined)
            {
                output.Phase(peer.JoinProgress);
                nextPhase = clock.Elapsed.TotalSeconds + PhaseIntervalSeconds;
            }
            while (peer.PollEvent(out Event e))
            {
                if (e.Kind == EventKind.JoinFailed)
                {
                    string who = e.Peer == Peer.NoPeer ? "the host" : $"peer {e.Peer}";
                    throw new InvalidOperationException($"join failed: stuck in {Words.Of(e.JoinStep)} ({who}: {Words.Of(e.JoinFailure)})");
                }
                if (e.Kind != EventKind.JoinedMatch) continue;
                ball = arena.BallOf(e.Peer);
                peer.SetControlled(ball);
                bot = new Bot(options.Seed * 1000 + e.Peer, arena, config.TickHz);
                // A peer that joins a match under way (restarted) samples from its first whole second.
                nextSample = Math.Max(nextSample, (peer.Frame / timeline.SampleInterval + 1) * timeline.SampleInterval);
                output.Joined(e.Peer, peer.Address);
            }
            if (bot != null)
            {
                int now = peer.Frame;
                for (; nextSample < timeline.FinalFrame && now >= nextSample + Timeline.ReportDelay; nextSample += timeline.SampleInterval)
                {
                    Figures figures = Sample(peer, nextSample, false);
                    slowestPace = Math.Max(Math.Min(slowestPace, figures.Pace), MinPace);
                }
                if (now >= timeline.FinalFrame + Timeline.ReportDelay)
                {
                    Sample(peer, timeline.FinalFrame, true);
                    break;
                }
            }
            if (clock.Elapsed.TotalSeconds > timeline.SecondsAt(timeline.FinalFrame) / slowestPace + 30)
            {
                throw new TimeoutException($"the match did not reach frame {timeline.FinalFrame} in time " +
                                           $"(at frame {peer.Frame}, {(peer.InMatch ? "in the match" : "never joined")})");
            }
            peer.Wait(WaitMs);
        }
        // Keep serving the others (their catch-up may still need this peer's frames) until the
        // launcher has every report.
        double lingerEnd = clock.Elapsed.TotalSeconds + LingerSeconds;
        while (clock.Elapsed.TotalSeconds < lingerEnd && !launcher.Quit)
        {
            announcer?.Update();
            peer.Update();
            launcher.Read(onKilled);
            reown.Check(peer, onReowned);
            while (peer.PollEvent(out _)) { }
            peer.Wait(WaitMs);
        }
        peer.Leave();
    }

    // Each peer impairs what it sends, so every direction of every link gets the flags' values.
    private Transport MakeTransport()
    {
        var enet = new EnetConfig
        {
            Conditioner = new Conditioner { Outbound = options.Outbound, Inbound = LinkConditions.Default, Seed = options.Seed * 1000 + (ulong)options.Index + 1 },
            Insecure = options.Insecure,
        };
        if (options.PeerTimeoutMs > 0) enet.TimeoutMs = (uint)options.PeerTimeoutMs;
        if (!options.Insecure)
        {
            enet.Credentials = Environment.GetEnvironmentVariable(CredentialsVariable) ??
                throw new InvalidOperationException($"a peer needs its credentials in {CredentialsVariable} (the launcher sets it), or --insecure");
        }
        if (options.Relay is not Address relay) return Transport.Enet(enet);
        // Through a relay the session name is both the relay session id and its token, and the
        // host takes the slot every joiner looks for.
        return Transport.Relay(new RelayConfig
        {
            Relay = relay, Session = options.Session, Token = options.Session, Local = enet,
            Slot = options.As == PeerOptions.Role.Host ? Relay.HostSlot : (ushort)0,
        });
    }

    // Hosts, or finds the session and joins; a host on a LAN returns the announcer it keeps running.
    private LanAnnouncer? EnterMatch(Peer peer)
    {
        if (options.Relay != null)
        {
            if (options.As == PeerOptions.Role.Host) peer.Host(); else peer.Join(Relay.VirtualHost, Relay.HostSlot);
            return null;
        }
        var discovery = new LanConfig { Port = options.DiscoveryPort, LoopbackOnly = options.LoopbackDiscovery };
        if (options.As != PeerOptions.Role.Host)
        {
            int timeoutMs = options.As == PeerOptions.Role.Join ? JoinFindMs : AutoFindMs;
            LanSession? found;
            using (var seeker = new LanSeeker(discovery)) found = seeker.Find(options.Session, timeoutMs);
            if (found != null)
            {
                peer.Join(found.Address);
                return null;
            }
            if (options.As == PeerOptions.Role.Join)
            {
                throw new InvalidOperationException($"no host announced session '{options.Session}' on UDP port {options.DiscoveryPort} " +
                                                    $"within {timeoutMs / 1000} s");
            }
        }
        peer.Host();
        return new LanAnnouncer(discovery, options.Session, peer.Address);
    }

    // Figures now, states at `frame` (still in the history: Timeline.ReportDelay), and for the
    // final sample what the peer knows of each body; reported, and the figures returned.
    private Figures Sample(Peer peer, int frame, bool final)
    {
        Figures figures = FiguresOf(peer);
        var states = new ObjectState?[bodies.Length];
        var diagnoses = new ObjectDiagnosis[final ? bodies.Length : 0];
        for (int b = 0; b < bodies.Length; ++b)
        {
            states[b] = StateAt(peer, bodies[b], frame);
            if (final) diagnoses[b] = peer.Diagnose(bodies[b], frame);
        }
        // --misreport-peer: this peer's first body, 1 cm off in what it reports (never in the match).
        if (options.MisreportPeer == options.Index && states[0] is ObjectState first)
        {
            first.Position.X += 0.01f;
            states[0] = first;
        }
        output.Sample(final, frame, figures, states, diagnoses);
        return figures;
    }

    private static ObjectState? StateAt(Peer peer, uint id, int frame)
    {
        try
        {
            return peer.StateAt(id, frame);
        }
        catch (ShoalException e) when (e.Code == ErrorCode.FrameNotHeld)
        {
            return null;
        }
    }

    private Figures FiguresOf(Peer peer)
    {
        PeerStats stats = peer.Stats;
        GameStats game = peer.GameStats;
        JoinProgress join = peer.JoinProgress;
        peer.ReadDrops(drops);
        var f = new Figures
        {
            Peer = peer.Id, PeersSeen = peer.Peers.Length,
            Overrides = stats.Overrides, CatchupFrames = stats.CatchupFrames, OwnershipChanges = stats.OwnershipChanges,
            OwnedObjects = stats.OwnedObjects, FrozenObjects = stats.FrozenObjects, Desyncs = stats.Desyncs,
            JoinMs = join.Step == JoinStep.Joined ? join.ElapsedMs : -1,
            Pace = game.Pace, CpuMs = (long)Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds,
            Spawned = game.ObjectsSpawned, Removed = game.ObjectsRemoved, Live = (ulong)peer.ReadSpawnedObjects(Span<uint>.Empty),
            BadSpawn = drops[(int)DropReason.BadSpawn], OverLimit = drops[(int)DropReason.OverLimit],
        };
        for (int i = 0; i < stats.RemoteCount; ++i)
        {
            RemoteStats remote = peer.RemoteStats(i);
            f.RttMs += remote.RttMs;
            f.Loss += remote.PacketLoss;
            f.KbpsOut += remote.BytesOutPerS * 8 / 1000;
            f.KbpsIn += remote.BytesInPerS * 8 / 1000;
        }
        if (stats.RemoteCount > 0)
        {
            f.RttMs /= stats.RemoteCount;
            f.Loss /= stats.RemoteCount;
        }
        return f;
    }
}
