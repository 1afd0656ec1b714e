# SPDX-License-Identifier: MIT
"""Recordings from Python: a peer records itself (Peer.record), and a recording replays from Python
bit for bit (Replay.run, ReplaySession), as numpy arrays of every frame's states (Replay.states),
and in the C++ tool shoal-replay, which rebuilds the same arena from the recording's words."""
import subprocess

import numpy as np
import pytest

import shoal
from headless_match import Match, parse_arguments, play
from lan_match_world import Arena


@pytest.fixture(scope="module")
def recordings(tmp_path_factory):
    folder = tmp_path_factory.mktemp("recordings")
    match = Match(parse_arguments(["--network", "memory", "--objects", "12", "--seconds", "3", "--settle-seconds", "3",
                                   "--loss", "0.1", "--record", str(folder)]))
    try:
        assert play(match).consistent
    finally:
        match.close()  # the recordings end (their end record) as the peers go
    return sorted(folder.glob("peer-*.shoalrec"))


def test_a_recording_replays_bit_for_bit_from_python(recordings):
    replay = shoal.Replay(str(recordings[1]))
    assert replay.complete and replay.world == b"shoal-lan-match peers=3 objects=12 physics=reference"
    arena = Arena.from_description(replay.world)
    seen = []
    report = replay.run(arena.build(), after_update=lambda peer: seen.append((peer, peer.frame)))
    assert report.identical, report.first_difference
    assert report.updates == len(seen) and report.final_frame == seen[-1][1] and report.final_frame > 300
    with pytest.raises(shoal.StateError, match="this replayed peer is gone"):
        seen[-1][0].frame  # valid during its callback only
    other = shoal.ReplayOptions(smoothing=shoal.SmoothingRules(shoal.SmoothingRule(warp_distance_m=3)))
    assert replay.run(arena.build(), options=other).identical  # drawing differently changes nothing else


def test_a_replay_session_goes_one_update_at_a_time(recordings):
    replay = shoal.Replay(str(recordings[0]))
    session = shoal.ReplaySession(replay, Arena.from_description(replay.world).build())
    times = []
    for now_us in session:
        session.update()
        times.append(now_us)
    assert session.report().identical and times == sorted(times) and len(times) == session.report().updates
    assert session.peer.in_match and len(session.peer.states()) == 15
    with pytest.raises(shoal.StateError, match="update: this peer is replayed: its replay drives it"):
        session.peer.update()  # the replay decides every update, input and event of its peer
    with pytest.raises(shoal.StateError, match="events: this peer is replayed"):
        session.peer.events()
    with pytest.raises(shoal.InvalidArgument, match="not the recorded world|world"):
        shoal.ReplaySession(replay, Arena(3, 11).build())  # another world is refused


def test_every_frame_of_a_replay_as_numpy_arrays(recordings):
    replays = [shoal.Replay(str(path)) for path in recordings]
    arena = Arena.from_description(replays[0].world)
    first = replays[0].states(arena.build())
    assert first.report.identical
    frames, states = first.frames, first.states
    assert states.dtype == shoal.STATE_DTYPE and states.shape == (len(frames), 15)
    assert list(frames) == list(range(frames[0], frames[-1] + 1)) and frames[0] == 0
    assert list(first.ids) == arena.bodies()
    # The ball of peer 0 moved: its position over the frames is one column of the array.
    track = states["position"][:, 0, :]
    assert np.linalg.norm(track[-1] - track[0]) > 0.5
    # As each peer held them last, the settled world's frames are the same bits on every peer.
    settled = [r.states(arena.build(), settled=True) for r in replays]
    end = min(s.frames[-1] for s in settled) - 30
    rows = [s.states[np.searchsorted(s.frames, end)] for s in settled]
    assert all(r.tobytes() == rows[0].tobytes() for r in rows)
    ball = replays[0].states(arena.build(), ids=[1])
    assert ball.states.shape == (len(ball.frames), 1) and np.array_equal(ball.states[:, 0], states[:, 0])


def test_shoal_replay_plays_a_python_peers_recording_identically(recordings, bin_dir):
    done = subprocess.run([str(bin_dir / "shoal-replay"), *map(str, recordings)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": identical") == 3
