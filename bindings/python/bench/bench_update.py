#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""What the Python module costs per update(), beside C++ calling the same library, and one numpy
bulk read of every body's state.

    build/bin/shoal-python bindings/python/bench/bench_update.py              # 1,000 objects, 4 peers

A bot match of --peers peers over --objects objects (shoal-lan-match's arena, the reference
physics) is played on the in-process network (30 ms, +-5 ms, 5% loss) and peer 1 records itself.
Its recording is then replayed alone, in turns: A, each update made from C++ (shoal._bench:
ReplaySession::update(), the replayed peer's update_at, timed on the steady clock), and B, the
same updates made from Python through the module (ReplaySession.update(), timed with
time.perf_counter_ns): the same world, datagrams and times, so the same work, and the same path
through the module as Peer.update() (the call, the GIL released, the peer's lock, the C++
update). Both replays are checked against the recording bit for bit. Each run gives the mean time per update(); the medians of the runs are compared.
Run on a quiet machine: the shared machines are noisy, which is why A and B alternate.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import shoal
from shoal import _bench

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "samples"))
from lan_match_world import Arena, Bot  # noqa: E402

RENDER_US = 16_667


def record_match(arena: Arena, frames: int, seed: int, path: str) -> None:
    """Plays the bot match and records peer 1 (a joiner, like most peers of a match)."""
    network = shoal.MemoryNetwork(seed)
    network.set_conditions(shoal.LinkConditions(latency_ms=30, jitter_ms=5, loss=0.05))
    network.time_us = 1_000_000
    authority = shoal.SessionAuthority("bench")
    peers, worlds, bots = [], [], {}
    for index in range(arena.balls):
        worlds.append(arena.build())
        transport = shoal.secure_transport(network.endpoint(), shoal.SecurityConfig(credentials=authority.invite()))
        peers.append(shoal.Peer(shoal.PeerConfig(session="bench"), worlds[-1], transport))
    peers[1].record(path, arena.describe())
    peers[0].host()
    for peer in peers[1:]:
        peer.join(peers[0].address)
    played = 0
    for _ in range(frames + 60 * 30):
        everyone = all(len(p.peers) == arena.balls for p in peers)
        for index, peer in enumerate(peers):
            if everyone and index in bots:
                peer.set_input(bots[index].input(peer, arena.ball_of(peer.id)))
            peer.update_at(network.time_us)
            for event in peer.events():
                if event.kind == shoal.EventKind.joined_match:
                    peer.set_controlled(arena.ball_of(event.peer))
                    bots[index] = Bot(seed * 31 + event.peer, arena, 60.0)
        network.time_us += RENDER_US
        played += everyone
        if played >= frames:
            break
    else:
        raise RuntimeError("the peers never all joined")
    for peer in peers:
        peer.close()  # ends the recording


def cpp_run(replay: shoal.Replay, arena: Arena) -> float:
    """A: each update() called from C++; the mean per update in microseconds."""
    times = _bench.replay_update_ns(replay, arena.build())
    return float(np.mean(times)) / 1000


def python_run(replay: shoal.Replay, arena: Arena) -> float:
    """B: the same updates called from Python; the mean per update in microseconds."""
    session = shoal.ReplaySession(replay, arena.build())
    update = session.update
    clock = time.perf_counter_ns
    times = []
    for _ in session:
        start = clock()
        update()
        times.append(clock() - start)
    report = session.report()
    if not report.identical:
        raise RuntimeError(f"the Python replay differed: {report.first_difference}")
    return sum(times) / len(times) / 1000


def bulk_reads(replay: shoal.Replay, arena: Arena, repeats: int) -> dict[str, float]:
    """Medians, in microseconds, of reading every body at once, and one by one from Python; and
    the mean of an update() call with nothing to do."""
    session = shoal.ReplaySession(replay, arena.build())
    for now_us in session:
        session.update()
    peer = session.peer
    ids = peer.body_ids

    def median_us(call) -> float:
        samples = []
        for _ in range(repeats):
            start = time.perf_counter_ns()
            call()
            samples.append(time.perf_counter_ns() - start)
        return statistics.median(samples) / 1000

    # The module's own cost of one update() call, apart from the update's work: the same path
    # (the call, the GIL released and taken back, the peer's lock) into a C++ call that returns
    # at once, as ReplaySession.update() does once the recording has ended.
    calls = 10_000
    start = time.perf_counter_ns()
    for _ in range(calls):
        session.update()
    call_ns = (time.perf_counter_ns() - start) / calls
    return {
        "update() call, nothing to do": call_ns / 1000,
        "states()": median_us(peer.states),
        "visuals()": median_us(peer.visuals),
        "owners()": median_us(peer.owners),
        "state(id) in a Python loop": median_us(lambda: [peer.state(int(i)) for i in ids]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--peers", type=int, default=4)
    parser.add_argument("--frames", type=int, default=600, help="render frames of bot play recorded")
    parser.add_argument("--runs", type=int, default=7, help="replays of each kind, alternating")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    arena = Arena(args.peers, args.objects)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "peer-1.shoalrec")
        started = time.monotonic()
        record_match(arena, args.frames, args.seed, path)
        replay = shoal.Replay(path)
        print(f"recorded peer 1 of a {args.peers}-peer match over {args.objects} objects, {args.frames} frames of bot "
              f"play on the in-process network (30 ms +-5, 5% loss), in {time.monotonic() - started:.1f} s; "
              f"shoal {shoal.__version__}", flush=True)
        cpp_run(replay, arena)  # a first run of each, untimed: caches and allocations settle
        python_run(replay, arena)
        cpp, python = [], []
        print(f"{'run':>4} {'C++ us/update':>14} {'Python us/update':>17}")
        for run in range(args.runs):
            cpp.append(cpp_run(replay, arena))
            python.append(python_run(replay, arena))
            print(f"{run + 1:>4} {cpp[-1]:>14.1f} {python[-1]:>17.1f}")
        a, b = statistics.median(cpp), statistics.median(python)
        ratio = b / a
        print(f"{'median':>6} {a:>12.1f} {b:>17.1f}   Python / C++ = {ratio:.3f} "
              f"({(ratio - 1) * 100:+.1f}%: {'within' if ratio <= 1.05 else 'MORE than'} 5%)")
        reads = bulk_reads(replay, arena, repeats=200)
    bodies = args.objects + args.peers
    print(f"the module's own cost of one update() call (10,000 calls into a C++ update with nothing to do): "
          f"{reads.pop('update() call, nothing to do') * 1000:.0f} ns")
    print(f"bulk reads of {bodies} bodies (median of 200):")
    for name, us in reads.items():
        print(f"  {name:<28} {us:>9.1f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
