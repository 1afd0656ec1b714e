#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A Python bot that plays one peer of a shoal-lan-match match, beside C++ peers (or others).

shoal-lan-match starts it for a peer index given with --peer-command:

    build/bin/shoal-lan-match --peers 3 --loss 0.1 --latency-ms 50 \\
        --peer-command "1=build/bin/shoal-python bindings/python/samples/lan_peer.py"

It gets the arguments a `shoal-lan-match --peer` gets, finds the host by LAN discovery (or hosts,
as peer 0), drives its ball into the shared objects like the C++ bots do, and prints the same
report lines (samples/lan_match/PEERS.md), which the launcher judges with the same verdict.
"""
from __future__ import annotations

import argparse
import os
import resource
import select
import sys
import time

import shoal
from lan_match_world import Arena, Bot, ReportWriter, Timeline

WAIT_MS = 4                # loop pacing: well under one 16.7 ms frame
AUTO_FIND_MS = 2000        # without --host/--join: look this long, then host
JOIN_FIND_MS = 10000       # --join: look this long, then give up
LINGER_S = 5.0             # after reporting, while the others finish
PHASE_INTERVAL_S = 0.25    # join progress lines, until joined
CREDENTIALS_VARIABLE = "SHOAL_CREDENTIALS"


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", action="store_true", help="(always: this program is one peer)")
    role = parser.add_mutually_exclusive_group()
    role.add_argument("--host", action="store_true")
    role.add_argument("--join", action="store_true")
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--session", default="shoal-lan-match")
    parser.add_argument("--discovery-port", type=int, default=47474)
    parser.add_argument("--loopback-discovery", action="store_true")
    parser.add_argument("--peers", type=int, default=4)
    parser.add_argument("--objects", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=14)
    parser.add_argument("--settle-seconds", type=float, default=6)
    parser.add_argument("--seed", type=int, default=1)
    for flag in ("--loss", "--latency-ms", "--jitter-ms", "--duplicate", "--reorder"):
        parser.add_argument(flag, type=float, default=0.0)
    parser.add_argument("--physics", default="reference")
    parser.add_argument("--projectiles", type=int, default=0)
    parser.add_argument("--insecure", action="store_true")
    parser.add_argument("--relay")
    parser.add_argument("--record")
    parser.add_argument("--peer-timeout-ms", type=int, default=-1)
    parser.add_argument("--rejoin-grace-ms", type=int, default=-1)
    parser.add_argument("--misreport-peer", type=int, default=-1)
    args = parser.parse_args(argv)
    # What this bot does not do, refused by name rather than played differently.
    if args.physics != "reference":
        parser.error(f"--physics {args.physics}: the Python peer plays on the reference physics only")
    if args.projectiles:
        parser.error("--projectiles: the Python peer does not fire projectiles")
    if args.relay:
        parser.error("--relay: the Python peer plays on the LAN only")
    return args


class LauncherCommands:
    """The launcher's lines on stdin: "quit" (or stdin closed), "killed P". Read without blocking."""

    def __init__(self):
        self.quit = False
        self.pending = b""

    def read(self, on_killed) -> None:
        if self.quit or not select.select([sys.stdin], [], [], 0)[0]:
            return
        data = os.read(sys.stdin.fileno(), 256)
        if not data:
            self.quit = True
            return
        self.pending += data
        *lines, self.pending = self.pending.split(b"\n")
        for line in lines:
            if line == b"quit":
                self.quit = True
            elif line.startswith(b"killed "):
                on_killed(int(line[7:]))


class ReownWatch:
    """After "killed P": says when every object P owned here has a live owner again."""

    def __init__(self):
        self.watched: list[tuple[int, list[int]]] = []

    def killed(self, peer: shoal.Peer, dead: int) -> None:
        owners = peer.owners()
        self.watched.append((dead, [int(i) for i, o in zip(peer.body_ids, owners) if o == dead]))

    def check(self, peer: shoal.Peer, report) -> None:
        if not self.watched:
            return
        live = set(peer.peers)
        for entry in list(self.watched):
            dead, objects = entry
            owners = peer.owners(objects) if objects else []
            if all(o != dead and o in live for o in owners):
                report(dead, time.monotonic_ns() // 1000)  # the steady clock every process shares
                self.watched.remove(entry)


def figures_of(peer: shoal.Peer) -> dict:
    stats = peer.stats()
    remotes = stats.remotes
    n = max(1, len(remotes))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    join = peer.join_progress
    return {
        "peer": peer.id, "peers": len(peer.peers),
        "rtt_ms": sum(r.link.rtt_ms for r in remotes) / n,
        "loss": sum(r.link.packet_loss for r in remotes) / n,
        "kbps_out": sum(r.link.bytes_out_per_s for r in remotes) * 8 / 1000,
        "kbps_in": sum(r.link.bytes_in_per_s for r in remotes) * 8 / 1000,
        "overrides": stats.overrides, "catchup_frames": stats.catchup_frames,
        "ownership_changes": stats.ownership_changes, "owned_objects": stats.owned_objects,
        "frozen_objects": stats.frozen_objects, "desyncs": stats.desyncs,
        "join_ms": join.elapsed_ms if join.step == shoal.JoinStep.joined else -1,
        "pace": stats.pace, "cpu_ms": int((usage.ru_utime + usage.ru_stime) * 1000),
        "spawned": stats.objects_spawned, "removed": stats.objects_removed,
        "bad_spawn": stats.dropped[shoal.DropReason.bad_spawn], "over_limit": stats.dropped[shoal.DropReason.over_limit],
    }


def transport_for(args: argparse.Namespace) -> shoal.Transport:
    config = shoal.TransportConfig()
    # Each peer impairs what it sends, so every direction of every link gets the flags' values.
    config.conditioner = shoal.ConditionerConfig(
        outbound=shoal.LinkConditions(loss=args.loss, latency_ms=args.latency_ms, jitter_ms=args.jitter_ms,
                                      duplicate=args.duplicate, reorder=args.reorder),
        seed=args.seed * 1000 + args.index + 1)
    if args.peer_timeout_ms > 0:
        config.timeout_ms = args.peer_timeout_ms
    if args.insecure:
        config.security.enabled = False
    else:
        text = os.environ.get(CREDENTIALS_VARIABLE, "")
        credentials = shoal.Credentials.from_text(text)
        if credentials is None:
            raise RuntimeError(f"a peer needs its credentials in {CREDENTIALS_VARIABLE} (the launcher sets it), "
                               "or --insecure")
        config.security.credentials = credentials
    return shoal.make_enet_transport(config)


def enter_match(args: argparse.Namespace, peer: shoal.Peer) -> shoal.LanAnnouncer | None:
    """Hosts, or finds the session and joins; a host returns the announcer it keeps running."""
    discovery = shoal.LanDiscoveryConfig(port=args.discovery_port, loopback_only=args.loopback_discovery)
    if not args.host:
        with shoal.LanSeeker(discovery) as seeker:
            found = seeker.find(args.session, JOIN_FIND_MS if args.join else AUTO_FIND_MS)
        if found is not None:
            peer.join(found.address)
            return None
        if args.join:
            raise RuntimeError(f"no host announced session '{args.session}' on UDP port {args.discovery_port} "
                               f"within {JOIN_FIND_MS // 1000} s")
    peer.host()
    return shoal.LanAnnouncer(discovery, args.session, peer.address)


def play(args: argparse.Namespace, out: ReportWriter) -> None:
    arena = Arena(args.peers, args.objects)
    world = arena.build()
    bodies = arena.bodies()
    config = shoal.PeerConfig(session=args.session)
    if args.rejoin_grace_ms >= 0:
        config.rejoin_grace_ms = args.rejoin_grace_ms
    timeline = Timeline.of(args.seconds, args.settle_seconds, config.tick_hz)
    with shoal.Peer(config, world, transport_for(args)) as peer:
        if args.record:
            peer.record(f"{args.record}/peer-{args.index}.shoalrec", arena.describe())
        announcer = enter_match(args, peer)
        bot = None
        ball = 0
        launcher = LauncherCommands()
        reown = ReownWatch()
        everyone_here = False
        next_sample = timeline.sample_interval
        next_phase = time.monotonic()
        launched = time.monotonic()
        slowest_pace = 1.0

        def sample(frame: int, final: bool) -> None:
            nonlocal slowest_pace
            figures = figures_of(peer)
            slowest_pace = max(min(slowest_pace, figures["pace"]), config.pace.min_rate)
            states = peer.states_at(frame, bodies)
            if args.misreport_peer == args.index:
                states["position"][0, 0] += 0.01
            diagnoses = [peer.diagnose(i, frame) for i in bodies] if final else ()
            out.sample(final, frame, figures, states, diagnoses)

        on_killed = lambda dead: reown.killed(peer, dead)  # noqa: E731
        while True:
            if announcer is not None:
                announcer.update()
            # Bots start once every peer is here, so nobody joins a world already in motion.
            everyone_here = everyone_here or (bot is not None and len(peer.peers) >= args.peers)
            if everyone_here:
                peer.set_input(bot.input(peer, ball) if peer.frame < timeline.bots_stop else shoal.Input())
            peer.update()
            launcher.read(on_killed)
            reown.check(peer, out.reowned)
            if time.monotonic() >= next_phase and peer.join_progress.step != shoal.JoinStep.joined:
                out.phase(peer.join_progress)
                next_phase = time.monotonic() + PHASE_INTERVAL_S
            for event in peer.events():
                if event.kind == shoal.EventKind.join_failed:
                    who = "the host" if event.peer == shoal.NO_PEER else f"peer {event.peer}"
                    raise RuntimeError(f"join failed: stuck in {event.step.name} ({who}: {event.failure.name})")
                if event.kind != shoal.EventKind.joined_match:
                    continue
                ball = arena.ball_of(event.peer)
                peer.set_controlled(ball)
                bot = Bot(args.seed * 1000 + event.peer, arena, config.tick_hz)
                interval = timeline.sample_interval
                next_sample = max(next_sample, (peer.frame // interval + 1) * interval)
                out.joined(event.peer, peer.address)
            if bot is not None:
                now = peer.frame
                while next_sample < timeline.final_frame and now >= next_sample + timeline.report_delay:
                    sample(next_sample, False)
                    next_sample += timeline.sample_interval
                if now >= timeline.final_frame + timeline.report_delay:
                    sample(timeline.final_frame, True)
                    break
            if time.monotonic() > launched + timeline.seconds_at(timeline.final_frame) / slowest_pace + 30:
                raise RuntimeError(f"the match did not reach frame {timeline.final_frame} in time (at frame {peer.frame})")
            peer.wait(WAIT_MS)
        # Keep serving the others (their catch-up may still need our frames) until the launcher
        # has every report.
        linger_end = time.monotonic() + LINGER_S
        while time.monotonic() < linger_end and not launcher.quit:
            if announcer is not None:
                announcer.update()
            peer.update()
            launcher.read(on_killed)
            reown.check(peer, out.reowned)
            peer.events()
            peer.wait(WAIT_MS)
    # Leaving the with-block left the match.


def main() -> int:
    args = parse_arguments(sys.argv[1:])
    out = ReportWriter(sys.stdout)
    try:
        play(args, out)
        return 0
    except Exception as error:  # noqa: BLE001  (any failure is reported to the launcher by its message)
        out.error(str(error))
        print(f"lan_peer.py: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
