#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Plots how far peers' views of one object drifted apart, frame by frame, from their recordings.

    build/bin/shoal-lan-match --peers 3 --loss 0.1 --record rec       # or headless_match.py --record
    build/bin/shoal-python bindings/python/samples/plot_divergence.py rec/peer-*.shoalrec --object 103

Each recording (Peer.record) is replayed alone on the world it names (a shoal-lan-match arena)
and gives the object's state at every frame, as the peer simulated it first (before the owner's
corrections reached it) and as it held it last. The plot shows each peer's distance from the
first recording's peer: the first curve is what players saw and Shoal corrected, the second what
the peers ended with (0 once they agree bit for bit). Needs matplotlib (python3-matplotlib).
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

import shoal
from lan_match_world import FIRST_OBJECT, Arena


def object_track(path: str, object_id: int, settled: bool) -> tuple[np.ndarray, np.ndarray]:
    """The frames of a recording and the object's position at each one."""
    replay = shoal.Replay(path)
    arena = Arena.from_description(replay.world)
    if arena is None:
        raise SystemExit(f"{path}: its world '{replay.world.decode(errors='replace')}' is not a shoal-lan-match arena")
    if object_id not in arena.bodies():
        raise SystemExit(f"{path}: no object {object_id} in its arena (objects: {arena.bodies()[0]}..{arena.bodies()[-1]})")
    replayed = replay.states(arena.build(), ids=[object_id], settled=settled)
    if not replayed.report.identical:
        print(f"{path}: the replay differs from the recording: {replayed.report.first_difference}", file=sys.stderr)
    return replayed.frames, replayed.states["position"][:, 0, :]


def divergence(reference: tuple[np.ndarray, np.ndarray], other: tuple[np.ndarray, np.ndarray]):
    """Distances between two tracks over the frames both hold."""
    frames = np.intersect1d(reference[0], other[0])
    a = reference[1][np.searchsorted(reference[0], frames)]
    b = other[1][np.searchsorted(other[0], frames)]
    return frames, np.linalg.norm(a - b, axis=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recordings", nargs="+", help="two or more recordings of one match")
    parser.add_argument("--object", type=int, default=FIRST_OBJECT,
                        help=f"the object to follow (default {FIRST_OBJECT}, the first shared object)")
    parser.add_argument("--out", default="divergence.png", help="the PNG to write")
    args = parser.parse_args()
    if len(args.recordings) < 2:
        parser.error("expected two or more recordings of one match")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_divergence.py needs matplotlib: apt-get install python3-matplotlib", file=sys.stderr)
        return 2

    figure, axes = plt.subplots(2, 1, sharex=True, figsize=(9, 6))
    for settled, ax in ((False, axes[0]), (True, axes[1])):
        tracks = [object_track(path, args.object, settled) for path in args.recordings]
        for path, track in zip(args.recordings[1:], tracks[1:]):
            frames, distance = divergence(tracks[0], track)
            ax.plot(frames / 60.0, distance * 1000, label=f"{path} vs {args.recordings[0]}")
            worst = int(np.argmax(distance))
            print(f"{'settled' if settled else 'first simulated'}: {path}: largest divergence "
                  f"{distance[worst] * 1000:.3f} mm at frame {frames[worst]}, at the end {distance[-1] * 1000:.3f} mm "
                  f"({int(np.count_nonzero(distance))} of {len(frames)} frames differ)")
        ax.set_ylabel("distance (mm)")
        ax.set_title(f"object {args.object}: " + ("as each peer held it last" if settled else "as each peer first simulated it"))
        ax.legend(fontsize="small")
    axes[1].set_xlabel("match time (s)")
    figure.tight_layout()
    figure.savefig(args.out, dpi=100)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
