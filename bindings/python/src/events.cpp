// SPDX-License-Identifier: MIT
// What a peer tells the game: events (Peer.poll_event, Peer.events), how far its join has
// come, what it knows of an object (diagnoses), and its statistics with the drops by reason.
#include "bind.hpp"
#include "shoal/drop_reason.hpp"
#include "shoal/peer.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

py::bytes as_bytes(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

void bind_join(py::module_& m) {
  py::enum_<JoinStep>(m, "JoinStep", "The step of joining a peer is in (Peer.join_progress).")
      .value("idle", JoinStep::idle, "neither host() nor join() yet")
      .value("connecting", JoinStep::connecting, "reaching the host and asking it for an id")
      .value("meshing", JoinStep::meshing, "connecting to every other member")
      .value("syncing", JoinStep::syncing, "measuring the match clock against the host's")
      .value("baselines", JoinStep::baselines, "in the match, waiting for what each older peer owns")
      .value("joined", JoinStep::joined, "in the match with everything it needs")
      .value("failed", JoinStep::failed, "gave up: see the join_failed event");
  py::enum_<JoinFailure>(m, "JoinFailure", "Why a join failed.")
      .value("none", JoinFailure::none)
      .value("no_answer", JoinFailure::no_answer, "the peer named (or the host) never answered")
      .value("refused", JoinFailure::refused, "the host turned the request down")
      .value("host_lost", JoinFailure::host_lost, "the connection to the host ended first")
      .value("incompatible", JoinFailure::incompatible, "another wire version or snapshot encoding: see reason");
  Record<JoinProgress>(m, "JoinProgress", "How far joining has come.")
      .field("step", &JoinProgress::step, "the step the peer is in")
      .field("done", &JoinProgress::done, "the current step's progress, when it counts something")
      .field("needed", &JoinProgress::needed, "see done")
      .field("elapsed_ms", &JoinProgress::elapsed_ms, "from the first update after join() (or host()) until joined");
}

void bind_diagnosis(py::module_& m) {
  Record<OwnershipHistoryEntry>(m, "OwnershipHistoryEntry", "One change of an object's owner, as this peer applied it.")
      .field("frame", &OwnershipHistoryEntry::frame, "the frame from which the new owner's state counts")
      .field("owner", &OwnershipHistoryEntry::owner, "the new owner")
      .field("sequence", &OwnershipHistoryEntry::sequence, "the object's change counter")
      .field("author", &OwnershipHistoryEntry::author, "who made the change")
      .field("applied_at", &OwnershipHistoryEntry::applied_at, "this peer's newest frame when it applied it");
  Record<ObjectDiagnosis>(m, "ObjectDiagnosis", "What one peer knows of one object at one frame (Peer.diagnose).")
      .field("object", &ObjectDiagnosis::object, "the object asked about")
      .field("frame", &ObjectDiagnosis::frame, "the frame asked about")
      .field("held", &ObjectDiagnosis::held, "that frame is still in this peer's history")
      .field("state", &ObjectDiagnosis::state, "at frame, when held")
      .field("confirmed", &ObjectDiagnosis::confirmed, "and it is its owner's own state")
      .field("owner", &ObjectDiagnosis::owner, "now")
      .field("ownership", &ObjectDiagnosis::ownership, "the last changes of its owner seen here, oldest first")
      .field("frozen", &ObjectDiagnosis::frozen, "left out of this peer's last step")
      .field("last_owner_frame", &ObjectDiagnosis::last_owner_frame, "the newest owner frame of it taken in")
      .field("last_owner_frame_at", &ObjectDiagnosis::last_owner_frame_at, "this peer's newest frame then")
      .field("overrides", &ObjectDiagnosis::overrides, "owner frames of it that differed from this peer's own")
      .field("owner_said", &ObjectDiagnosis::owner_said, "whether its owner's last word is known")
      .field("owner_said_frame", &ObjectDiagnosis::owner_said_frame, "the frame of owner_said_state")
      .field("owner_said_state", &ObjectDiagnosis::owner_said_state, "the owner's last state of it, as received");
}

// The kind and the fields that mean something for it.
std::string describe(const Event& e) {
  std::string text = "Event(" + std::string(py::str(py::cast(e.kind).attr("name")));
  auto add = [&](const char* name, const std::string& value) { text += std::string(", ") + name + "=" + value; };
  switch (e.kind) {
    case EventKind::joined_match:
    case EventKind::peer_joined:
    case EventKind::peer_left:
    case EventKind::peer_lost:
    case EventKind::peer_rejoined:
      add("peer", std::to_string(e.peer));
      break;
    case EventKind::ownership_changed:
      add("object", std::to_string(e.object));
      add("peer", std::to_string(e.peer));
      break;
    case EventKind::override_applied:
      add("object", std::to_string(e.object));
      add("frame", std::to_string(e.frame));
      add("depth", std::to_string(e.depth));
      break;
    case EventKind::snapped:
      add("object", std::to_string(e.object));
      add("frame", std::to_string(e.frame));
      break;
    case EventKind::desync:
      add("peer", std::to_string(e.peer));
      add("frame", std::to_string(e.frame));
      add("objects", py::repr(py::cast(e.objects)));
      break;
    case EventKind::join_failed:
      add("step", std::string(to_string(e.step)));
      add("failure", std::string(to_string(e.failure)));
      add("peer", std::to_string(e.peer));
      if (!e.reason.empty()) add("reason", py::repr(py::str(e.reason)));
      break;
    case EventKind::incompatible_peer:
      add("reason", py::repr(py::str(e.reason)));
      break;
    case EventKind::message:
      add("peer", std::to_string(e.peer));
      add("bytes", py::repr(as_bytes(e.bytes)));
      add("frame", std::to_string(e.frame));
      add("reliable", e.reliable ? "True" : "False");
      break;
    case EventKind::kicked:
      add("reason", py::repr(py::str(e.reason)));
      break;
  }
  return text + ")";
}

void bind_event(py::module_& m) {
  py::enum_<EventKind>(m, "EventKind", "What happened (Event.kind).")
      .value("joined_match", EventKind::joined_match, "this peer has an id and a synchronised clock (peer = own id)")
      .value("peer_joined", EventKind::peer_joined, "peer connected to this peer")
      .value("peer_left", EventKind::peer_left, "peer left, or stayed away past the rejoin grace period")
      .value("peer_lost", EventKind::peer_lost, "peer timed out; its objects wait for it during the grace period")
      .value("peer_rejoined", EventKind::peer_rejoined, "a lost peer came back within the grace period")
      .value("ownership_changed", EventKind::ownership_changed, "object's owner became peer")
      .value("override_applied", EventKind::override_applied, "an owner corrected object at frame, depth frames back")
      .value("snapped", EventKind::snapped, "object was too far behind to re-simulate: snapped to its owner")
      .value("desync", EventKind::desync, "confirmed frame disagrees with peer's checksum for objects")
      .value("join_failed", EventKind::join_failed, "this peer gave up joining: step, failure, peer")
      .value("incompatible_peer", EventKind::incompatible_peer, "a peer of another version or encoding: reason")
      .value("message", EventKind::message, "a game message from peer: bytes, frame, reliable")
      .value("kicked", EventKind::kicked, "the session's authority revoked this peer's invitation: reason");
  Record<Event>(m, "Event", "Something the game may want to know (Peer.poll_event); which fields mean something depends on kind.")
      .field("kind", &Event::kind, "what happened")
      .field("peer", &Event::peer, "the peer concerned, or NO_PEER")
      .field("object", &Event::object, "the object concerned, or 0")
      .field("frame", &Event::frame, "the frame concerned, or NO_FRAME")
      .field("depth", &Event::depth, "override_applied: how many frames back the correction reached")
      .field("objects", &Event::objects, "desync only")
      .field("diagnoses", &Event::diagnoses, "desync only: what this peer knows of each of objects")
      .field("step", &Event::step, "join_failed only")
      .field("failure", &Event::failure, "join_failed only")
      .field("reason", &Event::reason, "join_failed (incompatible, refused), incompatible_peer and kicked: why")
      .property("bytes", [](const Event& e) { return as_bytes(e.bytes); }, "message only: what the sender sent")
      .field("reliable", &Event::reliable, "message only: sent with Delivery.reliable")
      .repr(&describe);
}

void bind_stats(py::module_& m) {
  py::enum_<DropReason> reasons(m, "DropReason", "Why an incoming datagram or message was dropped.");
  for (std::size_t i = 0; i < kDropReasonCount; ++i) {
    const auto reason = static_cast<DropReason>(i);
    reasons.value(std::string(to_string(reason)).c_str(), reason);
  }
  py::class_<DropCounters>(m, "DropCounters", "Counts of dropped input, one per DropReason.")
      .def("__getitem__", [](const DropCounters& d, DropReason reason) { return d[reason]; }, "reason"_a)
      .def("total", &DropCounters::total, "the sum over every reason")
      .def("to_dict", [](const DropCounters& d) {
        py::dict counts;
        for (std::size_t i = 0; i < kDropReasonCount; ++i) {
          counts[py::str(std::string(to_string(static_cast<DropReason>(i))))] = d.counts[i];
        }
        return counts;
      }, "{reason name: count} for every reason")
      .def("__repr__", [](const DropCounters& d) {
        std::string text = "DropCounters(";
        bool first = true;
        for (std::size_t i = 0; i < kDropReasonCount; ++i) {
          if (d.counts[i] == 0) continue;
          text += (first ? "" : ", ") + std::string(to_string(static_cast<DropReason>(i))) + "=" + std::to_string(d.counts[i]);
          first = false;
        }
        return text + ")";
      })
      .def("__eq__", [](const DropCounters& a, const DropCounters& b) { return a == b; }, py::is_operator())
      .attr("__hash__") = py::none();
  Record<UpdateCost>(m, "UpdateCost", "Where update() spent its time, nanoseconds summed (PeerConfig.measure_update_cost).")
      .field("updates", &UpdateCost::updates, "update() calls measured")
      .field("receive_ns", &UpdateCost::receive_ns, "draining the transport")
      .field("correct_ns", &UpdateCost::correct_ns, "applying overrides")
      .field("step_ns", &UpdateCost::step_ns, "recording stepped frames")
      .field("authority_ns", &UpdateCost::authority_ns, "regions and ownership")
      .field("send_ns", &UpdateCost::send_ns, "snapshots, acks and checksums")
      .field("present_ns", &UpdateCost::present_ns, "smoothing and render interpolation")
      .field("session_ns", &UpdateCost::session_ns, "membership, time sync and the rest")
      .field("physics_ns", &UpdateCost::physics_ns, "Simulation.step of new frames")
      .field("resimulated_physics_ns", &UpdateCost::resimulated_physics_ns, "Simulation.step re-run by catch-up")
      .field("total_ns", &UpdateCost::total_ns, "update() as a whole")
      .property("sdk_ns", &UpdateCost::sdk_ns, "Shoal's own work: everything but the physics");
  Record<Histogram>(m, "Histogram", "A distribution of measured values as counts per bucket (PeerStats' latency and "
                                     "visual correction).")
      .field("width", &Histogram::width, "of each bucket, in the values' unit")
      .property("counts", [](const Histogram& h) { return py::list(py::cast(h.counts)); },
                "values counted per bucket: [i * width, (i + 1) * width), the last open-ended")
      .field("total", &Histogram::total, "values counted")
      .field("max", &Histogram::max, "the largest value counted (0 when none)")
      .repr([](const Histogram& h) {
        return "Histogram(total=" + std::to_string(h.total) + ", p50=" + std::to_string(h.percentile(0.5)) +
               ", p99=" + std::to_string(h.percentile(0.99)) + ", max=" + std::to_string(h.max) + ")";
      })
      .cls()
      .def("percentile", &Histogram::percentile, "p"_a,
           "the value at or below which a fraction p (0..1) of the values lie (its bucket's upper edge); 0 when empty")
      .def("since", &Histogram::since, "earlier"_a, "the values counted since earlier (this histogram as it was then)")
      .def("upper_edge", &Histogram::upper_edge, "bucket"_a, "the largest value a bucket can hold, as far as is known");
  Record<RemotePeerStats>(m, "RemotePeerStats", "Statistics of the link to one remote peer.")
      .field("peer", &RemotePeerStats::peer, "the remote peer")
      .field("link", &RemotePeerStats::link, "the transport's figures (packet_loss from snapshot sequence gaps)");
  Record<PeerStats>(m, "PeerStats", "What a Peer has done so far (Peer.stats()).")
      .field("frame", &PeerStats::frame, "the newest frame simulated")
      .field("overrides", &PeerStats::overrides, "owner frames that replaced a differing own frame")
      .field("tolerated", &PeerStats::tolerated, "owner frames that differed only within tolerance")
      .field("catchup_frames", &PeerStats::catchup_frames, "frames re-simulated by catch-up")
      .field("snaps", &PeerStats::snaps, "corrections too old to re-simulate")
      .field("ownership_changes", &PeerStats::ownership_changes, "ownership changes applied")
      .field("snapshots_sent", &PeerStats::snapshots_sent, "snapshot datagrams sent")
      .field("snapshots_received", &PeerStats::snapshots_received, "snapshot datagrams received")
      .field("snapshot_bytes_sent", &PeerStats::snapshot_bytes_sent, "snapshot and ack bytes sent")
      .field("baseline_misses", &PeerStats::baseline_misses, "deltas whose baseline was not held")
      .field("rest_repairs_requested", &PeerStats::rest_repairs_requested, "owners asked for a resting object's state")
      .field("quantization_clamps", &PeerStats::quantization_clamps, "state fields clamped to the snapshot bounds")
      .field("desyncs", &PeerStats::desyncs, "checksums of confirmed frames that disagreed")
      .field("objects_spawned", &PeerStats::objects_spawned, "spawns applied here")
      .field("objects_removed", &PeerStats::objects_removed, "removals applied here")
      .field("messages_sent", &PeerStats::messages_sent, "game messages sent")
      .field("messages_received", &PeerStats::messages_received, "game messages accepted")
      .field("messages_queued", &PeerStats::messages_queued, "game messages not taken by poll_event yet")
      .field("owned_objects", &PeerStats::owned_objects, "objects this peer owns now")
      .field("pace", &PeerStats::pace, "how fast the match's timeline runs now, as a fraction of tick_hz")
      .field("frozen_objects", &PeerStats::frozen_objects, "left out of the last step")
      .field("correction_latency_ms", &PeerStats::correction_latency_ms,
             "ms from an owner stepping and sending a frame to this peer taking it in")
      .field("visual_correction_mm", &PeerStats::visual_correction_mm,
             "mm smoothing moved a drawn object in one frame beyond its simulated motion")
      .field("dropped", &PeerStats::dropped, "bad or unwanted packets, by reason")
      .field("cost", &PeerStats::cost, "where update() spent its time (when measured)")
      .field("remotes", &PeerStats::remotes, "one entry per connected remote peer");
  Record<SpawnedObject>(m, "SpawnedObject", "A live object spawned during play (Peer.spawned_object).")
      .field("id", &SpawnedObject::id, "its id (it carries the spawner)")
      .field("type", &SpawnedObject::type, "the game-defined type given to Peer.spawn")
      .field("spawner", &SpawnedObject::spawner, "the peer that spawned it")
      .field("owner", &SpawnedObject::owner, "its owner now")
      .field("frame", &SpawnedObject::frame, "the frame it was spawned in")
      .property("spawn_bytes", [](const SpawnedObject& s) {
        return py::bytes(reinterpret_cast<const char*>(s.bytes.data()), s.byte_count);
      }, "its spawn bytes");
}

}  // namespace

void bind_events(py::module_& m) {
  bind_join(m);
  bind_diagnosis(m);
  bind_event(m);
  bind_stats(m);
}

}  // namespace shoal::python
