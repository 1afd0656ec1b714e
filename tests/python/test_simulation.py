# SPDX-License-Identifier: MIT
"""A Simulation written in Python: Shoal steps, reads, writes and re-simulates it like a native
world, from inside update() (whose GIL is released and taken back for each call)."""
import pytest

import shoal


class Slides(shoal.Simulation):
    """Discs sliding on the ground, pushed by their players' inputs and slowed by friction;
    deterministic (the same Python arithmetic on every peer), without collisions."""

    DT = 1 / 60

    def __init__(self, count: int):
        super().__init__()
        self.states = [shoal.ObjectState(position=(2.0 * i, 0.5, 0.0), at_rest=True) for i in range(count)]
        self.saved: dict[int, int] = {}
        self.steps = 0
        self.restores = 0

    def step(self, frame, inputs):
        pushes = {i.body: i.input.axis for i in inputs}
        for body, state in enumerate(self.states):
            push = pushes.get(body)
            v = state.linear_velocity
            vx = v.x * 0.9 + (push.x * 0.6 if push is not None else 0.0)
            vz = v.z * 0.9 + (push.z * 0.6 if push is not None else 0.0)
            if abs(vx) < 0.01 and abs(vz) < 0.01:
                state.linear_velocity = (0, 0, 0)
                state.at_rest = True
                continue
            p = state.position
            state.position = (p.x + vx * self.DT, p.y, p.z + vz * self.DT)
            state.linear_velocity = (vx, 0, vz)
            state.at_rest = False
        self.steps += 1
        self.saved[frame] = self.steps

    def body_count(self):
        return len(self.states)

    def body_id(self, body):
        return 10 + body

    def bounding_radius(self, body):
        return 0.5

    def read(self, body):
        return self.states[body]

    def write(self, body, state):
        self.states[body] = state

    def restore(self, frame):
        self.restores += 1


def test_a_python_simulation_drives_a_two_peer_match_to_the_same_bits():
    network = shoal.MemoryNetwork(3)
    network.set_conditions(shoal.LinkConditions(latency_ms=30, loss=0.1))
    network.time_us = 1_000_000
    worlds = [Slides(6), Slides(6)]
    with shoal.Peer(shoal.PeerConfig(), worlds[0], network.endpoint()) as host, \
         shoal.Peer(shoal.PeerConfig(), worlds[1], network.endpoint()) as guest:
        host.host()
        guest.join(host.address)
        peers = (host, guest)

        def run(frames, push):
            for _ in range(frames):
                for index, peer in enumerate(peers):
                    if peer.in_match:
                        peer.set_controlled(10 + index)
                        peer.set_input(shoal.Input(axis=(1, 0, 0.5 * index) if push else (0, 0, 0)))
                    peer.update_at(network.time_us)
                    peer.events()
                network.time_us += 16_667

        run(120, push=False)
        assert guest.in_match
        run(180, push=True)
        run(300, push=False)
        frame = min(host.frame, guest.frame) - 10
        a, b = host.states_at(frame), guest.states_at(frame)
        assert a.tobytes() == b.tobytes()  # every field's bits (padding is zeroed)
        assert a["at_rest"].all() and a["position"][0, 0] > 1.0  # they moved, then came to rest
        assert worlds[0].steps > frame and worlds[1].steps > frame
        assert guest.stats().catchup_frames > 0 and worlds[1].restores > 0  # re-simulated in Python


class Broken(Slides):
    def step(self, frame, inputs):
        raise ZeroDivisionError("the game's physics failed")


def test_an_exception_in_python_physics_reaches_the_caller_of_update():
    world = Broken(2)
    with shoal.Peer(shoal.PeerConfig(), world, shoal.MemoryNetwork().endpoint()) as peer:
        peer.host()
        with pytest.raises(ZeroDivisionError, match="the game's physics failed"):
            peer.update_at(1_000_000)
            peer.update_at(1_100_000)


def test_a_subclass_without_the_required_methods_is_refused_by_name():
    class Empty(shoal.Simulation):
        pass

    with pytest.raises(RuntimeError, match="body_count"):
        shoal.Peer(shoal.PeerConfig(), Empty(), shoal.MemoryNetwork().endpoint())
