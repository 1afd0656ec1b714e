// SPDX-License-Identifier: MIT
// shoal.Peer: the C++ Peer's calls, with the GIL released where a call may block or run the
// simulation (update, update_at, wait, leave), and the bulk reads of many objects as numpy arrays.
#include "peer_handle.hpp"

#include <stdexcept>

#include "state_arrays.hpp"
#include "transport_handle.hpp"

namespace shoal::python {

using namespace pybind11::literals;

std::vector<ObjectId> fixed_body_ids(const Simulation& simulation) {
  const std::size_t fixed = simulation.body_count() - simulation.spawn_slot_count();
  std::vector<ObjectId> ids(fixed);
  for (std::size_t b = 0; b < fixed; ++b) ids[b] = simulation.body_id(static_cast<BodyIndex>(b));
  return ids;
}

PeerHandle::PeerHandle(const PeerConfig& config, py::object simulation, TransportHandle& transport)
    : simulation_(std::move(simulation)) {
  if (!py::isinstance<Simulation>(simulation_)) {
    throw py::type_error("shoal.Peer: expected a shoal.Simulation (ReferencePhysics, or a subclass of Simulation), got " +
                         std::string(py::str(simulation_.get_type().attr("__name__"))));
  }
  Simulation& world = simulation_.cast<Simulation&>();
  body_ids_ = fixed_body_ids(world);
  owned_ = std::make_unique<Peer>(config, world, transport.take("a shoal.Peer"));
  peer_ = owned_.get();
}

PeerHandle::PeerHandle(Peer& borrowed, std::vector<ObjectId> body_ids)
    : peer_(&borrowed), borrowed_(true), body_ids_(std::move(body_ids)) {}

PeerHandle::~PeerHandle() = default;

std::unique_lock<std::recursive_mutex> PeerHandle::lock_for_call() {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) {
    throw std::logic_error("shoal.Peer: another thread is in this peer's update(), wait() or leave(): "
                           "a peer takes one call at a time");
  }
  peer();
  return lock;
}

std::unique_lock<std::recursive_mutex> PeerHandle::wait_for_call() {
  std::unique_lock lock(mutex_);
  peer();
  return lock;
}

Peer& PeerHandle::peer() const {
  if (peer_ == nullptr) {
    throw std::logic_error(borrowed_ ? "shoal.Peer: this replayed peer is gone (its replay ended, or it was a callback's)"
                                     : "shoal.Peer: the peer is closed (it left the match)");
  }
  return *peer_;
}

Peer& PeerHandle::peer_to_drive(const char* call) const {
  Peer& p = peer();
  if (borrowed_) {
    throw std::logic_error(std::string("shoal.Peer.") + call + ": this peer is replayed: its replay drives it, Python reads it");
  }
  return p;
}

void PeerHandle::close() {
  std::unique_ptr<Peer> closing;
  {
    py::gil_scoped_release release;
    std::lock_guard lock(mutex_);
    if (owned_ && owned_->in_match()) owned_->leave();
    closing = std::move(owned_);
    peer_ = nullptr;
  }
  closing.reset();  // with the GIL: its config's Python callbacks go with it
}

void PeerHandle::invalidate() {
  std::lock_guard lock(mutex_);
  peer_ = nullptr;
}

namespace {

// A call on the peer that keeps the GIL: quick reads and commands.
template <class Call>
auto with_peer(PeerHandle& h, Call&& call) {
  const auto lock = h.lock_for_call();
  return call(h.peer());
}

// A call that changes what the peer does (not for a replayed peer), keeping the GIL.
template <class Call>
auto driving(PeerHandle& h, const char* name, Call&& call) {
  const auto lock = h.lock_for_call();
  return call(h.peer_to_drive(name));
}

// A call that may block or run the simulation: without the GIL, under the peer's lock.
template <class Call>
void without_gil(PeerHandle& h, const char* name, Call&& call) {
  py::gil_scoped_release release;
  const auto lock = h.wait_for_call();
  call(h.peer_to_drive(name));
}

py::array states_now(PeerHandle& h, const py::object& ids_arg) {
  const std::vector<ObjectId> ids = ids_or(ids_arg, h.body_ids());
  py::array array = state_array({static_cast<py::ssize_t>(ids.size())});
  StateRecord* records = state_records(array);
  with_peer(h, [&](const Peer& p) {
    for (std::size_t i = 0; i < ids.size(); ++i) fill(records[i], ids[i], p.state(ids[i]));
  });
  return array;
}

py::array states_then(PeerHandle& h, Frame frame, const py::object& ids_arg) {
  const std::vector<ObjectId> ids = ids_or(ids_arg, h.body_ids());
  py::array array = state_array({static_cast<py::ssize_t>(ids.size())});
  StateRecord* records = state_records(array);
  with_peer(h, [&](const Peer& p) {
    for (std::size_t i = 0; i < ids.size(); ++i) fill(records[i], ids[i], p.state_at(ids[i], frame));
  });
  return array;
}

py::array visuals_now(PeerHandle& h, const py::object& ids_arg) {
  const std::vector<ObjectId> ids = ids_or(ids_arg, h.body_ids());
  py::array array = visual_array(ids.size());
  VisualRecord* records = visual_records(array);
  with_peer(h, [&](const Peer& p) {
    for (std::size_t i = 0; i < ids.size(); ++i) fill(records[i], ids[i], p.visual(ids[i]));
  });
  return array;
}

py::array_t<std::uint16_t> owners_now(PeerHandle& h, const py::object& ids_arg) {
  const std::vector<ObjectId> ids = ids_or(ids_arg, h.body_ids());
  py::array_t<std::uint16_t> array(static_cast<py::ssize_t>(ids.size()));
  std::uint16_t* owners = array.mutable_data();
  with_peer(h, [&](const Peer& p) {
    for (std::size_t i = 0; i < ids.size(); ++i) owners[i] = p.owner(ids[i]);
  });
  return array;
}

py::list take_events(PeerHandle& h) {
  py::list events;
  driving(h, "events", [&](Peer& p) {
    for (Event e; p.poll_event(e);) events.append(std::move(e));
  });
  return events;
}

}  // namespace

void bind_peer(py::module_& m) {
  py::class_<PeerHandle>(m, "Peer",
      "One player's end of a match: hosts or joins, steps the shared world, sends what it owns and corrects what "
      "others own. Peer(config, simulation, transport) takes the transport; the simulation must hold the same "
      "bodies on every peer. A context manager: `with shoal.Peer(...) as peer:` leaves the match on exit.")
      .def(py::init([](const PeerConfig& config, py::object simulation, TransportHandle& transport) {
             return std::make_unique<PeerHandle>(config, std::move(simulation), transport);
           }),
           "config"_a, "simulation"_a, "transport"_a,
           "Raises InvalidArgument naming the field when the config is wrong (the transport is closed then).")
      .def("host", [](PeerHandle& h) { driving(h, "host", [](Peer& p) { p.host(); }); }, "Starts a match as its host (peer 0).")
      .def("join", [](PeerHandle& h, const Address& host) { driving(h, "join", [&](Peer& p) { p.join(host); }); }, "host"_a,
           "Joins the match hosted at `host` (an Address, a (host, port) pair or 'host:port').")
      .def("record", [](PeerHandle& h, const std::string& path, const py::object& world) {
             const std::vector<std::uint8_t> bytes = bytes_of(world);
             with_peer(h, [&](Peer& p) { p.record(path, bytes); });
           },
           "path"_a, "world"_a = py::bytes(),
           "Records everything that reaches this peer to `path` (before host() or join()), for Replay.")
      .def("leave", [](PeerHandle& h) { without_gil(h, "leave", [](Peer& p) { p.leave(); }); },
           "Leaves the match gracefully (blocks up to 250 ms, without the GIL).")
      .def("set_controlled", [](PeerHandle& h, ObjectId object) { driving(h, "set_controlled", [&](Peer& p) { p.set_controlled(object); }); },
           "object"_a, "The object the local player drives.")
      .def("set_input", [](PeerHandle& h, const Input& input) { driving(h, "set_input", [&](Peer& p) { p.set_input(input); }); },
           "input"_a, "Input for the frames simulated from now on, until changed.")
      .def("update", [](PeerHandle& h) { without_gil(h, "update", [](Peer& p) { p.update(); }); },
           "Runs the frames due by the steady clock, then refreshes visual states (without the GIL).")
      .def("update_at", [](PeerHandle& h, std::int64_t now_us) { without_gil(h, "update_at", [&](Peer& p) { p.update_at(now_us); }); },
           "now_us"_a, "The same at an explicit time (microseconds on any monotonic clock): tests and replays.")
      .def("poll_event", [](PeerHandle& h) -> std::optional<Event> {
             return driving(h, "poll_event", [](Peer& p) -> std::optional<Event> {
               Event e;
               if (!p.poll_event(e)) return std::nullopt;
               return e;
             });
           },
           "The next event, or None.")
      .def("events", &take_events, "Every event waiting, oldest first (a list: `for event in peer.events():`).")
      .def("wait", [](PeerHandle& h, int timeout_ms) { without_gil(h, "wait", [&](Peer& p) { p.wait(timeout_ms); }); },
           "timeout_ms"_a, "Blocks (without the GIL) until traffic arrives or timeout_ms pass.")
      .def("spawn", [](PeerHandle& h, std::uint16_t type, const ObjectState& state, const py::object& spawn_bytes) {
             const std::vector<std::uint8_t> bytes = bytes_of(spawn_bytes);
             return driving(h, "spawn", [&](Peer& p) { return p.spawn(type, state, bytes); });
           },
           "type"_a, "state"_a, "spawn_bytes"_a = py::bytes(), "Spawns an object of game-defined type; returns its id.")
      .def("remove", [](PeerHandle& h, ObjectId object) { driving(h, "remove", [&](Peer& p) { p.remove(object); }); }, "object"_a,
           "Removes a spawned object this peer owns, on every peer.")
      .def("send_message", [](PeerHandle& h, PeerId to, const py::object& data, Delivery delivery, Frame frame) {
             const std::vector<std::uint8_t> bytes = bytes_of(data);
             return driving(h, "send_message", [&](Peer& p) { return p.send_message(to, bytes, delivery, frame); });
           },
           "to"_a, "data"_a, "delivery"_a = Delivery::reliable, "frame"_a = kNoFrame,
           "Sends a game message to peer `to` (NO_PEER: every other peer); False when over this peer's rate.")
      .def("spawned_objects", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.spawned_objects(); }); },
           "The spawned objects alive here, ascending id.")
      .def("spawned_object", [](PeerHandle& h, ObjectId object) {
             return with_peer(h, [&](const Peer& p) { return p.spawned_object(object); });
           },
           "object"_a, "A live spawned object's type, spawner, frame and spawn bytes; None for any other id.")
      .def("visual", [](PeerHandle& h, ObjectId object) { return with_peer(h, [&](const Peer& p) { return p.visual(object); }); },
           "object"_a, "What to draw: the smoothed, render-interpolated state.")
      .def("state", [](PeerHandle& h, ObjectId object) { return with_peer(h, [&](const Peer& p) { return p.state(object); }); },
           "object"_a, "The simulation state at the newest frame.")
      .def("state_at", [](PeerHandle& h, ObjectId object, Frame frame) {
             return with_peer(h, [&](const Peer& p) { return p.state_at(object, frame); });
           },
           "object"_a, "frame"_a, "The state at a frame still held in the history, or None.")
      .def("owner", [](PeerHandle& h, ObjectId object) { return with_peer(h, [&](const Peer& p) { return p.owner(object); }); },
           "object"_a, "The object's owner now (NO_PEER before the match).")
      .def("diagnose", [](PeerHandle& h, ObjectId object, Frame frame) {
             return with_peer(h, [&](const Peer& p) { return p.diagnose(object, frame); });
           },
           "object"_a, "frame"_a, "What this peer knows of the object at frame: for finding out why peers disagree.")
      .def_property_readonly("id", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.id(); }); },
                             "this peer's id (NO_PEER until hosted or joined)")
      .def_property_readonly("in_match", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.in_match(); }); },
                             "hosting, or joined and synchronised")
      .def_property_readonly("join_progress", [](PeerHandle& h) {
                               return with_peer(h, [](const Peer& p) { return p.join_progress(); });
                             },
                             "which step of joining the peer is in")
      .def_property_readonly("frame", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.frame(); }); },
                             "the newest frame simulated (NO_FRAME before the match)")
      .def_property_readonly("peers", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.peers(); }); },
                             "live peers, self included, ascending")
      .def("stats", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.stats(); }); },
           "Counters and link figures so far.")
      .def_property_readonly("address", [](PeerHandle& h) { return with_peer(h, [](const Peer& p) { return p.address(); }); },
                             "where other peers reach this one")
      .def("set_conditions", [](PeerHandle& h, const ConditionerConfig& c) {
             driving(h, "set_conditions", [&](Peer& p) { p.set_conditions(c); });
           },
           "conditions"_a, "Changes the transport's simulated network at run time.")
      // Many objects at once, as numpy arrays (STATE_DTYPE, VISUAL_DTYPE): ids default to every
      // fixed body of the simulation, in its order.
      .def_property_readonly("body_ids", [](const PeerHandle& h) { return py::array_t<ObjectId>(static_cast<py::ssize_t>(h.body_ids().size()), h.body_ids().data()); },
                             "the simulation's fixed bodies' ids, in its order (a uint32 array)")
      .def("states", &states_now, "ids"_a = py::none(),
           "Every body's state at the newest frame, one call: a STATE_DTYPE array (states['position'] is (N, 3)).")
      .def("states_at", &states_then, "frame"_a, "ids"_a = py::none(),
           "The states at a frame of the history; NaN (and at_rest False) where it is not held.")
      .def("visuals", &visuals_now, "ids"_a = py::none(), "What to draw for every body: a VISUAL_DTYPE array.")
      .def("owners", &owners_now, "ids"_a = py::none(), "Every body's owner now: a uint16 array (NO_PEER: none).")
      .def("close", &PeerHandle::close, "Leaves the match (when in it) and frees the peer and its transport.")
      .def_property_readonly("closed", &PeerHandle::closed, "whether close() was called (or the replay moved on)")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PeerHandle& h, py::args) { h.close(); })
      .def("__repr__", [](PeerHandle& h) -> std::string {
        if (h.closed()) return "shoal.Peer(closed)";
        const auto lock = h.lock_for_call();
        const Peer& p = h.peer();
        return "shoal.Peer(id=" + (p.id() == kNoPeer ? std::string("NO_PEER") : std::to_string(p.id())) +
               ", frame=" + std::to_string(p.frame()) + ", " + std::string(to_string(p.join_progress().step)) + ")";
      });
}

}  // namespace shoal::python
