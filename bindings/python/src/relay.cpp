// SPDX-License-Identifier: MIT
// Playing through a relay (shoal-relay): relay and hybrid transports, and the lobby calls.
#include "bind.hpp"
#include "shoal/relay.hpp"
#include "transport_handle.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

}  // namespace

void bind_relay(py::module_& m) {
  m.attr("RELAY_HOST_SLOT") = kRelayHostSlot;
  m.def("relay_peer_address", &relay_peer_address, "slot"_a, "The virtual address of the member in `slot`.");
  m.def("relay_host_address", &relay_host_address, "The virtual address of the match host on a relay.");
  Struct<RelayClientConfig>(m, "RelayClientConfig", "How a relay client reaches its relay and which session it joins.")
      .field("relay", &RelayClientConfig::relay, "the relay server")
      .field("session", &RelayClientConfig::session, "session id (created by its first member); or empty and...")
      .field("code", &RelayClientConfig::code, "...the short code of a running session")
      .field("token", &RelayClientConfig::token, "must equal the token the session was created with")
      .field("slot", &RelayClientConfig::slot, "0: any free slot; RELAY_HOST_SLOT for the match host")
      .field("local", &RelayClientConfig::local, "the local ENet socket")
      .field("resume_timeout_ms", &RelayClientConfig::resume_timeout_ms, "how long a connection outlives the relay")
      .field("relay_timeout_ms", &RelayClientConfig::relay_timeout_ms, "silence after which the relay counts as lost");
  Record<RelaySessionInfo>(m, "RelaySessionInfo", "One session running on a relay.")
      .field("session", &RelaySessionInfo::session, "its id")
      .field("code", &RelaySessionInfo::code, "its short code")
      .field("members", &RelaySessionInfo::members, "members in it now");
  m.def("make_relay_transport", [](const RelayClientConfig& c) { return TransportHandle(make_relay_transport(c), "relay"); },
        "config"_a, "A transport whose connections go through a relay; it joins as the Peer polls it.");
  m.def("list_relay_sessions", &list_relay_sessions, "relay"_a, "timeout_ms"_a = 2000,
        py::call_guard<py::gil_scoped_release>(),
        "The sessions running on a relay (blocks up to timeout_ms, without the GIL); OperationError when it does not answer.");
  m.def("relay_session_code", &relay_session_code, "session"_a, "The short code a session id gets on every relay.");

  py::enum_<Path>(m, "Path", "Which way a hybrid connection's messages go.")
      .value("none", Path::none)
      .value("direct", Path::direct)
      .value("relay", Path::relay);
  Struct<HybridConfig>(m, "HybridConfig", "A hybrid transport: direct ENet where possible, the relay where not.")
      .field("relay", &HybridConfig::relay, "the fallback (its local socket is the direct one)")
      .field("direct", &HybridConfig::direct, "the one socket")
      .field("direct_timeout_ms", &HybridConfig::direct_timeout_ms, "no direct connection within this: use the relay")
      .field("direct_retry_ms", &HybridConfig::direct_retry_ms, "while on the relay, try direct again this often");
  m.def("hybrid_address", &hybrid_address, "direct"_a, "relay_slot"_a, "A peer's hybrid address: direct, and its relay slot.");
  m.def("make_hybrid_transport", [](const HybridConfig& c) { return TransportHandle(make_hybrid_transport(c), "hybrid"); },
        "config"_a, "A transport that reaches each remote directly when it can and through the relay when not.");
}

}  // namespace shoal::python
