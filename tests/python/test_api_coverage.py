# SPDX-License-Identifier: MIT
"""The module covers the C++ API: every public method of Peer (and of the other classes below)
and every field of the config and result structs is in the module under the same name, unless it
is listed here as left out on purpose, with the reason. Read from the public headers themselves,
so a method added to sdk/include/shoal fails this test until the module binds it (or lists it)."""
import re

import pytest

import shoal
from conftest import SOURCE_DIR

HEADERS = SOURCE_DIR / "sdk" / "include" / "shoal"

# (header, C++ class or struct, Python class, {C++ name: Python name}, {C++ name left out: why})
CLASSES = [
    ("peer.hpp", "Peer", shoal.Peer, {}, {}),
    ("reference_physics.hpp", "ReferencePhysics", shoal.ReferencePhysics, {}, {}),
    ("simulation.hpp", "Simulation", shoal.Simulation, {}, {}),
    ("recording.hpp", "Replay", shoal.Replay, {}, {}),
    ("recording.hpp", "ReplaySession", shoal.ReplaySession, {}, {}),
    ("memory_network.hpp", "MemoryNetwork", shoal.MemoryNetwork, {"create_endpoint": "endpoint"}, {}),
    ("security.hpp", "SessionAuthority", shoal.SessionAuthority, {}, {}),
    ("lan_discovery.hpp", "LanAnnouncer", shoal.LanAnnouncer, {}, {}),
    ("lan_discovery.hpp", "LanSeeker", shoal.LanSeeker, {}, {}),
    ("smoothing.hpp", "SmoothingRules", shoal.SmoothingRules, {}, {}),
    ("security_config.hpp", "Credentials", shoal.Credentials, {},
     {"bytes": "opaque: to_text() and Credentials.from_text() carry them"}),
    ("drop_reason.hpp", "DropCounters", shoal.DropCounters, {"operator[]": "__getitem__"},
     {"counts": "read by reason (counters[reason]) or all at once (to_dict())",
      "add": "Shoal counts drops; a game only reads them"}),
    ("peer.hpp", "SpawnedObject", shoal.SpawnedObject, {},
     {"byte_count": "spawn_bytes is a bytes object of that length", "bytes": "see byte_count"}),
    ("update_cost.hpp", "UpdateCost", shoal.UpdateCost, {}, {}),
    ("histogram.hpp", "Histogram", shoal.Histogram, {}, {"add": "Shoal counts the values; a game only reads them"}),
    ("peer.hpp", "PeerStats", shoal.PeerStats, {}, {}),
    ("peer.hpp", "RemotePeerStats", shoal.RemotePeerStats, {}, {}),
    ("peer_config.hpp", "PeerConfig", shoal.PeerConfig, {}, {}),
    ("peer_config.hpp", "CompareTolerance", shoal.CompareTolerance, {}, {}),
    ("peer_config.hpp", "PaceConfig", shoal.PaceConfig, {}, {}),
    ("peer_config.hpp", "SpawnConfig", shoal.SpawnConfig, {}, {}),
    ("authority_config.hpp", "AuthorityConfig", shoal.AuthorityConfig, {}, {}),
    ("snapshot_config.hpp", "SnapshotConfig", shoal.SnapshotConfig, {}, {}),
    ("messages.hpp", "MessageConfig", shoal.MessageConfig, {}, {}),
    ("log.hpp", "LogConfig", shoal.LogConfig, {}, {}),
    ("smoothing.hpp", "SmoothingRule", shoal.SmoothingRule, {}, {}),
    ("smoothing.hpp", "VisualState", shoal.VisualState, {}, {}),
    ("state.hpp", "ObjectState", shoal.ObjectState, {}, {}),
    ("state.hpp", "Input", shoal.Input, {}, {}),
    ("events.hpp", "Event", shoal.Event, {}, {}),
    ("join.hpp", "JoinProgress", shoal.JoinProgress, {}, {}),
    ("diagnosis.hpp", "ObjectDiagnosis", shoal.ObjectDiagnosis, {}, {}),
    ("diagnosis.hpp", "OwnershipHistoryEntry", shoal.OwnershipHistoryEntry, {}, {}),
    ("recording.hpp", "ReplayReport", shoal.ReplayReport, {}, {}),
    ("recording.hpp", "ReplayOptions", shoal.ReplayOptions, {}, {}),
    ("transport.hpp", "TransportConfig", shoal.TransportConfig, {}, {}),
    ("transport.hpp", "Address", shoal.Address, {}, {}),
    ("transport.hpp", "LinkStats", shoal.LinkStats, {}, {}),
    ("security_config.hpp", "SecurityConfig", shoal.SecurityConfig, {}, {}),
    ("link_conditions.hpp", "LinkConditions", shoal.LinkConditions, {}, {}),
    ("link_conditions.hpp", "ConditionerConfig", shoal.ConditionerConfig, {}, {}),
    ("reference_physics.hpp", "ReferencePhysicsConfig", shoal.ReferencePhysicsConfig, {}, {}),
    ("lan_discovery.hpp", "LanDiscoveryConfig", shoal.LanDiscoveryConfig, {}, {}),
    ("lan_discovery.hpp", "LanSession", shoal.LanSession, {}, {}),
    ("lan_discovery.hpp", "LanDiscoveryStats", shoal.LanDiscoveryStats, {}, {}),
    ("relay.hpp", "RelayClientConfig", shoal.RelayClientConfig, {}, {}),
    ("relay.hpp", "RelaySessionInfo", shoal.RelaySessionInfo, {}, {}),
    ("relay.hpp", "HybridConfig", shoal.HybridConfig, {}, {}),
]


def class_body(text: str, name: str) -> tuple[str, bool]:
    """The text between the braces of `class name` / `struct name`, and whether it is a struct."""
    found = re.search(rf"\b(class|struct)\s+{name}\b[^;{{]*\{{", text)
    assert found, f"no class or struct {name}"
    depth, start = 1, found.end()
    for at in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            return text[start:at], found.group(1) == "struct"
    raise AssertionError(f"{name}: unbalanced braces")


def public_members(header: str, name: str) -> set[str]:
    """The names of the public methods and data members of a class or struct in a header."""
    text = (HEADERS / header).read_text()
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    body, is_struct = class_body(text, name)
    # Inline function bodies end their declaration; brace initializers and default arguments go.
    body_after = re.compile(r"(\)|\bconst|\boverride|\bnoexcept)\s*$")
    while re.search(r"\{[^{}]*\}", body):
        body = re.sub(r"\{[^{}]*\}", lambda m: ";" if body_after.search(m.string[:m.start()]) else "", body)
    members, public = set(), is_struct
    for part in re.split(r"\b(public|private|protected)\s*:", body):
        if part in ("public", "private", "protected"):
            public = part == "public"
            continue
        if not public:
            continue
        for statement in (s.strip() for s in part.split(";")):
            if not statement or re.match(r"(friend|using|static|struct|class|enum|template)\b", statement):
                continue
            if "(" in statement:
                called = re.search(r"(operator\s*\S+?|~?\w+)\s*\(", statement).group(1).replace(" ", "")
                if called in (name, "~" + name) or called.startswith("operator=") or called == "operator!=":
                    continue  # construction, assignment and comparison are Python's own
                members.add(called)
            else:
                members.add(re.search(r"(\w+)\s*(=.*)?$", statement).group(1))
    return members


@pytest.mark.parametrize("header,cpp_name,python_class,renamed,left_out", CLASSES, ids=[c[1] for c in CLASSES])
def test_every_public_member_is_bound_or_listed_as_left_out(header, cpp_name, python_class, renamed, left_out):
    members = public_members(header, cpp_name)
    assert members, f"read nothing of {cpp_name} in {header}"
    missing = sorted(m for m in members - set(left_out) if not hasattr(python_class, renamed.get(m, m)))
    assert not missing, f"shoal.{python_class.__name__} lacks {missing} of shoal::{cpp_name} ({header}): bind them " \
                        "or list them as left out on purpose, with the reason"
    stale = sorted(set(left_out) - members)
    assert not stale, f"listed as left out but no longer in shoal::{cpp_name}: {stale}"
    bound_anyway = sorted(m for m in left_out if hasattr(python_class, m))
    assert not bound_anyway, f"listed as left out but bound: {bound_anyway}"


def test_the_reader_sees_peers_methods():
    """The header reader itself: it finds what peer.hpp declares, and not what it keeps private."""
    members = public_members("peer.hpp", "Peer")
    assert {"host", "join", "update", "update_at", "poll_event", "spawn", "diagnose", "set_conditions"} <= members
    assert "impl_" not in members and "Impl" not in members and "Peer" not in members
    assert {"position", "orientation", "at_rest"} <= public_members("state.hpp", "ObjectState")


def stub_names() -> dict[str, set[str]]:
    """The type stubs' top-level names, each with the names its class body defines."""
    import ast
    import pathlib
    stubs = pathlib.Path(shoal.__file__).with_name("__init__.pyi")
    tree = ast.parse(stubs.read_text())
    names: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {getattr(n, "name", None) or getattr(getattr(n, "target", None), "id", None)
                                for n in node.body} - {None}
        elif isinstance(node, (ast.FunctionDef, ast.AnnAssign, ast.Assign)):
            target = node.name if isinstance(node, ast.FunctionDef) else (
                node.target.id if isinstance(node, ast.AnnAssign) else node.targets[0].id)
            names[target] = set()
    return names


def test_the_type_stubs_name_everything_the_module_has():
    stubs = stub_names()
    missing = sorted(name for name in shoal.__all__ if name not in stubs)
    assert not missing, f"shoal/__init__.pyi lacks {missing}"
    extra = sorted(name for name in stubs if not hasattr(shoal, name) and name != "Buffer")
    assert not extra, f"shoal/__init__.pyi names what the module lacks: {extra}"
    for name, members in stubs.items():
        cls = getattr(shoal, name, None)
        if not isinstance(cls, type) or issubclass(cls, BaseException):
            continue
        public = {m for m in vars(cls) if not m.startswith("_")} - set(getattr(cls, "__members__", {}))
        lacking = sorted(public - members)
        assert not lacking, f"the stub of {name} lacks {lacking}"
