# SPDX-License-Identifier: MIT
"""Type stubs of the module shoal (bindings/python): what editors and type checkers see.
tests/python/test_api_coverage.py checks that every public name of the module is here."""
import builtins
from typing import Any, Callable, ClassVar, Iterator, Self, Sequence, overload

import numpy as np
import numpy.typing as npt

Buffer = bytes | bytearray | memoryview

__version__: str

class Error(Exception):
    """Base of every error Shoal raises; the message is Shoal's own."""
class Histogram:
    """A distribution of measured values as counts per bucket (PeerStats' latency and visual correction)."""
    @property
    def counts(self) -> list[int]:
        """values counted per bucket: [i * width, (i + 1) * width), the last open-ended"""
    @property
    def max(self) -> float:
        """the largest value counted (0 when none)"""
    def percentile(self, p: float) -> float:
        """the value at or below which a fraction p (0..1) of the values lie (its bucket's upper edge); 0 when empty"""
    def since(self, earlier: Histogram) -> Histogram:
        """the values counted since earlier (this histogram as it was then)"""
    @property
    def total(self) -> int:
        """values counted"""
    def upper_edge(self, bucket: int) -> float:
        """the largest value a bucket can hold, as far as is known"""
    @property
    def width(self) -> float:
        """of each bucket, in the values' unit"""

class InvalidArgument(Error, ValueError):
    """A wrong argument or config value: the message names the field, the value and what is expected."""
class StateError(Error, RuntimeError):
    """A call at the wrong time (before the match, after it, on an object another peer owns, on a closed peer)."""
class OperationError(Error, RuntimeError):
    """Something outside failed: a port that cannot be bound, a file that cannot be read or written, a limit reached."""

STATE_DTYPE: np.dtype[np.void]
"""id u4, position 3f4, orientation 4f4 (w, x, y, z), linear_velocity 3f4, angular_velocity 3f4, at_rest bool"""
VISUAL_DTYPE: np.dtype[np.void]
"""id u4, position 3f4, orientation 4f4 (w, x, y, z)"""

def enet_transport(config: TransportConfig | None = None, *, credentials: Credentials | None = None,
                   insecure: bool = False, **fields: Any) -> Transport:
    """An ENet transport over UDP: config (or a default TransportConfig) with any of its fields as keywords;
    credentials from SessionAuthority.invite(), or insecure=True to send in the clear."""

NO_PEER: int
NO_FRAME: int
MAX_INPUT_BYTES: int
MAX_USER_BYTES: int
MAX_SPAWN_BYTES: int
SPAWNED_ID_BIT: int
MAX_RELIABLE_MESSAGE_BYTES: int
MAX_UNRELIABLE_MESSAGE_BYTES: int
RELAY_HOST_SLOT: int

class Address:
    """Where a transport listens or connects: a host name or IPv4 address and a UDP port."""
    def __eq__(self, other: builtins.object) -> bool: ...
    @overload
    def __init__(self, host: str, port: int) -> None: ...
    @overload
    def __init__(self, pair: tuple) -> None: ...
    @overload
    def __init__(self, text: str) -> None: ...
    @overload
    def __init__(self, *, host: str = ..., port: int = ...) -> None: ...
    host: str
    """numeric IPv4 address or host name"""
    port: int
    """UDP port; 0 = any free one when binding"""

class AuthorityConfig:
    """Core and simulated regions, and how ownership claims are rate-limited."""
    T: float
    """velocity horizon (s): the core radius is max(r_min, |v| * T)"""
    T_predict: float
    """collision prediction horizon (s)"""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, r_min: float = ..., T: float = ..., T_predict: float = ..., hysteresis: float = ..., simulated_radius: float = ..., max_owner_changes_per_second: float = ..., default_owner: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    default_owner: int
    """owner of what no core holds; NO_PEER = the lowest live id"""
    hysteresis: float
    """how much farther out a member may go before it leaves a region (m)"""
    max_owner_changes_per_second: float
    """per object"""
    r_min: float
    """smallest core radius around a controlled object (m)"""
    simulated_radius: float
    """extra radius of the simulated region (m)"""

class BodyInput:
    """The input of one controlled body for one frame (Simulation.step gets a list)."""
    @property
    def body(self) -> int:
        """the body's index in the simulation"""
    @property
    def input(self) -> Input:
        """its input for the frame"""

class CatchupScope:
    """What a catch-up re-simulates."""
    region: ClassVar[CatchupScope]
    object: ClassVar[CatchupScope]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, CatchupScope]]

class Channel:
    """A transport's channels, by purpose."""
    control: ClassVar[Channel]
    state: ClassVar[Channel]
    time: ClassVar[Channel]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, Channel]]

class CompareTolerance:
    """When an owner frame differs enough to override this peer's own."""
    def __init__(self, *, exact: bool = ..., position_m: float = ..., rotation_rad: float = ..., linear_velocity_mps: float = ..., angular_velocity_radps: float = ..., tolerated_frames: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    angular_velocity_radps: float
    """angular velocity difference tolerated"""
    exact: bool
    """bitwise for every frame; else the tolerances below while moving"""
    linear_velocity_mps: float
    """linear velocity difference tolerated"""
    position_m: float
    """position difference tolerated while moving"""
    rotation_rad: float
    """orientation difference tolerated while moving"""
    tolerated_frames: int
    """frames a difference within tolerance may stand before it is caught up on by itself (>= 1)"""

class ConditionerConfig:
    """The simulated network of one endpoint, both directions."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, outbound: LinkConditions = ..., inbound: LinkConditions = ..., seed: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    inbound: LinkConditions
    """what this endpoint receives"""
    outbound: LinkConditions
    """what this endpoint sends"""
    seed: int
    """the same seed replays the same impairments"""

class ControlMode:
    """Whether an object is driven by a player or only by physics."""
    uncontrolled: ClassVar[ControlMode]
    controlled: ClassVar[ControlMode]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, ControlMode]]

class Credentials:
    """What one invited peer needs to join a secure session (SessionAuthority.invite). Secret."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self) -> None: ...
    @property
    def empty(self) -> bool:
        """whether there are none"""
    @property
    def expires_unix_s(self) -> int:
        """when the token expires"""
    @staticmethod
    def from_text(text: str) -> Credentials | None:
        """"""
    @property
    def peer_key(self) -> bytes:
        """the key the token names (32 bytes): what SessionAuthority.revoke takes"""
    @property
    def session(self) -> str:
        """the session the token names"""
    @property
    def single_use(self) -> bool:
        """whether the invitation admits one peer only"""
    def to_text(self) -> str:
        """Printable form (hexadecimal)."""

class Delivery:
    """How a game message travels (Peer.send_message)."""
    reliable: ClassVar[Delivery]
    unreliable: ClassVar[Delivery]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, Delivery]]

class DropCounters:
    """Counts of dropped input, one per DropReason."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __getitem__(self, reason: DropReason) -> int: ...
    def to_dict(self) -> dict:
        """{reason name: count} for every reason"""
    def total(self) -> int:
        """the sum over every reason"""

class DropReason:
    """Why an incoming datagram or message was dropped."""
    bad_magic: ClassVar[DropReason]
    unsupported_version: ClassVar[DropReason]
    unknown_kind: ClassVar[DropReason]
    truncated: ClassVar[DropReason]
    oversize: ClassVar[DropReason]
    malformed: ClassVar[DropReason]
    stale: ClassVar[DropReason]
    not_owner: ClassVar[DropReason]
    no_token: ClassVar[DropReason]
    bad_token: ClassVar[DropReason]
    token_expired: ClassVar[DropReason]
    wrong_session: ClassVar[DropReason]
    forged: ClassVar[DropReason]
    replayed: ClassVar[DropReason]
    bad_spawn: ClassVar[DropReason]
    over_limit: ClassVar[DropReason]
    revoked: ClassVar[DropReason]
    invitation_used: ClassVar[DropReason]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, DropReason]]

class Event:
    """Something the game may want to know (Peer.poll_event); which fields mean something depends on kind."""
    @property
    def bytes(self) -> bytes:
        """message only: what the sender sent"""
    @property
    def depth(self) -> int:
        """override_applied: how many frames back the correction reached"""
    @property
    def diagnoses(self) -> list[ObjectDiagnosis]:
        """desync only: what this peer knows of each of objects"""
    @property
    def failure(self) -> JoinFailure:
        """join_failed only"""
    @property
    def frame(self) -> int:
        """the frame concerned, or NO_FRAME"""
    @property
    def kind(self) -> EventKind:
        """what happened"""
    @property
    def object(self) -> int:
        """the object concerned, or 0"""
    @property
    def objects(self) -> list[int]:
        """desync only"""
    @property
    def peer(self) -> int:
        """the peer concerned, or NO_PEER"""
    @property
    def reason(self) -> str:
        """join_failed (incompatible, refused), incompatible_peer and kicked: why"""
    @property
    def reliable(self) -> bool:
        """message only: sent with Delivery.reliable"""
    @property
    def step(self) -> JoinStep:
        """join_failed only"""

class EventKind:
    """What happened (Event.kind)."""
    joined_match: ClassVar[EventKind]
    peer_joined: ClassVar[EventKind]
    peer_left: ClassVar[EventKind]
    peer_lost: ClassVar[EventKind]
    peer_rejoined: ClassVar[EventKind]
    ownership_changed: ClassVar[EventKind]
    override_applied: ClassVar[EventKind]
    snapped: ClassVar[EventKind]
    desync: ClassVar[EventKind]
    join_failed: ClassVar[EventKind]
    incompatible_peer: ClassVar[EventKind]
    message: ClassVar[EventKind]
    kicked: ClassVar[EventKind]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, EventKind]]

class HybridConfig:
    """A hybrid transport: direct ENet where possible, the relay where not."""
    def __init__(self, *, relay: RelayClientConfig = ..., direct: TransportConfig = ..., direct_timeout_ms: int = ..., direct_retry_ms: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    direct: TransportConfig
    """the one socket"""
    direct_retry_ms: int
    """while on the relay, try direct again this often"""
    direct_timeout_ms: int
    """no direct connection within this: use the relay"""
    relay: RelayClientConfig
    """the fallback (its local socket is the direct one)"""

class Input:
    """One frame of a player's input for the object it controls. The reference physics pushes along `axis` (x and z, length up to 1); `buttons` and `bytes` are the game's."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, axis: Vec3 | Sequence[float] = ..., buttons: int = ..., bytes: bytes = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    axis: Vec3
    """a push direction or stick, the game's meaning"""
    buttons: int
    """button bits, the game's meaning"""
    bytes: bytes
    """the game's own input: up to MAX_INPUT_BYTES bytes (read back padded with zeros); only the first SnapshotConfig.input_bytes travel, the rest must be 0"""

class JoinFailure:
    """Why a join failed."""
    none: ClassVar[JoinFailure]
    no_answer: ClassVar[JoinFailure]
    refused: ClassVar[JoinFailure]
    host_lost: ClassVar[JoinFailure]
    incompatible: ClassVar[JoinFailure]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, JoinFailure]]

class InvitationUse:
    """How many peers one invitation admits (SessionAuthority.invite)."""
    reusable: ClassVar[InvitationUse]
    single_use: ClassVar[InvitationUse]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, InvitationUse]]

class JoinProgress:
    """How far joining has come."""
    @property
    def done(self) -> int:
        """the current step's progress, when it counts something"""
    @property
    def elapsed_ms(self) -> int:
        """from the first update after join() (or host()) until joined"""
    @property
    def needed(self) -> int:
        """see done"""
    @property
    def step(self) -> JoinStep:
        """the step the peer is in"""

class JoinStep:
    """The step of joining a peer is in (Peer.join_progress)."""
    idle: ClassVar[JoinStep]
    connecting: ClassVar[JoinStep]
    meshing: ClassVar[JoinStep]
    syncing: ClassVar[JoinStep]
    baselines: ClassVar[JoinStep]
    joined: ClassVar[JoinStep]
    failed: ClassVar[JoinStep]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, JoinStep]]

class LanAnnouncer:
    """Broadcasts one session (call update() every frame). A context manager."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *args: builtins.object) -> None: ...
    def __init__(self, config: LanDiscoveryConfig, session: str, address: Address) -> None: ...
    def close(self) -> None:
        """Stops announcing and closes the socket."""
    def stats(self) -> LanDiscoveryStats:
        """What it has sent so far."""
    def update(self) -> None:
        """Sends the announcement when the interval has passed."""

class LanDiscoveryConfig:
    """Where and how often LAN sessions are announced."""
    def __init__(self, *, port: int = ..., announce_interval_ms: int = ..., loopback_only: bool = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    announce_interval_ms: int
    """time between announcements, 10..10000"""
    loopback_only: bool
    """announce to 127.255.255.255 only (this machine)"""
    port: int
    """UDP port announcements go to, 1..65535"""

class LanDiscoveryStats:
    """What an announcer or a seeker has sent, heard and dropped."""
    @property
    def dropped(self) -> DropCounters:
        """garbage, wrong version, truncated...: by reason"""
    @property
    def other_sessions(self) -> int:
        """well-formed announcements of another session"""
    @property
    def received(self) -> int:
        """datagrams heard on the discovery port"""
    @property
    def sent(self) -> int:
        """announcement datagrams sent"""

class LanSeeker:
    """Listens on the discovery port for sessions. A context manager."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *args: builtins.object) -> None: ...
    def __init__(self, config: LanDiscoveryConfig = ...) -> None: ...
    def close(self) -> None:
        """Closes the socket."""
    def find(self, session: str, timeout_ms: int) -> LanSession | None:
        """Waits (without the GIL) up to timeout_ms for a matching announcement."""
    def poll(self, session: str) -> LanSession | None:
        """The first matching announcement that arrived, or None, without blocking."""
    def stats(self) -> LanDiscoveryStats:
        """What it has heard and dropped so far."""

class LanSession:
    """One heard announcement."""
    @property
    def address(self) -> Address:
        """where the host's transport listens"""
    @property
    def protocol_version(self) -> int:
        """the announcing build's"""
    @property
    def session(self) -> str:
        """the session's name"""

class LinkConditions:
    """Impairments of one direction of a link, from the seeded link conditioner."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, latency_ms: float = ..., jitter_ms: float = ..., loss: float = ..., duplicate: float = ..., reorder: float = ..., bandwidth_bytes_per_s: int = ..., queue_limit_bytes: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    bandwidth_bytes_per_s: int
    """0 = unlimited"""
    duplicate: float
    """fraction of datagrams delivered twice"""
    jitter_ms: float
    """uniform +- around latency"""
    latency_ms: float
    """one-way delay added to every datagram"""
    loss: float
    """fraction of datagrams dropped, 0..1"""
    queue_limit_bytes: int
    """over the bandwidth cap, the queue drops past this"""
    reorder: float
    """fraction of datagrams held back behind later ones"""

class LinkStats:
    """Per-connection statistics, smoothed over roughly the last second."""
    @property
    def bytes_in_per_s(self) -> float:
        """UDP payload bytes received per second"""
    @property
    def bytes_out_per_s(self) -> float:
        """UDP payload bytes sent per second, transport headers included"""
    @property
    def packet_loss(self) -> float:
        """fraction lost, 0..1"""
    @property
    def packets_in_per_s(self) -> float:
        """datagrams received per second"""
    @property
    def packets_out_per_s(self) -> float:
        """datagrams sent per second"""
    @property
    def rtt_ms(self) -> float:
        """round-trip time"""
    @property
    def rtt_variance_ms(self) -> float:
        """its variation"""

class LogConfig:
    """Where a peer's log lines go: callback(level, text) is called from inside the peer's calls, with the GIL held; an exception it raises goes to sys.unraisablehook."""
    def __init__(self, *, callback: Callable[[LogLevel, str], None] | None = ..., level: LogLevel = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    callback: Callable[[LogLevel, str], None] | None
    """callable(level: LogLevel, text: str), or None (the default: nothing is formatted)"""
    level: LogLevel
    """the least level passed to the callback"""

class LogLevel:
    """How much a log line matters."""
    debug: ClassVar[LogLevel]
    info: ClassVar[LogLevel]
    warn: ClassVar[LogLevel]
    error: ClassVar[LogLevel]
    off: ClassVar[LogLevel]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, LogLevel]]

class MemoryNetwork:
    """An in-process network whose clock and delivery the caller controls: endpoints exchange datagrams without sockets, impaired the same way on every run of one seed. Drive its peers with Peer.update_at(network.time_us)."""
    def __init__(self, seed: int = 1) -> None: ...
    def crash(self, port: int) -> None:
        """Makes an endpoint fall silent as if its process crashed."""
    def endpoint(self, port: int = 0, timeout_ms: int = 5000) -> Transport:
        """A new endpoint at 'mem:<port>' (0: the next free port)."""
    def set_blocked(self, port_a: int, port_b: int, blocked: bool) -> None:
        """Cuts (or restores) both directions between two endpoints."""
    @overload
    def set_conditions(self, conditions: LinkConditions) -> None: ...
    @overload
    def set_conditions(self, from_port: int, to_port: int, conditions: LinkConditions) -> None: ...
    def set_time_us(self, now_us: int) -> None:
        """Sets the network's clock."""
    time_us: int
    """the network's clock, microseconds"""

class MessageConfig:
    """Limits of game messages, sent and received (Peer.send_message)."""
    def __init__(self, *, max_message_bytes: int = ..., max_bytes_per_second: int = ..., max_messages_per_second: int = ..., max_queued: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    max_bytes_per_second: int
    """bytes one peer may send per second"""
    max_message_bytes: int
    """the most bytes one message may carry"""
    max_messages_per_second: int
    """messages one peer may send per second"""
    max_queued: int
    """messages from one peer waiting for poll_event, 1..4096"""

class ObjectDiagnosis:
    """What one peer knows of one object at one frame (Peer.diagnose)."""
    @property
    def confirmed(self) -> bool:
        """and it is its owner's own state"""
    @property
    def frame(self) -> int:
        """the frame asked about"""
    @property
    def frozen(self) -> bool:
        """left out of this peer's last step"""
    @property
    def held(self) -> bool:
        """that frame is still in this peer's history"""
    @property
    def last_owner_frame(self) -> int:
        """the newest owner frame of it taken in"""
    @property
    def last_owner_frame_at(self) -> int:
        """this peer's newest frame then"""
    @property
    def object(self) -> int:
        """the object asked about"""
    @property
    def overrides(self) -> int:
        """owner frames of it that differed from this peer's own"""
    @property
    def owner(self) -> int:
        """now"""
    @property
    def owner_said(self) -> bool:
        """whether its owner's last word is known"""
    @property
    def owner_said_frame(self) -> int:
        """the frame of owner_said_state"""
    @property
    def owner_said_state(self) -> ObjectState:
        """the owner's last state of it, as received"""
    @property
    def ownership(self) -> list[OwnershipHistoryEntry]:
        """the last changes of its owner seen here, oldest first"""
    @property
    def state(self) -> ObjectState:
        """at frame, when held"""

class ObjectState:
    """The state of one object at one frame."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, position: Vec3 | Sequence[float] = ..., orientation: Quat | Sequence[float] = ..., linear_velocity: Vec3 | Sequence[float] = ..., angular_velocity: Vec3 | Sequence[float] = ..., at_rest: bool = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    angular_velocity: Vec3
    """rad/s, world frame"""
    at_rest: bool
    """asleep: velocities are zero and the body does not move on its own"""
    linear_velocity: Vec3
    """m/s"""
    orientation: Quat
    """unit quaternion, body to world"""
    position: Vec3
    """metres, world frame"""

class OwnershipHistoryEntry:
    """One change of an object's owner, as this peer applied it."""
    def __eq__(self, other: builtins.object) -> bool: ...
    @property
    def applied_at(self) -> int:
        """this peer's newest frame when it applied it"""
    @property
    def author(self) -> int:
        """who made the change"""
    @property
    def frame(self) -> int:
        """the frame from which the new owner's state counts"""
    @property
    def owner(self) -> int:
        """the new owner"""
    @property
    def sequence(self) -> int:
        """the object's change counter"""

class PaceConfig:
    """Slowing the match's timeline while a peer cannot keep up."""
    def __init__(self, *, enabled: bool = ..., min_rate: float = ..., lag_frames: int = ..., decrease: float = ..., increase: float = ..., interval_ms: int = ..., recover_ms: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    decrease: float
    """the rate is multiplied by this while someone lags, (0, 1)"""
    enabled: bool
    """False: the timeline always runs at tick_hz"""
    increase: float
    """and raised by this once nobody lagged for recover_ms, (0, 1]"""
    interval_ms: int
    """how often the rate may change, >= 1"""
    lag_frames: int
    """frames due and not simulated that count as lagging, >= 1"""
    min_rate: float
    """the slowest the match may run, as a fraction of tick_hz, (0, 1]"""
    recover_ms: int
    """how long nobody must lag before the match speeds up, >= 1"""

class Path:
    """Which way a hybrid connection's messages go."""
    none: ClassVar[Path]
    direct: ClassVar[Path]
    relay: ClassVar[Path]
    def __init__(self, value: int) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: builtins.object) -> bool: ...
    def __int__(self) -> int: ...
    __members__: ClassVar[dict[str, Path]]

class Peer:
    """One player's end of a match: hosts or joins, steps the shared world, sends what it owns and corrects what others own. Peer(config, simulation, transport) takes the transport; the simulation must hold the same bodies on every peer. A context manager: `with shoal.Peer(...) as peer:` leaves the match on exit."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *args: builtins.object) -> None: ...
    def __init__(self, config: PeerConfig, simulation: Simulation, transport: Transport) -> None:
        """Raises InvalidArgument naming the field when the config is wrong (the transport is closed then)."""
    @property
    def address(self) -> Address:
        """where other peers reach this one"""
    @property
    def body_ids(self) -> npt.NDArray[np.uint32]:
        """the simulation's fixed bodies' ids, in its order (a uint32 array)"""
    def close(self) -> None:
        """Leaves the match (when in it) and frees the peer and its transport."""
    @property
    def closed(self) -> bool:
        """whether close() was called (or the replay moved on)"""
    def diagnose(self, object: int, frame: int) -> ObjectDiagnosis:
        """What this peer knows of the object at frame: for finding out why peers disagree."""
    def events(self) -> list:
        """Every event waiting, oldest first (a list: `for event in peer.events():`)."""
    @property
    def frame(self) -> int:
        """the newest frame simulated (NO_FRAME before the match)"""
    def host(self) -> None:
        """Starts a match as its host (peer 0)."""
    @property
    def id(self) -> int:
        """this peer's id (NO_PEER until hosted or joined)"""
    @property
    def in_match(self) -> bool:
        """hosting, or joined and synchronised"""
    def join(self, host: Address) -> None:
        """Joins the match hosted at `host` (an Address, a (host, port) pair or 'host:port')."""
    @property
    def join_progress(self) -> JoinProgress:
        """which step of joining the peer is in"""
    def kick(self, member: int, authority: SessionAuthority, reason: str) -> None:
        """Throws member out of the session for good: its invitation revoked on every member (kick and ban)."""
    def leave(self) -> None:
        """Leaves the match gracefully (blocks up to 250 ms, without the GIL)."""
    def owner(self, object: int) -> int:
        """The object's owner now (NO_PEER before the match)."""
    def owners(self, ids: Sequence[int] | npt.NDArray[Any] | None = None) -> npt.NDArray[np.uint16]:
        """Every body's owner now: a uint16 array (NO_PEER: none)."""
    @property
    def peers(self) -> list[int]:
        """live peers, self included, ascending"""
    def poll_event(self) -> Event | None:
        """The next event, or None."""
    def record(self, path: str, world: Buffer = b'') -> None:
        """Records everything that reaches this peer to `path` (before host() or join()), for Replay."""
    def remove(self, object: int) -> None:
        """Removes a spawned object this peer owns, on every peer."""
    def revoke(self, revocation: Revocation) -> None:
        """Applies a revocation by the session's authority (SessionAuthority.revoke)."""
    def send_message(self, to: int, data: Buffer, delivery: Delivery = ..., frame: int = -1) -> bool:
        """Sends a game message to peer `to` (NO_PEER: every other peer); False when over this peer's rate."""
    def set_conditions(self, conditions: ConditionerConfig) -> None:
        """Changes the transport's simulated network at run time."""
    def set_controlled(self, object: int) -> None:
        """The object the local player drives."""
    def set_input(self, input: Input) -> None:
        """Input for the frames simulated from now on, until changed."""
    def spawn(self, type: int, state: ObjectState, spawn_bytes: Buffer = b'') -> int:
        """Spawns an object of game-defined type; returns its id."""
    def spawned_object(self, object: int) -> SpawnedObject | None:
        """A live spawned object's type, spawner, frame and spawn bytes; None for any other id."""
    def spawned_objects(self) -> list[int]:
        """The spawned objects alive here, ascending id."""
    def state(self, object: int) -> ObjectState:
        """The simulation state at the newest frame."""
    def state_at(self, object: int, frame: int) -> ObjectState | None:
        """The state at a frame still held in the history, or None."""
    def states(self, ids: Sequence[int] | npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """Every body's state at the newest frame, one call: a STATE_DTYPE array (states['position'] is (N, 3))."""
    def states_at(self, frame: int, ids: Sequence[int] | npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """The states at a frame of the history; NaN (and at_rest False) where it is not held."""
    def stats(self) -> PeerStats:
        """Counters and link figures so far."""
    def update(self) -> None:
        """Runs the frames due by the steady clock, then refreshes visual states (without the GIL)."""
    def update_at(self, now_us: int) -> None:
        """The same at an explicit time (microseconds on any monotonic clock): tests and replays."""
    def visual(self, object: int) -> VisualState:
        """What to draw: the smoothed, render-interpolated state."""
    def visuals(self, ids: Sequence[int] | npt.NDArray[Any] | None = None) -> npt.NDArray[Any]:
        """What to draw for every body: a VISUAL_DTYPE array."""
    def wait(self, timeout_ms: int) -> None:
        """Blocks (without the GIL) until traffic arrives or timeout_ms pass."""

class PeerConfig:
    """Everything a Peer is configured with; the defaults suit a 60 Hz game. Fields that decide what every peer simulates (tick_hz, the snapshot encoding) must be equal on every peer."""
    def __init__(self, *, session: str = ..., tick_hz: float = ..., history_frames: int = ..., max_clock_catchup_frames: int = ..., max_resimulated_frames: int = ..., snapshot_interval_frames: int = ..., rest_snapshot_interval_frames: int = ..., input_redundancy: int = ..., input_delay_frames: int = ..., checksum_interval_frames: int = ..., ping_interval_ms: int = ..., rejoin_grace_ms: int = ..., join_timeout_ms: int = ..., compare: CompareTolerance = ..., snapshots: SnapshotConfig = ..., catchup: CatchupScope = ..., pace: PaceConfig = ..., freeze_outside_simulated_region: bool = ..., authority: AuthorityConfig = ..., smoothing: SmoothingRules = ..., spawning: SpawnConfig = ..., messages: MessageConfig = ..., log: LogConfig = ..., sync_test_frames: int = ..., measure_update_cost: bool = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    authority: AuthorityConfig
    """regions, ownership claims and hand-over"""
    catchup: CatchupScope
    """what a catch-up re-simulates"""
    checksum_interval_frames: int
    """0 disables desync detection"""
    compare: CompareTolerance
    """when an owner frame differs enough to override"""
    freeze_outside_simulated_region: bool
    """simulate only the simulated region; freeze the rest"""
    history_frames: int
    """how far back a correction can re-simulate"""
    input_delay_frames: int
    """frames between set_input and its frame, 0..16"""
    input_redundancy: int
    """past inputs carried by each snapshot"""
    join_timeout_ms: int
    """how long join() may take, 100..600000"""
    log: LogConfig
    """where log lines go"""
    max_clock_catchup_frames: int
    """frames one update may advance when behind"""
    max_resimulated_frames: int
    """catch-up work per update, in frames"""
    measure_update_cost: bool
    """time each phase of update() (PeerStats.cost)"""
    messages: MessageConfig
    """limits of game messages"""
    pace: PaceConfig
    """slowing the match while a peer cannot keep up"""
    ping_interval_ms: int
    """time sync pings"""
    rejoin_grace_ms: int
    """how long a timed-out peer keeps its id and objects"""
    rest_snapshot_interval_frames: int
    """resting objects this rarely"""
    session: str
    """peers join only a host of the same session name"""
    smoothing: SmoothingRules
    """how corrections are blended into what is drawn"""
    snapshot_interval_frames: int
    """owners send every N frames"""
    snapshots: SnapshotConfig
    """encoding, priority and byte budget"""
    spawning: SpawnConfig
    """limits of objects spawned during play"""
    sync_test_frames: int
    """roll back this many frames every frame and compare; 0 = off"""
    tick_hz: float
    """fixed steps per second, the same on every peer"""

class PeerStats:
    """What a Peer has done so far (Peer.stats())."""
    @property
    def baseline_misses(self) -> int:
        """deltas whose baseline was not held"""
    @property
    def catchup_frames(self) -> int:
        """frames re-simulated by catch-up"""
    @property
    def cost(self) -> UpdateCost:
        """where update() spent its time (when measured)"""
    @property
    def correction_latency_ms(self) -> Histogram:
        """ms from an owner stepping and sending a frame to this peer taking it in"""
    @property
    def desyncs(self) -> int:
        """checksums of confirmed frames that disagreed"""
    @property
    def dropped(self) -> DropCounters:
        """bad or unwanted packets, by reason"""
    @property
    def frame(self) -> int:
        """the newest frame simulated"""
    @property
    def frozen_objects(self) -> int:
        """left out of the last step"""
    @property
    def messages_queued(self) -> int:
        """game messages not taken by poll_event yet"""
    @property
    def messages_received(self) -> int:
        """game messages accepted"""
    @property
    def messages_sent(self) -> int:
        """game messages sent"""
    @property
    def objects_removed(self) -> int:
        """removals applied here"""
    @property
    def objects_spawned(self) -> int:
        """spawns applied here"""
    @property
    def overrides(self) -> int:
        """owner frames that replaced a differing own frame"""
    @property
    def owned_objects(self) -> int:
        """objects this peer owns now"""
    @property
    def ownership_changes(self) -> int:
        """ownership changes applied"""
    @property
    def pace(self) -> float:
        """how fast the match's timeline runs now, as a fraction of tick_hz"""
    @property
    def quantization_clamps(self) -> int:
        """state fields clamped to the snapshot bounds"""
    @property
    def remotes(self) -> list[RemotePeerStats]:
        """one entry per connected remote peer"""
    @property
    def rest_repairs_requested(self) -> int:
        """owners asked for a resting object's state"""
    @property
    def snaps(self) -> int:
        """corrections too old to re-simulate"""
    @property
    def snapshot_bytes_sent(self) -> int:
        """snapshot and ack bytes sent"""
    @property
    def snapshots_received(self) -> int:
        """snapshot datagrams received"""
    @property
    def snapshots_sent(self) -> int:
        """snapshot datagrams sent"""
    @property
    def tolerated(self) -> int:
        """owner frames that differed only within tolerance"""
    @property
    def visual_correction_mm(self) -> Histogram:
        """mm smoothing moved a drawn object in one frame beyond its simulated motion"""


class Quat:
    """A unit quaternion (w + xi + yj + zk), body to world. Any sequence of four numbers (w, x, y, z) converts to one."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __getitem__(self, arg0: int) -> float: ...
    @overload
    def __init__(self, w: float = 1.0, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> None: ...
    @overload
    def __init__(self, values: sequence) -> None: ...
    def __iter__(self) -> Iterator: ...
    def __len__(self) -> int: ...
    w: float
    """real part"""
    x: float
    """i component"""
    y: float
    """j component"""
    z: float
    """k component"""

class ReferencePhysics:
    """Shoal's built-in physics, native: spheres and boxes in a walled arena, deterministic and restorable bit for bit."""
    def __init__(self, config: ReferencePhysicsConfig = ...) -> None: ...
    def add_box(self, id: int, half_extents: Vec3, mass: float, state: ObjectState = ...) -> int:
        """Adds a box of these half extents and returns its body index."""
    def add_spawn_slots(self, count: int) -> int:
        """Reserves count empty spawn slots after the bodies; returns the first one's index."""
    def add_sphere(self, id: int, radius: float, mass: float, state: ObjectState = ...) -> int:
        """Adds a sphere (mass 0: static) and returns its body index."""
    @property
    def config(self) -> ReferencePhysicsConfig:
        """the world's config"""
    def contact_count(self) -> int:
        """contacts found in the last step"""
    def is_frozen(self, body: int) -> bool:
        """whether the body is left out of steps"""
    def is_static(self, body: int) -> bool:
        """whether the step never moves the body"""
    def set_body_type(self, body: int, type: int) -> None:
        """a game-defined body type"""
    def set_spawn_box(self, type: int, half_extents: Vec3, mass: float) -> None:
        """Declares the box add_body builds for type."""
    def set_spawn_sphere(self, type: int, radius: float, mass: float) -> None:
        """Declares the sphere add_body builds for type."""
    def set_user_bytes_size(self, type: int, size: int) -> None:
        """Gives every body of type this many user bytes (set it before building a Peer)."""
    def slot_filled(self, body: int) -> bool:
        """False for an empty spawn slot"""

class ReferencePhysicsConfig:
    """The reference physics' settings; ReferencePhysics checks each and raises InvalidArgument naming the field."""
    def __init__(self, *, dt: float = ..., gravity: Vec3 | Sequence[float] = ..., arena_half_x: float = ..., arena_half_z: float = ..., restitution: float = ..., friction: float = ..., linear_damping: float = ..., angular_damping: float = ..., solver_iterations: int = ..., allow_sleep: bool = ..., sleep_linear_speed: float = ..., sleep_angular_speed: float = ..., sleep_frames: int = ..., push_acceleration: float = ..., max_push_speed: float = ..., history_frames: int = ..., grid_cell_size: float = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    allow_sleep: bool
    """False: bodies never fall asleep on their own"""
    angular_damping: float
    """1/s"""
    arena_half_x: float
    """walls at x = +-arena_half_x (m)"""
    arena_half_z: float
    """walls at z = +-arena_half_z (m); ground at y = 0"""
    dt: float
    """seconds per step, (0, 1]"""
    friction: float
    """Coulomb coefficient, >= 0"""
    gravity: Vec3
    """m/s^2, y is up"""
    grid_cell_size: float
    """m, broad-phase cell edge"""
    history_frames: int
    """frames of engine-private state save() keeps"""
    linear_damping: float
    """1/s"""
    max_push_speed: float
    """m/s: pushing does not speed a body past this"""
    push_acceleration: float
    """m/s^2 of a full Input.axis push"""
    restitution: float
    """0..1, bounciness of every contact"""
    sleep_angular_speed: float
    """rad/s"""
    sleep_frames: int
    """frames a still group waits before it sleeps"""
    sleep_linear_speed: float
    """m/s: slower counts as still"""
    solver_iterations: int
    """contact solver passes per step, 1..256"""

class RelayClientConfig:
    """How a relay client reaches its relay and which session it joins."""
    def __init__(self, *, relay: Address = ..., session: str = ..., code: str = ..., token: str = ..., slot: int = ..., local: TransportConfig = ..., resume_timeout_ms: int = ..., relay_timeout_ms: int = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    code: str
    """...the short code of a running session"""
    local: TransportConfig
    """the local ENet socket"""
    relay: Address
    """the relay server"""
    relay_timeout_ms: int
    """silence after which the relay counts as lost"""
    resume_timeout_ms: int
    """how long a connection outlives the relay"""
    session: str
    """session id (created by its first member); or empty and..."""
    slot: int
    """0: any free slot; RELAY_HOST_SLOT for the match host"""
    token: str
    """must equal the token the session was created with"""

class RelaySessionInfo:
    """One session running on a relay."""
    @property
    def code(self) -> str:
        """its short code"""
    @property
    def members(self) -> int:
        """members in it now"""
    @property
    def session(self) -> str:
        """its id"""

class RemotePeerStats:
    """Statistics of the link to one remote peer."""
    @property
    def link(self) -> LinkStats:
        """the transport's figures (packet_loss from snapshot sequence gaps)"""
    @property
    def peer(self) -> int:
        """the remote peer"""

class Replay:
    """A recording made with Peer.record, read whole: run it again on the same world (run, states) or one update at a time (ReplaySession). OperationError names the file and what is wrong with it."""
    def __init__(self, path: str) -> None: ...
    @property
    def complete(self) -> bool:
        """whether the recording ends with its end record"""
    @property
    def config(self) -> PeerConfig:
        """the recorded peer's config"""
    def run(self, simulation: Simulation, after_update: Callable[[Peer], object] | None = None, options: ReplayOptions = ...) -> ReplayReport:
        """Runs a fresh peer on `simulation` (the recorded world) through the whole recording, without the GIL. after_update(peer), if given, sees the replayed peer after each update (valid during the call only)."""
    def states(self, simulation: Simulation, ids: Sequence[int] | npt.NDArray[Any] | None = None, settled: bool = False) -> ReplayStates:
        """Replays the recording and returns every frame's states (ReplayStates): as the peer first simulated each frame, or with settled=True as it held the frame last, corrections included, before the frame left its history."""
    @property
    def world(self) -> bytes:
        """the description of its world the game gave to Peer.record"""

class ReplayOptions:
    """What a replay may do differently without changing what it simulates or sends."""
    def __init__(self, *, measure_update_cost: bool = ..., smoothing: SmoothingRules | None = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    measure_update_cost: bool
    """PeerConfig.measure_update_cost"""
    smoothing: SmoothingRules | None
    """other smoothing rules, or None"""

class ReplayReport:
    """What a replay found: whether the replayed peer did exactly what the recorded one did."""
    @property
    def checks(self) -> int:
        """of which compared"""
    @property
    def differing_objects(self) -> list[int]:
        """bodies whose final state differs"""
    @property
    def final_frame(self) -> int:
        """the replayed peer's newest frame at the end"""
    @property
    def first_difference(self) -> str:
        """empty when identical; else where it first differed"""
    @property
    def identical(self) -> bool:
        """every check and the final states matched the recording"""
    @property
    def stats(self) -> PeerStats:
        """the replayed peer's statistics at the end"""
    @property
    def updates(self) -> int:
        """update() calls replayed"""

class ReplaySession:
    """A replay played one update at a time: `for now_us in session: session.update()`, then session.report()."""
    def __init__(self, replay: Replay, simulation: Simulation, options: ReplayOptions = ...) -> None: ...
    def __iter__(self) -> Iterator[int]: ...
    def __next__(self) -> int: ...
    def next(self) -> int | None:
        """Compares the last update, applies the recorded calls before the next one and returns its time; None at the end or at the first difference."""
    @property
    def peer(self) -> object:
        """the replayed peer (a shoal.Peer it owns)"""
    def report(self) -> ReplayReport:
        """What the replay found so far."""
    def update(self) -> None:
        """The update next() announced (without the GIL)."""

class ReplayStates:
    """Every frame a replayed peer simulated, as numpy arrays (Replay.states)."""
    @property
    def frames(self) -> npt.NDArray[Any]:
        """the frames (int32), ascending, one per row of states"""
    @property
    def ids(self) -> npt.NDArray[Any]:
        """the objects (uint32), one per column of states"""
    @property
    def report(self) -> ReplayReport:
        """what the replay found"""
    @property
    def states(self) -> npt.NDArray[Any]:
        """STATE_DTYPE, shape (frames, ids); NaN where not held"""

class Revocation:
    """The session authority's signed word that one invitation admits no one any more (SessionAuthority.revoke; applied with Peer.revoke or Peer.kick). Not secret."""
    def __eq__(self, other: builtins.object) -> bool: ...
    @staticmethod
    def from_text(text: str) -> Revocation | None:
        """to_text()'s form back; None when it is not well-formed."""
    @property
    def peer_key(self) -> bytes:
        """the revoked invitation's key (Credentials.peer_key)"""
    @property
    def reason(self) -> str:
        """the authority's reason, as the revoked peer sees it"""
    def to_text(self) -> str:
        """Printable form (hexadecimal)."""

class SecurityConfig:
    """Whether a transport encrypts its links, and with which credentials."""
    def __init__(self, *, enabled: bool = ..., credentials: Credentials = ..., token_grace_ms: int = ..., audit_key: bytes | None = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    audit_key: bytes | None
    """an auditing relay's key (32 bytes) or None"""
    credentials: Credentials
    """this peer's, from the session's SessionAuthority"""
    enabled: bool
    """on by default: then credentials are needed"""
    token_grace_ms: int
    """a connection without a valid token is closed after this"""

class SessionAuthority:
    """Issues the join tokens of one session (holds its signing key)."""
    def __init__(self, session: str) -> None: ...
    def invite(self, validity_s: float = 43200.0, use: InvitationUse = ...) -> Credentials:
        """Credentials for one peer, valid from now for validity_s seconds."""
    def invite_until(self, expires_unix_s: int, session: str = '', use: InvitationUse = ...) -> Credentials:
        """Credentials expiring then (and naming another session if given)."""
    def revoke(self, peer_key: Buffer, reason: str) -> Revocation:
        """Revokes the invitation whose key is peer_key (kick and ban); apply it with Peer.revoke."""
    @property
    def public_key(self) -> bytes:
        """its public key"""
    @property
    def session(self) -> str:
        """the session it signs for"""

class Simulation:
    """The game's physics behind the interface Shoal needs to re-simulate frames. Subclass it in Python (call super().__init__()) and define step, body_count, body_id, bounding_radius, read and write; the optional methods (save, restore, body_type, user_bytes_size, read_user_bytes, write_user_bytes, changed_bodies, set_frozen, spawn_slot_count, add_body, remove_body, can_spawn) keep their defaults when left out. Every call crosses into Python: for tools and tests, not large worlds."""
    def __init__(self) -> None: ...
    def add_body(self, body: int, type: int, state: ObjectState, spawn_bytes: Buffer = b'') -> None:
        """fills an empty spawn slot"""
    def body_count(self) -> int:
        """how many bodies the world has"""
    def body_id(self, body: int) -> int:
        """the game's id of a body"""
    def body_type(self, body: int) -> int:
        """a small game-defined type"""
    def bounding_radius(self, body: int) -> float:
        """radius of a sphere that holds the body"""
    def can_spawn(self, type: int) -> bool:
        """whether add_body builds bodies of type"""
    def changed_bodies(self) -> object:
        """the bodies the last step may have changed, or None for every body"""
    def read(self, body: int) -> ObjectState:
        """a body's state now"""
    def read_user_bytes(self, body: int) -> bytes:
        """a body's user bytes (user_bytes_size of its type)"""
    def remove_body(self, body: int) -> None:
        """empties a spawn slot"""
    def restore(self, frame: int) -> None:
        """brings it back before re-simulating from frame"""
    def save(self, frame: int) -> None:
        """keeps engine-private state after stepping frame"""
    def set_frozen(self, body: int, frozen: bool) -> None:
        """leave a body out of the step"""
    def spawn_slot_count(self) -> int:
        """spawn slots after the fixed bodies"""
    def step(self, frame: int, inputs: list[BodyInput]) -> None:
        """Advances the world one fixed step; the state afterwards is frame's."""
    def user_bytes_size(self, body_type: int) -> int:
        """user bytes per body of a type"""
    def write(self, body: int, state: ObjectState) -> None:
        """sets a body's state"""
    def write_user_bytes(self, body: int, data: Buffer) -> None:
        """sets a body's user bytes"""

class SmoothingRule:
    """How corrections of one body type are blended into what is drawn."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, warp_distance_m: float = ..., warp_angle_rad: float = ..., blend_threshold_m: float = ..., blend_threshold_rad: float = ..., slow_speed: float = ..., slow_blend_threshold_m: float = ..., slow_blend_threshold_rad: float = ..., low_speed: float = ..., high_speed: float = ..., blend_rate_low_speed: float = ..., blend_rate_high_speed: float = ..., min_closing_speed_low: float = ..., min_closing_speed_high: float = ..., min_closing_angular_speed_low: float = ..., min_closing_angular_speed_high: float = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    blend_rate_high_speed: float
    """the same above high_speed"""
    blend_rate_low_speed: float
    """fraction of the error removed per 1/30 s, (0, 1)"""
    blend_threshold_m: float
    """above it the error closes by a fraction per 1/30 s"""
    blend_threshold_rad: float
    """the same for the orientation"""
    high_speed: float
    """m/s"""
    low_speed: float
    """m/s"""
    min_closing_angular_speed_high: float
    """rad/s"""
    min_closing_angular_speed_low: float
    """rad/s"""
    min_closing_speed_high: float
    """m/s"""
    min_closing_speed_low: float
    """m/s"""
    slow_blend_threshold_m: float
    """blend threshold of slow objects"""
    slow_blend_threshold_rad: float
    """the same for the orientation"""
    slow_speed: float
    """m/s: below it the tighter thresholds apply"""
    warp_angle_rad: float
    """above it the orientation snaps"""
    warp_distance_m: float
    """above it the object snaps"""

class SmoothingRules:
    """The rules table, keyed by (object type, control mode), with a default."""
    def __init__(self, default_rule: SmoothingRule = ...) -> None: ...
    @property
    def default_rule(self) -> SmoothingRule:
        """the rule of types without one of their own"""
    def find(self, object_type: int, mode: ControlMode) -> SmoothingRule:
        """The rule of (type, mode), or the default rule."""
    def set(self, object_type: int, mode: ControlMode, rule: SmoothingRule) -> None:
        """Adds or replaces the rule of one (type, mode); validates it first."""

class SnapshotConfig:
    """How snapshots are encoded (the same on every peer) and what each remote peer is sent within its byte budget."""
    def __init__(self, *, quantize: bool = ..., velocities_at_rest: bool = ..., delta: bool = ..., world_min: Vec3 | Sequence[float] = ..., world_max: Vec3 | Sequence[float] = ..., position_units_per_m: float = ..., orientation_bits: int = ..., max_linear_speed_mps: float = ..., max_angular_speed_radps: float = ..., velocity_units_per_mps: float = ..., max_baseline_age_frames: int = ..., input_bytes: int = ..., prioritize: bool = ..., packet_budget_bytes: int = ..., bytes_per_second: int = ..., rest_priority: float = ..., controlled_priority: float = ..., came_to_rest_priority: float = ..., settled_refresh_s: float = ..., coasting_interval_frames: int = ..., lod_near_m: float = ..., lod_far_m: float = ..., lod_far_factor: float = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    bytes_per_second: int
    """per remote peer"""
    came_to_rest_priority: float
    """at rest, until acknowledged at rest"""
    coasting_interval_frames: int
    """moving objects nobody touches, 1..600"""
    controlled_priority: float
    """any peer's controlled object"""
    delta: bool
    """encode against the newest state the receiver acknowledged"""
    input_bytes: int
    """bytes of the game's own input per frame, 0..MAX_INPUT_BYTES"""
    lod_far_factor: float
    """priority factor at and beyond lod_far_m"""
    lod_far_m: float
    """...to lod_far_factor here"""
    lod_near_m: float
    """priority falls from 1 here..."""
    max_angular_speed_radps: float
    """faster spins are clamped"""
    max_baseline_age_frames: int
    """older baselines are not used, 1..1056"""
    max_linear_speed_mps: float
    """faster is clamped"""
    orientation_bits: int
    """per smallest-three component, 8..20"""
    packet_budget_bytes: int
    """largest snapshot datagram, 64..1200"""
    position_units_per_m: float
    """position resolution"""
    prioritize: bool
    """send by priority within the budget"""
    quantize: bool
    """quantise states on owners and receivers after every step"""
    rest_priority: float
    """moving objects have priority 1"""
    settled_refresh_s: float
    """how rarely acknowledged resting objects are resent"""
    velocities_at_rest: bool
    """also send the zero velocities of resting objects"""
    velocity_units_per_mps: float
    """velocity resolution"""
    world_max: Vec3
    """see world_min"""
    world_min: Vec3
    """positions outside the bounds are clamped (and counted)"""

class SpawnConfig:
    """Limits of objects spawned during play (Peer.spawn)."""
    def __init__(self, *, max_objects_per_peer: int = ..., max_spawns_per_second: int = ..., max_spawn_bytes: int = ..., removed_on_leave: list[int] = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    max_objects_per_peer: int
    """live spawned objects per peer, 1..65535"""
    max_spawn_bytes: int
    """the most spawn bytes one spawn may carry, 0..MAX_SPAWN_BYTES"""
    max_spawns_per_second: int
    """spawns per second one peer may make, 1..10000"""
    removed_on_leave: list[int]
    """types whose objects are removed when their owner leaves (assign a whole list)"""

class SpawnedObject:
    """A live object spawned during play (Peer.spawned_object)."""
    @property
    def frame(self) -> int:
        """the frame it was spawned in"""
    @property
    def id(self) -> int:
        """its id (it carries the spawner)"""
    @property
    def owner(self) -> int:
        """its owner now"""
    @property
    def spawn_bytes(self) -> bytes:
        """its spawn bytes"""
    @property
    def spawner(self) -> int:
        """the peer that spawned it"""
    @property
    def type(self) -> int:
        """the game-defined type given to Peer.spawn"""

class Transport:
    """A transport until a Peer takes it (Peer(config, world, transport)): the Peer owns it from then on. A context manager: leaving the block closes a transport no Peer took."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *args: builtins.object) -> None: ...
    @property
    def address(self) -> Address:
        """where this transport listens"""
    def close(self) -> None:
        """Closes the transport (its socket) unless a Peer took it."""
    @property
    def kind(self) -> str:
        """enet, memory, relay, hybrid or secured ..."""
    @property
    def max_message_size(self) -> int:
        """the largest message it sends"""
    @property
    def open(self) -> bool:
        """whether this object still holds its transport"""
    def set_conditions(self, conditions: ConditionerConfig) -> None:
        """Changes the simulated network (every connection, both directions)."""

class TransportConfig:
    """How an ENet transport binds and behaves (make_enet_transport)."""
    def __init__(self, *, bind_host: str = ..., port: int = ..., max_connections: int = ..., timeout_ms: int = ..., conditioner: ConditionerConfig = ..., security: SecurityConfig = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    bind_host: str
    """the local address to bind"""
    conditioner: ConditionerConfig
    """the simulated network, none by default"""
    max_connections: int
    """connections accepted at once"""
    port: int
    """0 = any free port"""
    security: SecurityConfig
    """encryption and join tokens: on by default"""
    timeout_ms: int
    """silence after which a connection times out"""

class UpdateCost:
    """Where update() spent its time, nanoseconds summed (PeerConfig.measure_update_cost)."""
    @property
    def authority_ns(self) -> int:
        """regions and ownership"""
    @property
    def correct_ns(self) -> int:
        """applying overrides"""
    @property
    def physics_ns(self) -> int:
        """Simulation.step of new frames"""
    @property
    def present_ns(self) -> int:
        """smoothing and render interpolation"""
    @property
    def receive_ns(self) -> int:
        """draining the transport"""
    @property
    def resimulated_physics_ns(self) -> int:
        """Simulation.step re-run by catch-up"""
    @property
    def sdk_ns(self) -> int:
        """Shoal's own work: everything but the physics"""
    @property
    def send_ns(self) -> int:
        """snapshots, acks and checksums"""
    @property
    def session_ns(self) -> int:
        """membership, time sync and the rest"""
    @property
    def step_ns(self) -> int:
        """recording stepped frames"""
    @property
    def total_ns(self) -> int:
        """update() as a whole"""
    @property
    def updates(self) -> int:
        """update() calls measured"""

class Vec3:
    """A 3D vector (metres, m/s or rad/s as the field says); y is up. Any sequence of three numbers converts to one."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __getitem__(self, arg0: int) -> float: ...
    @overload
    def __init__(self, x: float = 0.0, y: float = 0.0, z: float = 0.0) -> None: ...
    @overload
    def __init__(self, values: sequence) -> None: ...
    def __iter__(self) -> Iterator: ...
    def __len__(self) -> int: ...
    x: float
    """first component"""
    y: float
    """second component (up)"""
    z: float
    """third component"""

class VisualState:
    """What the game draws for an object: smoothed and render-interpolated."""
    def __eq__(self, other: builtins.object) -> bool: ...
    def __init__(self, *, position: Vec3 | Sequence[float] = ..., orientation: Quat | Sequence[float] = ...) -> None:
        """Takes any of the fields as keyword arguments; the others keep their defaults."""
    orientation: Quat
    """how to draw it turned"""
    position: Vec3
    """where to draw the body"""

def angle_between(a: Quat, b: Quat) -> float:
    """The angle in radians between two orientations (0..pi), q and -q counting as the same."""

def axis_angle(axis: Vec3, angle: float) -> Quat:
    """The rotation by `angle` radians about `axis`."""

def empty_slot_state() -> ObjectState:
    """What an empty spawn slot reads as: the default state, at rest."""

def hybrid_address(direct: Address, relay_slot: int) -> Address:
    """A peer's hybrid address: direct, and its relay slot."""

def list_relay_sessions(relay: Address, timeout_ms: int = 2000) -> list[RelaySessionInfo]:
    """The sessions running on a relay (blocks up to timeout_ms, without the GIL); OperationError when it does not answer."""

def make_enet_transport(config: TransportConfig) -> Transport:
    """An ENet transport bound to config.bind_host:config.port (see also enet_transport())."""

def make_hybrid_transport(config: HybridConfig) -> Transport:
    """A transport that reaches each remote directly when it can and through the relay when not."""

def make_relay_transport(config: RelayClientConfig) -> Transport:
    """A transport whose connections go through a relay; it joins as the Peer polls it."""

def protocol_version() -> int:
    """The LAN discovery protocol version this build speaks."""

def relay_host_address() -> Address:
    """The virtual address of the match host on a relay."""

def relay_peer_address(slot: int) -> Address:
    """The virtual address of the member in `slot`."""

def relay_protocol_version() -> int:
    """The relay protocol's version."""

def relay_session_code(session: str) -> str:
    """The short code a session id gets on every relay."""

def secure_transport(inner: Transport, security: SecurityConfig) -> Transport:
    """Wraps a transport (a MemoryNetwork endpoint, say) so that its links are secured; takes `inner`."""

def validate_authority_config(config: AuthorityConfig) -> None:
    """Raises InvalidArgument naming the first bad field."""

def validate_smoothing_rule(rule: SmoothingRule) -> None:
    """Raises InvalidArgument naming the field when the rule is unusable."""

def version() -> str:
    """The library's version, MAJOR.MINOR.PATCH."""

def version_line(program: str) -> str:
    """What every Shoal program prints for --version: 'PROGRAM VERSION (wire W, relay R)'."""

def wire_version() -> int:
    """The peer-to-peer wire protocol's version: peers of another one are refused."""
