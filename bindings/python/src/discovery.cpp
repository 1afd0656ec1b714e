// SPDX-License-Identifier: MIT
// LAN discovery: a host announces its session, a joiner finds it without typing an address.
#include "bind.hpp"
#include "shoal/lan_discovery.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

/// An announcer or seeker Python may close before it is collected (its socket with it).
template <class T>
struct Closable {
  std::unique_ptr<T> object;
  T& get() const {
    if (!object) throw std::logic_error(std::string("shoal.") + name() + ": closed");
    return *object;
  }
  static const char* name() { return std::is_same_v<T, LanAnnouncer> ? "LanAnnouncer" : "LanSeeker"; }
};

}  // namespace

void bind_discovery(py::module_& m) {
  m.def("protocol_version", &protocol_version, "The LAN discovery protocol version this build speaks.");
  Struct<LanDiscoveryConfig>(m, "LanDiscoveryConfig", "Where and how often LAN sessions are announced.")
      .field("port", &LanDiscoveryConfig::port, "UDP port announcements go to, 1..65535")
      .field("announce_interval_ms", &LanDiscoveryConfig::announce_interval_ms, "time between announcements, 10..10000")
      .field("loopback_only", &LanDiscoveryConfig::loopback_only, "announce to 127.255.255.255 only (this machine)");
  Record<LanSession>(m, "LanSession", "One heard announcement.")
      .field("session", &LanSession::session, "the session's name")
      .field("address", &LanSession::address, "where the host's transport listens")
      .field("protocol_version", &LanSession::protocol_version, "the announcing build's");
  Record<LanDiscoveryStats>(m, "LanDiscoveryStats", "What an announcer or a seeker has sent, heard and dropped.")
      .field("sent", &LanDiscoveryStats::sent, "announcement datagrams sent")
      .field("received", &LanDiscoveryStats::received, "datagrams heard on the discovery port")
      .field("other_sessions", &LanDiscoveryStats::other_sessions, "well-formed announcements of another session")
      .field("dropped", &LanDiscoveryStats::dropped, "garbage, wrong version, truncated...: by reason");

  using Announcer = Closable<LanAnnouncer>;
  py::class_<Announcer>(m, "LanAnnouncer", "Broadcasts one session (call update() every frame). A context manager.")
      .def(py::init([](const LanDiscoveryConfig& config, const std::string& session, const Address& address) {
             return Announcer{std::make_unique<LanAnnouncer>(config, session, address)};
           }),
           "config"_a, "session"_a, "address"_a)
      .def("update", [](const Announcer& a) { a.get().update(); }, "Sends the announcement when the interval has passed.")
      .def("stats", [](const Announcer& a) { return a.get().stats(); }, "What it has sent so far.")
      .def("close", [](Announcer& a) { a.object.reset(); }, "Stops announcing and closes the socket.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](Announcer& a, py::args) { a.object.reset(); });
  using Seeker = Closable<LanSeeker>;
  py::class_<Seeker>(m, "LanSeeker", "Listens on the discovery port for sessions. A context manager.")
      .def(py::init([](const LanDiscoveryConfig& config) { return Seeker{std::make_unique<LanSeeker>(config)}; }),
           "config"_a = LanDiscoveryConfig{})
      .def("poll", [](const Seeker& s, const std::string& session) { return s.get().poll(session); }, "session"_a,
           "The first matching announcement that arrived, or None, without blocking.")
      .def("find", [](const Seeker& s, const std::string& session, int timeout_ms) {
             LanSeeker& seeker = s.get();
             py::gil_scoped_release release;
             return seeker.find(session, timeout_ms);
           },
           "session"_a, "timeout_ms"_a, "Waits (without the GIL) up to timeout_ms for a matching announcement.")
      .def("stats", [](const Seeker& s) { return s.get().stats(); }, "What it has heard and dropped so far.")
      .def("close", [](Seeker& s) { s.object.reset(); }, "Closes the socket.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](Seeker& s, py::args) { s.object.reset(); });
}

}  // namespace shoal::python
