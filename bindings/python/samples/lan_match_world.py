# SPDX-License-Identifier: MIT
"""What a Python peer of a shoal-lan-match match shares with the C++ peers (samples/lan_match):

- the arena: one ball per player on a ring and the shared objects in a grid, built exactly as
  arena.cpp builds it, so that every peer holds the same bits (a recording of it names the
  same world, "shoal-lan-match peers=N objects=K physics=reference", which shoal-replay builds);
- the timeline (timeline.hpp): when bots stop, which frames are sampled and compared;
- the report lines a peer prints for the launcher (peer_report.hpp), which the launcher judges
  with the same verdict as every other peer's.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

import shoal

FIRST_BALL = 1
FIRST_OBJECT = 100  # above the largest ball id (16 peers)
_f32 = np.float32
SPACING = _f32(1.5)      # between grid neighbours (m)
OBJECT_SIZE = _f32(0.4)  # sphere radius, box half edge (m)
BALL_RADIUS = _f32(0.5)
MARGIN = _f32(5)         # room between the grid and the walls (m)


def _ring_cos_sin(angle: np.float32) -> tuple[np.float32, np.float32]:
    """cos and sin of a ring angle (0..2 pi) as arena.cpp computes them, with IEEE arithmetic only
    (the C libraries' cosf and sinf differ in the last bit between systems, and a ball one bit off
    is another world): brought within pi/4 of a multiple of pi/2, the Taylor series in double,
    rounded to float once."""
    half_pi_high = 1.57079632673412561417e+00  # pi/2 to 33 bits
    half_pi_low = 6.07710050650619224932e-11   # the rest of pi/2
    quadrants = round(float(angle) / 1.5707963267948966)  # halves to even, as nearbyint
    r = (float(angle) - quadrants * half_pi_high) - quadrants * half_pi_low
    r2 = r * r
    sine, cosine, sine_term, cosine_term = 0.0, 0.0, r, 1.0
    for n in range(1, 22, 2):  # r^n / n! and r^(n-1) / (n-1)!
        sine += sine_term
        cosine += cosine_term
        sine_term *= -r2 / ((n + 1) * (n + 2))
        cosine_term *= -r2 / (n * (n + 1))
    c, s = {0: (cosine, sine), 1: (-sine, cosine), 2: (-cosine, -sine), 3: (sine, -cosine)}[quadrants & 3]
    return _f32(c), _f32(s)


@dataclass(frozen=True)
class Arena:
    balls: int
    objects: int

    @property
    def side(self) -> int:
        return int(math.ceil(np.sqrt(_f32(self.objects))))

    @property
    def grid_half_width(self) -> np.float32:
        return _f32(_f32(self.side - 1) * SPACING) * _f32(0.5)

    @property
    def half_extent(self) -> float:
        """Walls at x, z = +-half_extent (m)."""
        return float(self.grid_half_width + MARGIN)

    def ball_of(self, peer: int) -> int:
        """The ball peer `peer` drives."""
        return FIRST_BALL + peer % self.balls

    def bodies(self) -> list[int]:
        """Every body's id, balls first, in the order build() adds them."""
        return [FIRST_BALL + p for p in range(self.balls)] + [FIRST_OBJECT + i for i in range(self.objects)]

    def describe(self) -> bytes:
        """The world's description in a recording, as shoal-lan-match writes it."""
        return f"shoal-lan-match peers={self.balls} objects={self.objects} physics=reference".encode()

    def build(self) -> shoal.ReferencePhysics:
        """The arena on the reference physics, the same bits as arena.cpp's."""
        world = shoal.ReferencePhysics(shoal.ReferencePhysicsConfig(
            arena_half_x=self.half_extent, arena_half_z=self.half_extent,
            linear_damping=0.6, angular_damping=0.6))  # at rest within seconds of the bots stopping
        ring = _f32(self.grid_half_width + MARGIN * _f32(0.5))
        for p in range(self.balls):
            angle = _f32(_f32(6.2831853) * _f32(p)) / _f32(self.balls)
            cosine, sine = _ring_cos_sin(angle)
            x = _f32(cosine * ring)
            z = _f32(sine * ring)
            world.add_sphere(FIRST_BALL + p, float(BALL_RADIUS), 2.0,
                             shoal.ObjectState(position=(float(x), float(BALL_RADIUS), float(z))))
        half = self.grid_half_width
        for i in range(self.objects):
            x = _f32(_f32(i % self.side) * SPACING) - half
            z = _f32(_f32(i // self.side) * SPACING) - half
            state = shoal.ObjectState(position=(float(x), float(OBJECT_SIZE), float(z)), at_rest=True)
            size = float(OBJECT_SIZE)
            if i % 2 == 0:
                world.add_sphere(FIRST_OBJECT + i, size, 1.0, state)
            else:
                world.add_box(FIRST_OBJECT + i, (size, size, size), 1.0, state)
        return world

    @staticmethod
    def from_description(words: bytes) -> Arena | None:
        """The arena a recording describes, or None for another world."""
        parts = words.decode(errors="replace").split()
        if parts[:1] != ["shoal-lan-match"]:
            return None
        fields = dict(part.split("=", 1) for part in parts[1:] if "=" in part)
        if fields.get("physics", "reference") != "reference" or "peers" not in fields or "objects" not in fields:
            return None
        return Arena(int(fields["peers"]), int(fields["objects"]))


@dataclass(frozen=True)
class Timeline:
    """The frames a match is organised by (timeline.hpp), for matches without projectiles."""
    tick_hz: float
    sample_interval: int
    bots_stop: int
    compare: int
    settle_checks: int = 3
    report_delay: int = 20  # a peer reports frame F once this far past it

    @staticmethod
    def of(seconds: float, settle_seconds: float, tick_hz: float = 60.0) -> Timeline:
        def frame_at(s: float) -> int:
            return int(math.floor(s * tick_hz + 0.5))  # std::lround, for these positive values
        interval = frame_at(1)
        settled = frame_at(seconds + settle_seconds)
        compare = (settled + interval - 1) // interval * interval
        return Timeline(tick_hz, interval, frame_at(seconds), compare)

    @property
    def final_frame(self) -> int:
        return self.compare + self.settle_checks * self.sample_interval

    def seconds_at(self, frame: int) -> float:
        return frame / self.tick_hz

class Bot:
    """Steers its ball into a randomly chosen shared object, picking another every two to four
    seconds, so that balls cross the arena, meet and hand objects over (as bot.cpp does)."""

    def __init__(self, seed: int, arena: Arena, tick_hz: float):
        self.random = random.Random(seed)
        self.arena = arena
        self.tick_hz = tick_hz
        self.target = arena.bodies()[arena.balls]
        self.next_pick = 0

    def input(self, peer: shoal.Peer, ball: int) -> shoal.Input:
        if peer.frame >= self.next_pick:
            self.target = self.arena.bodies()[self.arena.balls + self.random.randrange(self.arena.objects)]
            self.next_pick = peer.frame + self.random.randint(int(2 * self.tick_hz), int(4 * self.tick_hz))
        to = peer.state(self.target).position
        at = peer.state(ball).position
        dx, dz = to.x - at.x, to.z - at.z
        length = (dx * dx + dz * dz) ** 0.5
        return shoal.Input(axis=(dx / length, 0, dz / length) if length > 0 else (0, 0, 0))


def _number(value: float) -> str:
    # A float32 read as a Python float prints in a form that reads back (strtof) to the same bits.
    return repr(float(value))


def _pose(record) -> str:
    if math.isnan(record["position"][0]):
        return " -"
    numbers = [*record["position"], *record["orientation"], *record["linear_velocity"], *record["angular_velocity"]]
    return " " + " ".join(_number(v) for v in numbers) + (" 1" if record["at_rest"] else " 0")


class ReportWriter:
    """Writes a peer's report lines (peer_report.hpp) to a stream, one flush per message."""

    def __init__(self, out):
        self.out = out

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def phase(self, progress: shoal.JoinProgress) -> None:
        self._write(f"phase step={progress.step.name} done={progress.done} needed={progress.needed} "
                    f"elapsed_ms={progress.elapsed_ms}\n")

    def joined(self, peer: int, address: shoal.Address) -> None:
        self._write(f"joined peer={peer} address={address}\n")

    def reowned(self, dead: int, at_us: int) -> None:
        self._write(f"reowned peer={dead} at_us={at_us}\n")

    def error(self, message: str) -> None:
        self._write(f"error {message}\n")

    def sample(self, final: bool, frame: int, figures: dict, states, diagnoses=()) -> None:
        """`states`: a STATE_DTYPE array in Arena.bodies() order (NaN rows: unknown);
        `diagnoses`: one ObjectDiagnosis per body for the final sample, or none."""
        f = figures
        lines = [f"sample final={int(final)} frame={frame} peer={f['peer']} peers={f['peers']} "
                 f"rtt_ms={_number(f['rtt_ms'])} loss={_number(f['loss'])} kbps_out={_number(f['kbps_out'])} "
                 f"kbps_in={_number(f['kbps_in'])} overrides={f['overrides']} catchup_frames={f['catchup_frames']} "
                 f"ownership_changes={f['ownership_changes']} owned_objects={f['owned_objects']} "
                 f"frozen_objects={f['frozen_objects']} desyncs={f['desyncs']} join_ms={f['join_ms']} "
                 f"pace={_number(f['pace'])} cpu_ms={f['cpu_ms']} spawned={f['spawned']} removed={f['removed']} "
                 f"live=0 bad_spawn={f['bad_spawn']} over_limit={f['over_limit']} bodies={len(states)} "
                 f"spawned_states=0 diagnoses={len(diagnoses)}"]
        lines += ["pose" + _pose(record) for record in states]
        for d in diagnoses:
            said = "-"
            if d.owner_said:
                p = d.owner_said_state.position
                said = f"{d.owner_said_frame}:{_number(p.x)},{_number(p.y)},{_number(p.z)},{int(d.owner_said_state.at_rest)}"
            history = ",".join(f"{e.frame}:{e.owner}:{e.sequence}:{e.author}:{e.applied_at}" for e in d.ownership) or "-"
            lines.append(f"diag owner={d.owner} frozen={int(d.frozen)} confirmed={int(d.confirmed)} "
                         f"owner_frame={d.last_owner_frame}@{d.last_owner_frame_at} overrides={d.overrides} "
                         f"said={said} history={history}")
        self._write("\n".join(lines) + "\n")
