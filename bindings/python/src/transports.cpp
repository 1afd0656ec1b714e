// SPDX-License-Identifier: MIT
// Transports made from Python: ENet over UDP, endpoints of the in-process MemoryNetwork, and any
// of them secured; credentials and the session authority that signs them. Relay and hybrid
// transports are in relay.cpp.
#include <chrono>

#include "bind.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/security.hpp"
#include "transport_handle.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

void bind_handle(py::module_& m) {
  py::enum_<Channel>(m, "Channel", "A transport's channels, by purpose.")
      .value("control", Channel::control, "reliable, ordered")
      .value("state", Channel::state, "unreliable, sequenced")
      .value("time", Channel::time, "unreliable, unsequenced");
  py::class_<TransportHandle>(m, "Transport",
                              "A transport until a Peer takes it (Peer(config, world, transport)): the Peer owns it from "
                              "then on. A context manager: leaving the block closes a transport no Peer took.")
      .def_property_readonly("address", [](const TransportHandle& t) { return t.get().local_address(); },
                             "where this transport listens")
      .def_property_readonly("max_message_size", [](const TransportHandle& t) { return t.get().max_message_size(); },
                             "the largest message it sends")
      .def("set_conditions", [](const TransportHandle& t, const ConditionerConfig& c) { t.get().set_conditions(c); },
           "conditions"_a, "Changes the simulated network (every connection, both directions).")
      .def_property_readonly("open", &TransportHandle::open, "whether this object still holds its transport")
      .def_property_readonly("kind", &TransportHandle::kind, "enet, memory, relay, hybrid or secured ...")
      .def("close", &TransportHandle::close, "Closes the transport (its socket) unless a Peer took it.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](TransportHandle& t, py::args) { t.close(); })
      .def("__repr__", &TransportHandle::describe);
}

void bind_security(py::module_& m) {
  py::class_<Credentials>(m, "Credentials",
                          "What one invited peer needs to join a secure session (SessionAuthority.invite). Secret.")
      .def(py::init<>())
      .def_property_readonly("empty", &Credentials::empty, "whether there are none")
      .def("to_text", &Credentials::to_text, "Printable form (hexadecimal).")
      .def_static("from_text", &Credentials::from_text, "text"_a, "to_text()'s form back; None when it is not well-formed.")
      .def_property_readonly("session", &Credentials::session, "the session the token names")
      .def_property_readonly("expires_unix_s", &Credentials::expires_unix_s, "when the token expires")
      .def("__eq__", [](const Credentials& a, const Credentials& b) { return a.bytes == b.bytes; }, py::is_operator())
      .def("__repr__", [](const Credentials& c) {
        return c.empty() ? std::string("Credentials()") : "Credentials(session='" + c.session() + "', ...)";
      })
      .attr("__hash__") = py::none();
  Struct<SecurityConfig>(m, "SecurityConfig", "Whether a transport encrypts its links, and with which credentials.")
      .field("enabled", &SecurityConfig::enabled, "on by default: then credentials are needed")
      .field("credentials", &SecurityConfig::credentials, "this peer's, from the session's SessionAuthority")
      .field("token_grace_ms", &SecurityConfig::token_grace_ms, "a connection without a valid token is closed after this")
      .property(
          "audit_key",
          [](const SecurityConfig& s) -> py::object {
            if (!s.audit_key) return py::none();
            return py::bytes(reinterpret_cast<const char*>(s.audit_key->data()), s.audit_key->size());
          },
          [](SecurityConfig& s, const py::object& key) {
            if (key.is_none()) {
              s.audit_key.reset();
              return;
            }
            const std::vector<std::uint8_t> bytes = bytes_of(key);
            if (bytes.size() != 32) {
              throw std::invalid_argument("SecurityConfig.audit_key: " + std::to_string(bytes.size()) +
                                          " bytes, expected 32 (AuditingRelay's key) or None");
            }
            s.audit_key.emplace();
            std::copy(bytes.begin(), bytes.end(), s.audit_key->begin());
          },
          "an auditing relay's key (32 bytes) or None");
  py::class_<SessionAuthority>(m, "SessionAuthority", "Issues the join tokens of one session (holds its signing key).")
      .def(py::init<std::string>(), "session"_a)
      .def("invite", [](const SessionAuthority& a, double validity_s) {
             return a.invite(std::chrono::seconds(static_cast<std::int64_t>(validity_s)));
           },
           "validity_s"_a = 12 * 3600.0, "Credentials for one peer, valid from now for validity_s seconds.")
      .def("invite_until", [](const SessionAuthority& a, std::int64_t expires, const std::string& session) {
             return a.invite_until(expires, session);
           },
           "expires_unix_s"_a, "session"_a = "", "Credentials expiring then (and naming another session if given).")
      .def_property_readonly("session", &SessionAuthority::session, "the session it signs for")
      .def_property_readonly("public_key", [](const SessionAuthority& a) {
        const auto key = a.public_key();
        return py::bytes(reinterpret_cast<const char*>(key.data()), key.size());
      }, "its public key");
  m.def("secure_transport", [](TransportHandle& inner, const SecurityConfig& security) {
          const std::string kind = inner.kind();
          return TransportHandle(make_secure_transport(inner.take("a secured transport"), security), "secured " + kind);
        },
        "inner"_a, "security"_a,
        "Wraps a transport (a MemoryNetwork endpoint, say) so that its links are secured; takes `inner`.");
}

void bind_enet(py::module_& m) {
  Struct<TransportConfig>(m, "TransportConfig", "How an ENet transport binds and behaves (make_enet_transport).")
      .field("bind_host", &TransportConfig::bind_host, "the local address to bind")
      .field("port", &TransportConfig::port, "0 = any free port")
      .field("max_connections", &TransportConfig::max_connections, "connections accepted at once")
      .field("timeout_ms", &TransportConfig::timeout_ms, "silence after which a connection times out")
      .field("conditioner", &TransportConfig::conditioner, "the simulated network, none by default")
      .field("security", &TransportConfig::security, "encryption and join tokens: on by default");
  m.def("make_enet_transport", [](const TransportConfig& config) { return TransportHandle(make_enet_transport(config), "enet"); },
        "config"_a, "An ENet transport bound to config.bind_host:config.port (see also enet_transport()).");
}

void bind_memory_network(py::module_& m) {
  py::class_<MemoryNetwork>(m, "MemoryNetwork",
                            "An in-process network whose clock and delivery the caller controls: endpoints exchange "
                            "datagrams without sockets, impaired the same way on every run of one seed. Drive its peers "
                            "with Peer.update_at(network.time_us).")
      .def(py::init<std::uint64_t>(), "seed"_a = 1)
      .def("endpoint", [](MemoryNetwork& n, std::uint16_t port, std::uint32_t timeout_ms) {
             return TransportHandle(n.create_endpoint(port, timeout_ms), "memory");
           },
           "port"_a = 0, "timeout_ms"_a = 5000, "A new endpoint at 'mem:<port>' (0: the next free port).")
      .def_property("time_us", &MemoryNetwork::time_us, &MemoryNetwork::set_time_us, "the network's clock, microseconds")
      .def("set_time_us", &MemoryNetwork::set_time_us, "now_us"_a, "Sets the network's clock.")
      .def("set_conditions", py::overload_cast<const LinkConditions&>(&MemoryNetwork::set_conditions), "conditions"_a,
           "Impairs every link, both directions.")
      .def("set_conditions",
           py::overload_cast<std::uint16_t, std::uint16_t, const LinkConditions&>(&MemoryNetwork::set_conditions),
           "from_port"_a, "to_port"_a, "conditions"_a, "Impairs the direction from -> to only.")
      .def("set_blocked", &MemoryNetwork::set_blocked, "port_a"_a, "port_b"_a, "blocked"_a,
           "Cuts (or restores) both directions between two endpoints.")
      .def("crash", &MemoryNetwork::crash, "port"_a, "Makes an endpoint fall silent as if its process crashed.");
}

}  // namespace

void bind_transports(py::module_& m) {
  bind_handle(m);
  bind_security(m);
  bind_enet(m);
  bind_memory_network(m);
}

}  // namespace shoal::python
