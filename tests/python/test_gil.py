# SPDX-License-Identifier: MIT
"""The GIL: released in update(), wait() and the blocking calls, so that other Python threads run
meanwhile; taken back by every call into Python (a Python simulation, the log hook); and a peer
busy in one thread refuses another thread's call instead of racing it."""
import sys
import threading
import time

import pytest

import shoal


class Stamps:
    """A thread that notes the time whenever it gets to run, sleeping (GIL released) between."""

    def __init__(self):
        self.times: list[int] = []
        self.running = True
        self.started = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        while self.running:
            self.times.append(time.perf_counter_ns())
            self.started.set()
            time.sleep(0.0002)

    def __enter__(self):
        # The main thread keeps the GIL for five seconds unless a call releases it: the other
        # thread runs during a call only if that call lets it.
        self.interval = sys.getswitchinterval()
        sys.setswitchinterval(5.0)
        self.thread.start()
        assert self.started.wait(10), "the other thread never ran"
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join(5)
        sys.setswitchinterval(self.interval)

    def during(self, call) -> int:
        """How many times the thread ran while `call` ran."""
        start = time.perf_counter_ns()
        call()
        end = time.perf_counter_ns()
        return sum(1 for t in self.times if start < t < end)


def busy_world(bodies: int = 1500) -> shoal.ReferencePhysics:
    """Many falling spheres: every step costs milliseconds."""
    world = shoal.ReferencePhysics(shoal.ReferencePhysicsConfig(allow_sleep=False))
    for i in range(bodies):
        world.add_sphere(i + 1, 0.3, 1.0, shoal.ObjectState(position=(i % 40 - 20, 1 + i // 40, 0)))
    return world


def test_update_releases_the_gil_and_a_call_that_keeps_it_lets_no_other_thread_run():
    world = busy_world()
    with shoal.Peer(shoal.PeerConfig(max_clock_catchup_frames=8), world, shoal.MemoryNetwork().endpoint()) as peer:
        peer.host()
        peer.update_at(1_000_000)
        with Stamps() as stamps:
            updates = [stamps.during(lambda i=i: peer.update_at(1_000_000 + (i + 1) * 133_333)) for i in range(4)]
            # The control: a native call bound without releasing the GIL, as long as an update.
            held = [stamps.during(lambda: [world.step(1000 + k, []) for k in range(4)]) for _ in range(4)]
    assert min(updates) > 0, f"another thread ran during update() only {updates} times"
    assert max(held) == 0, f"the control let the other thread run {held} times: the measurement proves nothing"


def test_wait_and_blocking_lookups_release_the_gil():
    world = shoal.ReferencePhysics()
    world.add_sphere(1, 0.5, 1.0)
    with shoal.Peer(shoal.PeerConfig(), world, shoal.enet_transport(insecure=True)) as peer, \
         shoal.LanSeeker(shoal.LanDiscoveryConfig(port=47999, loopback_only=True)) as seeker:
        peer.host()
        with Stamps() as stamps:
            waits = stamps.during(lambda: peer.wait(60))  # nobody else: it waits the whole 60 ms
            finds = stamps.during(lambda: seeker.find("nobody-announces-this", 60))
    assert waits > 0 and finds > 0


def test_callbacks_into_python_run_on_the_calling_thread_with_the_gil():
    seen = []

    class Counting(shoal.Simulation):
        def __init__(self):
            super().__init__()
            self.state = shoal.ObjectState(position=(0, 1, 0))

        def step(self, frame, inputs):
            seen.append(threading.get_ident())

        def body_count(self):
            return 1

        def body_id(self, body):
            return 1

        def bounding_radius(self, body):
            return 1.0

        def read(self, body):
            return self.state

        def write(self, body, state):
            self.state = state

    with shoal.Peer(shoal.PeerConfig(), Counting(), shoal.MemoryNetwork().endpoint()) as peer:
        peer.host()
        with Stamps():
            peer.update_at(1_000_000)
            peer.update_at(1_100_000)
    assert seen and set(seen) == {threading.get_ident()}


def test_a_peer_busy_in_another_thread_refuses_a_call_instead_of_racing_it():
    world = shoal.ReferencePhysics()
    world.add_sphere(1, 0.5, 1.0)
    with shoal.Peer(shoal.PeerConfig(), world, shoal.enet_transport(insecure=True)) as peer:
        peer.host()
        waiting = threading.Thread(target=peer.wait, args=(400,))
        waiting.start()
        refused = None
        deadline = time.monotonic() + 2
        while refused is None and time.monotonic() < deadline and waiting.is_alive():
            try:
                peer.state(1)
            except shoal.StateError as error:
                refused = error
            time.sleep(0.001)
        waiting.join()
        assert refused is not None and "another thread is in this peer's update(), wait() or leave()" in str(refused)
        assert peer.state(1).position.y == 0  # free again once the other thread's call returned
