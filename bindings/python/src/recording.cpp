// SPDX-License-Identifier: MIT
// Reading a recording (.shoalrec, Peer.record) and replaying it from Python: the whole of it
// (Replay.run), one update at a time (ReplaySession), or into numpy arrays of every frame's
// states (Replay.states), so that a desync can be studied in a notebook.
#include <map>

#include "peer_handle.hpp"
#include "shoal/recording.hpp"
#include "state_arrays.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

/// A ReplaySession and the borrowed shoal.Peer that Python sees of its replayed peer.
class SessionHandle {
 public:
  SessionHandle(py::object replay, py::object simulation, const ReplayOptions& options)
      : replay_(std::move(replay)), simulation_(std::move(simulation)) {
    if (!py::isinstance<Replay>(replay_)) throw py::type_error("ReplaySession: expected a shoal.Replay first");
    if (!py::isinstance<Simulation>(simulation_)) throw py::type_error("ReplaySession: expected a shoal.Simulation second");
    Simulation& world = simulation_.cast<Simulation&>();
    session_ = std::make_unique<ReplaySession>(replay_.cast<const Replay&>(), world, options);
    peer_ = py::cast(std::make_unique<PeerHandle>(session_->peer(), fixed_body_ids(world)));
  }
  ~SessionHandle() { peer_handle().invalidate(); }
  SessionHandle(const SessionHandle&) = delete;
  SessionHandle& operator=(const SessionHandle&) = delete;

  std::optional<std::int64_t> next() {
    PeerHandle& peer = peer_handle();
    py::gil_scoped_release release;
    const auto lock = peer.wait_for_call();
    return session_->next();
  }
  void update() {
    PeerHandle& peer = peer_handle();
    py::gil_scoped_release release;
    const auto lock = peer.wait_for_call();
    session_->update();
  }
  ReplayReport report() const { return session_->report(); }
  py::object peer() const { return peer_; }

 private:
  PeerHandle& peer_handle() const { return peer_.cast<PeerHandle&>(); }
  py::object replay_, simulation_;  // kept alive while the session uses them
  std::unique_ptr<ReplaySession> session_;
  py::object peer_;
};

/// Every frame a replayed peer simulated, as states (Replay.states).
struct ReplayStates {
  py::array frames;  ///< int32, ascending
  py::array states;  ///< STATE_DTYPE, (frames, ids)
  py::array ids;     ///< uint32
  ReplayReport report;
};

ReplayStates replay_states(const Replay& replay, Simulation& simulation, const py::object& ids_arg, bool settled) {
  const std::vector<ObjectId> fixed = fixed_body_ids(simulation);
  const std::vector<ObjectId> ids = ids_or(ids_arg, fixed);
  std::map<Frame, std::vector<StateRecord>> rows;  // by frame
  ReplayReport report;
  {
    py::gil_scoped_release release;
    ReplaySession session(replay, simulation);
    const int history = replay.config().history_frames;
    Frame settled_below = kNoFrame + 1;  // frames below it are out of the history: final
    auto take = [&](const Peer& peer, Frame frame) {
      std::vector<StateRecord>& row = rows[frame];
      row.resize(ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) fill(row[i], ids[i], peer.state_at(ids[i], frame));
    };
    while (session.next()) {
      session.update();
      const Peer& peer = session.peer();
      const Frame newest = peer.frame();
      if (newest == kNoFrame) continue;
      const Frame oldest = std::max(settled_below, newest - history + 1);
      for (Frame f = oldest; f <= newest; ++f) {
        if (settled || !rows.contains(f)) {
          if (ids.empty() || peer.state_at(ids.front(), f)) take(peer, f);
        }
      }
      settled_below = std::max(settled_below, oldest);
    }
    report = session.report();
  }
  ReplayStates out;
  out.report = report;
  out.ids = py::array_t<ObjectId>(static_cast<py::ssize_t>(ids.size()), ids.data());
  if (rows.empty()) {
    out.frames = py::array_t<Frame>(0);
    out.states = state_array({0, static_cast<py::ssize_t>(ids.size())});
    return out;
  }
  // One row per frame from the first to the last; a frame never held (none, normally) is NaN.
  const Frame first = rows.begin()->first, last = rows.rbegin()->first;
  const auto count = static_cast<py::ssize_t>(last - first + 1);
  py::array_t<Frame> frames(count);
  py::array states = state_array({count, static_cast<py::ssize_t>(ids.size())});
  StateRecord* records = state_records(states);
  for (Frame f = first; f <= last; ++f) {
    const std::size_t row = static_cast<std::size_t>(f - first);
    frames.mutable_data()[row] = f;
    const auto found = rows.find(f);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      StateRecord& record = records[row * ids.size() + i];
      if (found != rows.end()) {
        record = found->second[i];
      } else {
        fill(record, ids[i], std::nullopt);
      }
    }
  }
  out.frames = frames;
  out.states = states;
  return out;
}

}  // namespace

void bind_recording(py::module_& m) {
  Record<ReplayReport>(m, "ReplayReport", "What a replay found: whether the replayed peer did exactly what the recorded one did.")
      .field("identical", &ReplayReport::identical, "every check and the final states matched the recording")
      .field("updates", &ReplayReport::updates, "update() calls replayed")
      .field("checks", &ReplayReport::checks, "of which compared")
      .field("final_frame", &ReplayReport::final_frame, "the replayed peer's newest frame at the end")
      .field("first_difference", &ReplayReport::first_difference, "empty when identical; else where it first differed")
      .field("differing_objects", &ReplayReport::differing_objects, "bodies whose final state differs")
      .field("stats", &ReplayReport::stats, "the replayed peer's statistics at the end");
  Struct<ReplayOptions>(m, "ReplayOptions", "What a replay may do differently without changing what it simulates or sends.")
      .field("measure_update_cost", &ReplayOptions::measure_update_cost, "PeerConfig.measure_update_cost")
      .field("smoothing", &ReplayOptions::smoothing, "other smoothing rules, or None");
  py::class_<ReplayStates>(m, "ReplayStates", "Every frame a replayed peer simulated, as numpy arrays (Replay.states).")
      .def_readonly("frames", &ReplayStates::frames, "the frames (int32), ascending, one per row of states")
      .def_readonly("states", &ReplayStates::states, "STATE_DTYPE, shape (frames, ids); NaN where not held")
      .def_readonly("ids", &ReplayStates::ids, "the objects (uint32), one per column of states")
      .def_readonly("report", &ReplayStates::report, "what the replay found")
      .def("__repr__", [](const ReplayStates& s) {
        return "ReplayStates(" + std::to_string(py::len(s.frames)) + " frames x " + std::to_string(py::len(s.ids)) +
               " objects, identical=" + (s.report.identical ? "True" : "False") + ")";
      });

  py::class_<Replay>(m, "Replay",
      "A recording made with Peer.record, read whole: run it again on the same world (run, states) or one update at "
      "a time (ReplaySession). OperationError names the file and what is wrong with it.")
      .def(py::init<const std::string&>(), "path"_a, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("config", &Replay::config, py::return_value_policy::copy, "the recorded peer's config")
      .def_property_readonly("world", [](const Replay& r) {
        return py::bytes(reinterpret_cast<const char*>(r.world().data()), r.world().size());
      }, "the description of its world the game gave to Peer.record")
      .def_property_readonly("complete", &Replay::complete, "whether the recording ends with its end record")
      .def("run", [](const Replay& r, Simulation& simulation, const py::object& after_update, const ReplayOptions& options) {
             std::function<void(const Peer&)> callback;
             if (!after_update.is_none()) {
               const std::vector<ObjectId> ids = fixed_body_ids(simulation);
               callback = [&after_update, ids](const Peer& peer) {
                 py::gil_scoped_acquire gil;
                 auto handle = std::make_unique<PeerHandle>(const_cast<Peer&>(peer), ids);
                 PeerHandle* seen = handle.get();
                 const py::object borrowed = py::cast(std::move(handle));
                 try {
                   after_update(borrowed);
                 } catch (...) {
                   seen->invalidate();
                   throw;
                 }
                 seen->invalidate();
               };
             }
             py::gil_scoped_release release;
             return r.run(simulation, callback, options);
           },
           "simulation"_a, "after_update"_a = py::none(), "options"_a = ReplayOptions{},
           "Runs a fresh peer on `simulation` (the recorded world) through the whole recording, without the GIL. "
           "after_update(peer), if given, sees the replayed peer after each update (valid during the call only).")
      .def("states", [](const Replay& r, Simulation& simulation, const py::object& ids, bool settled) {
             return replay_states(r, simulation, ids, settled);
           },
           "simulation"_a, "ids"_a = py::none(), "settled"_a = false,
           "Replays the recording and returns every frame's states (ReplayStates): as the peer first simulated each "
           "frame, or with settled=True as it held the frame last, corrections included, before the frame left its "
           "history.");

  py::class_<SessionHandle>(m, "ReplaySession",
      "A replay played one update at a time: `for now_us in session: session.update()`, then session.report().")
      .def(py::init<py::object, py::object, const ReplayOptions&>(), "replay"_a, "simulation"_a,
           "options"_a = ReplayOptions{})
      .def("next", &SessionHandle::next,
           "Compares the last update, applies the recorded calls before the next one and returns its time; None at "
           "the end or at the first difference.")
      .def("update", &SessionHandle::update, "The update next() announced (without the GIL).")
      .def_property_readonly("peer", &SessionHandle::peer, "the replayed peer (a shoal.Peer it owns)")
      .def("report", &SessionHandle::report, "What the replay found so far.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", [](SessionHandle& s) {
        const std::optional<std::int64_t> at = s.next();
        if (!at) throw py::stop_iteration();
        return *at;
      });
}

}  // namespace shoal::python
