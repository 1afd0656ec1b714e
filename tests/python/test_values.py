# SPDX-License-Identifier: MIT
"""Values, configs and errors: keyword arguments with the C++ defaults, enums, conversions from
Python sequences, and exceptions that carry Shoal's own message."""
import copy

import numpy as np
import pytest

import shoal


def test_configs_take_keywords_and_keep_the_cpp_defaults():
    config = shoal.PeerConfig(tick_hz=30, session="kw")
    assert config.tick_hz == 30 and config.session == "kw"
    assert config.history_frames == 64 and config.max_resimulated_frames == 32  # peer_config.hpp's defaults
    assert config.compare.position_m == pytest.approx(0.001) and config.snapshots.packet_budget_bytes == 1200
    assert config.catchup == shoal.CatchupScope.region and config.log.level == shoal.LogLevel.info
    config.snapshots.delta = False  # nested configs are edited in place
    assert config.snapshots.delta is False
    other = copy.deepcopy(config)
    other.snapshots.delta = True
    assert config.snapshots.delta is False
    assert "tick_hz=30.0" in repr(config)
    with pytest.raises(TypeError, match="PeerConfig\\(\\) has no field 'tickhz'"):
        shoal.PeerConfig(tickhz=30)


def test_a_wrong_config_value_raises_with_shoals_message_naming_the_field():
    world = shoal.ReferencePhysics()
    world.add_sphere(1, 0.5, 1.0)
    transport = shoal.make_enet_transport(shoal.TransportConfig(security=shoal.SecurityConfig(enabled=False)))
    with pytest.raises(shoal.InvalidArgument, match=r"history_frames is 20, expected max_resimulated_frames \+ 8 \(40\) to 4096"):
        shoal.Peer(shoal.PeerConfig(history_frames=20), world, transport)
    with pytest.raises(ValueError, match="snapshots.packet_budget_bytes is 10, expected 64..1200"):
        shoal.Peer(shoal.PeerConfig(snapshots=shoal.SnapshotConfig(packet_budget_bytes=10)), world,
                   shoal.enet_transport(insecure=True))
    with pytest.raises(shoal.InvalidArgument, match="arena_half_x"):
        shoal.ReferencePhysics(shoal.ReferencePhysicsConfig(arena_half_x=-1))
    with pytest.raises(shoal.InvalidArgument, match="blend_rate_low_speed"):
        shoal.validate_smoothing_rule(shoal.SmoothingRule(blend_rate_low_speed=2))


def test_errors_form_one_family_under_shoal_error():
    assert issubclass(shoal.InvalidArgument, shoal.Error) and issubclass(shoal.InvalidArgument, ValueError)
    assert issubclass(shoal.StateError, shoal.Error) and issubclass(shoal.StateError, RuntimeError)
    assert issubclass(shoal.OperationError, shoal.Error) and issubclass(shoal.OperationError, RuntimeError)
    world = shoal.ReferencePhysics()
    world.add_sphere(1, 0.5, 1.0)
    with shoal.Peer(shoal.PeerConfig(), world, shoal.enet_transport(insecure=True)) as peer:
        with pytest.raises(shoal.StateError, match="not in a match yet"):
            peer.send_message(shoal.NO_PEER, b"hi")
        with pytest.raises(shoal.InvalidArgument, match="object 7 is not one of the simulation's bodies"):
            peer.state(7)
        peer.host()
        with pytest.raises(shoal.StateError, match="shoal::Peer::join: already started"):
            peer.join("127.0.0.1:1")
    with pytest.raises(shoal.StateError, match="the peer is closed"):
        peer.state(1)
    with pytest.raises(shoal.OperationError, match="cannot read '/nonexistent.shoalrec'"):
        shoal.Replay("/nonexistent.shoalrec")


def test_a_peer_needs_a_simulation():
    with pytest.raises(TypeError, match="expected a shoal.Simulation .* got list"):
        shoal.Peer(shoal.PeerConfig(), [], shoal.MemoryNetwork().endpoint())


def test_a_transport_given_to_a_peer_belongs_to_it():
    world = shoal.ReferencePhysics()
    world.add_sphere(1, 0.5, 1.0)
    transport = shoal.enet_transport(insecure=True)
    assert transport.open and transport.address.port != 0
    with shoal.Peer(shoal.PeerConfig(), world, transport):
        assert not transport.open
        with pytest.raises(shoal.StateError, match="given to a shoal.Peer"):
            transport.address
    with shoal.enet_transport(insecure=True) as unused:
        port = unused.address.port
    assert not unused.open and port != 0
    with pytest.raises(shoal.InvalidArgument, match="credentials"):
        shoal.enet_transport()  # secure by default: credentials needed


def test_vectors_states_and_inputs_convert_from_python_values():
    state = shoal.ObjectState(position=(1, 2, 3), orientation=[1, 0, 0, 0], linear_velocity=np.array([0.5, 0, 0]))
    assert tuple(state.position) == (1.0, 2.0, 3.0) and state.orientation == shoal.Quat(1, 0, 0, 0)
    assert state.linear_velocity.x == 0.5 and not state.at_rest
    assert state == shoal.ObjectState(position=shoal.Vec3(1, 2, 3), linear_velocity=(0.5, 0, 0))
    with pytest.raises(ValueError, match="ObjectState.position: Vec3 takes 3 numbers, got 2"):
        shoal.ObjectState(position=(1, 2))
    q = shoal.axis_angle((0, 1, 0), 0.5)
    assert shoal.angle_between(q, shoal.Quat()) == pytest.approx(0.5, abs=1e-6)
    command = shoal.Input(axis=(1, 0, 0), buttons=3, bytes=b"\x01\x02")
    assert command.bytes[:3] == b"\x01\x02\x00" and len(command.bytes) == shoal.MAX_INPUT_BYTES
    with pytest.raises(shoal.InvalidArgument, match="65 bytes, expected at most 64"):
        shoal.Input(bytes=bytes(65))
    assert shoal.Address("10.0.0.1:40000") == shoal.Address("10.0.0.1", 40000) == shoal.Address(("10.0.0.1", 40000))
    assert str(shoal.Address("h", 5)) == "h:5"
    with pytest.raises(shoal.InvalidArgument, match="expected HOST:PORT"):
        shoal.Address("nonsense")


def test_enums_name_their_values_like_the_cpp_api():
    assert shoal.EventKind.ownership_changed.name == "ownership_changed"
    assert shoal.JoinStep.syncing.name == "syncing"
    assert [r.name for r in shoal.DropReason.__members__.values()][:3] == ["bad_magic", "unsupported_version", "unknown_kind"]
    assert shoal.Delivery.unreliable != shoal.Delivery.reliable


def test_versions_and_credentials():
    assert shoal.__version__ == shoal.version() and shoal.version().count(".") == 2
    assert shoal.wire_version() > 0 and "wire" in shoal.version_line("x")
    authority = shoal.SessionAuthority("versions")
    credentials = authority.invite(60)
    assert credentials.session == "versions" and not credentials.empty
    assert shoal.Credentials.from_text(credentials.to_text()) == credentials
    assert shoal.Credentials.from_text("zz") is None
    assert len(authority.public_key) == 32
