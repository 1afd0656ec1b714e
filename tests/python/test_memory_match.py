# SPDX-License-Identifier: MIT
"""Matches on the in-process network (a fake clock, delivery decided by the seed): three peers at
10% loss end with the same bits; the numpy bulk reads say what the per-object calls say;
spawning, game messages, events and diagnoses reach Python."""
import numpy as np
import pytest

import shoal
from headless_match import Match, parse_arguments, play


@pytest.fixture(scope="module")
def finished_match():
    match = Match(parse_arguments(["--network", "memory", "--loss", "0.1", "--latency-ms", "20", "--objects", "30",
                                   "--seconds", "4", "--settle-seconds", "4", "--seed", "11"]))
    result = play(match)
    yield match, result
    match.close()


def test_three_python_peers_at_10_percent_loss_end_with_the_same_bits(finished_match):
    match, result = finished_match
    assert result.consistent and result.at_rest and result.lost == 0 and result.differing == []
    stats = [p.stats() for p in match.peers]
    assert all(s.overrides > 0 and s.ownership_changes > 0 for s in stats)  # the network did correct them
    assert sum(s.owned_objects for s in stats) == len(match.arena.bodies())


def test_bulk_reads_are_what_the_per_object_calls_say(finished_match):
    match, _ = finished_match
    peer = match.peers[1]
    ids = peer.body_ids
    assert ids.dtype == np.uint32 and list(ids) == match.arena.bodies()
    states = peer.states()
    assert states.dtype == shoal.STATE_DTYPE and states.shape == (len(ids),)
    for record, object_id in zip(states, ids):
        state = peer.state(int(object_id))
        assert record["id"] == object_id
        assert tuple(record["position"]) == tuple(state.position)
        assert tuple(record["orientation"]) == tuple(state.orientation)
        assert tuple(record["linear_velocity"]) == tuple(state.linear_velocity)
        assert tuple(record["angular_velocity"]) == tuple(state.angular_velocity)
        assert record["at_rest"] == state.at_rest
    frame = peer.frame - 5
    then = peer.states_at(frame, ids[:3])
    assert [tuple(r["position"]) for r in then] == [tuple(peer.state_at(int(i), frame).position) for i in ids[:3]]
    assert np.isnan(peer.states_at(frame - 1000)["position"]).all()  # not held: NaN, never stale
    visuals = peer.visuals()
    assert [tuple(v["position"]) for v in visuals] == [tuple(peer.visual(int(i)).position) for i in ids]
    assert list(peer.owners()) == [peer.owner(int(i)) for i in ids]
    with pytest.raises(shoal.InvalidArgument, match="object 99999 is not one of the simulation's bodies"):
        peer.states([1, 99999])


def spawning_world():
    world = shoal.ReferencePhysics()
    world.add_sphere(1, 0.5, 2.0, shoal.ObjectState(position=(-3, 0.5, 0)))
    world.add_sphere(2, 0.5, 2.0, shoal.ObjectState(position=(3, 0.5, 0)))
    world.set_spawn_box(7, (0.2, 0.2, 0.2), 0.5)
    world.add_spawn_slots(16)
    return world


def test_spawns_messages_events_and_diagnoses_between_two_peers():
    network = shoal.MemoryNetwork(5)
    network.set_conditions(shoal.LinkConditions(latency_ms=10))
    network.time_us = 1_000_000
    worlds = [spawning_world(), spawning_world()]
    lines = []
    # The guest keeps at most 4 of the host's messages waiting, and logs every drop.
    guest_config = shoal.PeerConfig(messages=shoal.MessageConfig(max_queued=4),
                                    log=shoal.LogConfig(callback=lambda level, text: lines.append((level, text)),
                                                        level=shoal.LogLevel.debug))
    with shoal.Peer(shoal.PeerConfig(), worlds[0], network.endpoint()) as host, \
         shoal.Peer(guest_config, worlds[1], network.endpoint()) as guest:
        host.host()
        guest.join(host.address)
        events = {0: [], 1: []}

        def run(frames):
            for _ in range(frames):
                for index, peer in enumerate((host, guest)):
                    peer.update_at(network.time_us)
                    events[index] += peer.events()
                network.time_us += 16_667

        run(120)
        assert guest.in_match and guest.join_progress.step == shoal.JoinStep.joined
        assert [e.kind for e in events[1]][:1] == [shoal.EventKind.joined_match]
        spawned = host.spawn(7, shoal.ObjectState(position=(0, 1, 0)), b"ammo")
        assert spawned & shoal.SPAWNED_ID_BIT
        assert host.send_message(guest.id, b"hello", shoal.Delivery.reliable, frame=host.frame)
        assert host.send_message(shoal.NO_PEER, b"bye", shoal.Delivery.unreliable)
        run(60)
        assert guest.spawned_objects() == [spawned]
        info = guest.spawned_object(spawned)
        assert info.type == 7 and info.spawner == host.id and info.spawn_bytes == b"ammo"
        assert guest.spawned_object(12345) is None
        messages = [e for e in events[1] if e.kind == shoal.EventKind.message]
        assert sorted((m.bytes, m.reliable, m.peer) for m in messages) == [(b"bye", False, 0), (b"hello", True, 0)]
        assert "bytes=b'hello'" in repr(messages[0])
        diagnosis = guest.diagnose(spawned, guest.frame)
        assert diagnosis.held and diagnosis.owner == host.id and diagnosis.object == spawned
        host.remove(spawned)
        run(60)
        assert guest.spawned_objects() == [] and guest.stats().objects_removed == 1
        with pytest.raises(shoal.InvalidArgument, match="is no live spawned object"):
            host.remove(spawned)
        assert host.stats().messages_sent == 2 and guest.stats().messages_received == 2
        # Six at once, while the guest takes none: two past its queue are dropped, and said why.
        for i in range(6):
            assert host.send_message(guest.id, bytes([i]))
        network.time_us += 100_000
        host.update_at(network.time_us)
        guest.update_at(network.time_us)
        assert guest.stats().dropped[shoal.DropReason.over_limit] == 2
        assert (shoal.LogLevel.debug, "dropped an incoming message: over_limit (2 so far)") in lines
        assert len([e for e in guest.events() if e.kind == shoal.EventKind.message]) == 4
    assert host.closed and guest.closed
