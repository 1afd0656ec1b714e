// SPDX-License-Identifier: MIT
// Plain values: vectors and quaternions (built from any sequence: a tuple, a list, a numpy
// array), object states, inputs, addresses, link conditions, the constants and versions.
#include <array>
#include <cstring>

#include <pybind11/numpy.h>

#include "bind.hpp"
#include "shoal/link_conditions.hpp"
#include "shoal/lan_discovery.hpp"
#include "shoal/math.hpp"
#include "shoal/messages.hpp"
#include "shoal/relay.hpp"
#include "shoal/simulation.hpp"
#include "shoal/smoothing.hpp"
#include "shoal/state.hpp"
#include "shoal/transport.hpp"
#include "shoal/version.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

template <std::size_t N>
std::array<float, N> floats_of(const py::sequence& values, const char* type) {
  if (py::len(values) != N) {
    throw py::value_error(std::string(type) + " takes " + std::to_string(N) + " numbers, got " +
                          std::to_string(py::len(values)));
  }
  std::array<float, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = values[i].cast<float>();
  return out;
}

}  // namespace

Vec3 vec3_of(const py::handle& value, const std::string& where) {
  if (py::isinstance<Vec3>(value)) return value.cast<Vec3>();
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) {
    throw py::type_error(where + ": expected a Vec3 or a sequence of 3 numbers");
  }
  try {
    const auto v = floats_of<3>(py::reinterpret_borrow<py::sequence>(value), "Vec3");
    return {v[0], v[1], v[2]};
  } catch (py::value_error& e) {
    throw py::value_error(where + ": " + e.what());
  }
}

Quat quat_of(const py::handle& value, const std::string& where) {
  if (py::isinstance<Quat>(value)) return value.cast<Quat>();
  if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value)) {
    throw py::type_error(where + ": expected a Quat or a sequence of 4 numbers (w, x, y, z)");
  }
  try {
    const auto q = floats_of<4>(py::reinterpret_borrow<py::sequence>(value), "Quat");
    return {q[0], q[1], q[2], q[3]};
  } catch (py::value_error& e) {
    throw py::value_error(where + ": " + e.what());
  }
}

namespace {

std::string number(float value) { return py::repr(py::float_(value)); }

void bind_vec3(py::module_& m) {
  py::class_<Vec3>(m, "Vec3", "A 3D vector (metres, m/s or rad/s as the field says); y is up. "
                              "Any sequence of three numbers converts to one.")
      .def(py::init([](float x, float y, float z) { return Vec3{x, y, z}; }), "x"_a = 0.0f, "y"_a = 0.0f, "z"_a = 0.0f)
      .def(py::init([](const py::sequence& values) {
             const auto v = floats_of<3>(values, "Vec3");
             return Vec3{v[0], v[1], v[2]};
           }),
           "values"_a)
      .def_readwrite("x", &Vec3::x, "first component")
      .def_readwrite("y", &Vec3::y, "second component (up)")
      .def_readwrite("z", &Vec3::z, "third component")
      .def("__len__", [](const Vec3&) { return 3; })
      .def("__getitem__", [](const Vec3& v, int i) {
        if (i < -3 || i > 2) throw py::index_error("Vec3 index out of range");
        return std::array<float, 3>{v.x, v.y, v.z}[static_cast<std::size_t>((i + 3) % 3)];
      })
      .def("__iter__", [](const Vec3& v) { return py::iter(py::make_tuple(v.x, v.y, v.z)); })
      .def("__repr__", [](const Vec3& v) { return "Vec3(" + number(v.x) + ", " + number(v.y) + ", " + number(v.z) + ")"; })
      .def("__eq__", [](const Vec3& a, const Vec3& b) { return a == b; }, py::is_operator())
      .def("__copy__", [](const Vec3& v) { return v; })
      .def("__deepcopy__", [](const Vec3& v, py::handle) { return v; }, "memo"_a)
      .attr("__hash__") = py::none();
  py::implicitly_convertible<py::tuple, Vec3>();
  py::implicitly_convertible<py::list, Vec3>();
  py::implicitly_convertible<py::array, Vec3>();
}

void bind_quat(py::module_& m) {
  py::class_<Quat>(m, "Quat", "A unit quaternion (w + xi + yj + zk), body to world. Any sequence of four "
                              "numbers (w, x, y, z) converts to one.")
      .def(py::init([](float w, float x, float y, float z) { return Quat{w, x, y, z}; }), "w"_a = 1.0f, "x"_a = 0.0f,
           "y"_a = 0.0f, "z"_a = 0.0f)
      .def(py::init([](const py::sequence& values) {
             const auto q = floats_of<4>(values, "Quat");
             return Quat{q[0], q[1], q[2], q[3]};
           }),
           "values"_a)
      .def_readwrite("w", &Quat::w, "real part")
      .def_readwrite("x", &Quat::x, "i component")
      .def_readwrite("y", &Quat::y, "j component")
      .def_readwrite("z", &Quat::z, "k component")
      .def("__len__", [](const Quat&) { return 4; })
      .def("__getitem__", [](const Quat& q, int i) {
        if (i < -4 || i > 3) throw py::index_error("Quat index out of range");
        return std::array<float, 4>{q.w, q.x, q.y, q.z}[static_cast<std::size_t>((i + 4) % 4)];
      })
      .def("__iter__", [](const Quat& q) { return py::iter(py::make_tuple(q.w, q.x, q.y, q.z)); })
      .def("__repr__", [](const Quat& q) {
        return "Quat(" + number(q.w) + ", " + number(q.x) + ", " + number(q.y) + ", " + number(q.z) + ")";
      })
      .def("__eq__", [](const Quat& a, const Quat& b) { return a == b; }, py::is_operator())
      .def("__copy__", [](const Quat& q) { return q; })
      .def("__deepcopy__", [](const Quat& q, py::handle) { return q; }, "memo"_a)
      .attr("__hash__") = py::none();
  py::implicitly_convertible<py::tuple, Quat>();
  py::implicitly_convertible<py::list, Quat>();
  py::implicitly_convertible<py::array, Quat>();
  m.def("axis_angle", &axis_angle, "axis"_a, "angle"_a, "The rotation by `angle` radians about `axis`.");
  m.def("angle_between", &angle_between, "a"_a, "b"_a,
        "The angle in radians between two orientations (0..pi), q and -q counting as the same.");
}

void bind_states(py::module_& m) {
  Struct<ObjectState>(m, "ObjectState", "The state of one object at one frame.")
      .field("position", &ObjectState::position, "metres, world frame")
      .field("orientation", &ObjectState::orientation, "unit quaternion, body to world")
      .field("linear_velocity", &ObjectState::linear_velocity, "m/s")
      .field("angular_velocity", &ObjectState::angular_velocity, "rad/s, world frame")
      .field("at_rest", &ObjectState::at_rest, "asleep: velocities are zero and the body does not move on its own");
  m.def("empty_slot_state", &empty_slot_state, "What an empty spawn slot reads as: the default state, at rest.");

  Struct<Input>(m, "Input",
                "One frame of a player's input for the object it controls. The reference physics pushes along "
                "`axis` (x and z, length up to 1); `buttons` and `bytes` are the game's.")
      .field("axis", &Input::axis, "a push direction or stick, the game's meaning")
      .field("buttons", &Input::buttons, "button bits, the game's meaning")
      .property(
          "bytes", [](const Input& input) { return py::bytes(reinterpret_cast<const char*>(input.bytes.data()), input.bytes.size()); },
          [](Input& input, const py::handle& data) {
            const std::vector<std::uint8_t> bytes = bytes_of(data);
            if (bytes.size() > input.bytes.size()) {
              throw std::invalid_argument("Input.bytes: " + std::to_string(bytes.size()) + " bytes, expected at most " +
                                          std::to_string(kMaxInputBytes));
            }
            input.bytes.fill(0);
            std::memcpy(input.bytes.data(), bytes.data(), bytes.size());
          },
          "the game's own input: up to MAX_INPUT_BYTES bytes (read back padded with zeros); only the first "
          "SnapshotConfig.input_bytes travel, the rest must be 0");

  Record<BodyInput>(m, "BodyInput", "The input of one controlled body for one frame (Simulation.step gets a list).")
      .field("body", &BodyInput::body, "the body's index in the simulation")
      .field("input", &BodyInput::input, "its input for the frame");

  Struct<VisualState>(m, "VisualState", "What the game draws for an object: smoothed and render-interpolated.")
      .field("position", &VisualState::position, "where to draw the body")
      .field("orientation", &VisualState::orientation, "how to draw it turned");
}

void bind_network_values(py::module_& m) {
  Struct<Address> address(m, "Address", "Where a transport listens or connects: a host name or IPv4 address and a UDP port.");
  address.field("host", &Address::host, "numeric IPv4 address or host name")
      .field("port", &Address::port, "UDP port; 0 = any free one when binding");
  address.cls()
      .def(py::init([](std::string host, std::uint16_t port) { return Address{std::move(host), port}; }), "host"_a, "port"_a)
      .def(py::init([](const py::tuple& pair) {
             if (py::len(pair) != 2) throw py::value_error("Address takes a (host, port) pair");
             return Address{pair[0].cast<std::string>(), pair[1].cast<std::uint16_t>()};
           }),
           "pair"_a)
      .def(py::init([](const std::string& text) {
             const std::size_t colon = text.rfind(':');
             std::size_t used = 0;
             int port = -1;
             try {
               if (colon != std::string::npos) port = std::stoi(text.substr(colon + 1), &used);
             } catch (const std::exception&) {
               port = -1;
             }
             if (colon == std::string::npos || colon == 0 || used != text.size() - colon - 1 || port < 0 || port > 65535) {
               throw std::invalid_argument("Address '" + text + "': expected HOST:PORT with a port of 0..65535");
             }
             return Address{text.substr(0, colon), static_cast<std::uint16_t>(port)};
           }),
           "text"_a)
      .def("__str__", [](const Address& a) { return to_string(a); });
  py::implicitly_convertible<py::tuple, Address>();
  py::implicitly_convertible<py::str, Address>();

  Struct<LinkConditions>(m, "LinkConditions", "Impairments of one direction of a link, from the seeded link conditioner.")
      .field("latency_ms", &LinkConditions::latency_ms, "one-way delay added to every datagram")
      .field("jitter_ms", &LinkConditions::jitter_ms, "uniform +- around latency")
      .field("loss", &LinkConditions::loss, "fraction of datagrams dropped, 0..1")
      .field("duplicate", &LinkConditions::duplicate, "fraction of datagrams delivered twice")
      .field("reorder", &LinkConditions::reorder, "fraction of datagrams held back behind later ones")
      .field("bandwidth_bytes_per_s", &LinkConditions::bandwidth_bytes_per_s, "0 = unlimited")
      .field("queue_limit_bytes", &LinkConditions::queue_limit_bytes, "over the bandwidth cap, the queue drops past this");
  Struct<ConditionerConfig>(m, "ConditionerConfig", "The simulated network of one endpoint, both directions.")
      .field("outbound", &ConditionerConfig::outbound, "what this endpoint sends")
      .field("inbound", &ConditionerConfig::inbound, "what this endpoint receives")
      .field("seed", &ConditionerConfig::seed, "the same seed replays the same impairments");
  Record<LinkStats>(m, "LinkStats", "Per-connection statistics, smoothed over roughly the last second.")
      .field("rtt_ms", &LinkStats::rtt_ms, "round-trip time")
      .field("rtt_variance_ms", &LinkStats::rtt_variance_ms, "its variation")
      .field("packet_loss", &LinkStats::packet_loss, "fraction lost, 0..1")
      .field("packets_out_per_s", &LinkStats::packets_out_per_s, "datagrams sent per second")
      .field("packets_in_per_s", &LinkStats::packets_in_per_s, "datagrams received per second")
      .field("bytes_out_per_s", &LinkStats::bytes_out_per_s, "UDP payload bytes sent per second, transport headers included")
      .field("bytes_in_per_s", &LinkStats::bytes_in_per_s, "UDP payload bytes received per second");
}

void bind_constants(py::module_& m) {
  m.attr("NO_PEER") = kNoPeer;
  m.attr("NO_FRAME") = kNoFrame;
  m.attr("MAX_INPUT_BYTES") = kMaxInputBytes;
  m.attr("MAX_USER_BYTES") = kMaxUserBytes;
  m.attr("MAX_SPAWN_BYTES") = kMaxSpawnBytes;
  m.attr("SPAWNED_ID_BIT") = kSpawnedIdBit;
  m.attr("MAX_RELIABLE_MESSAGE_BYTES") = kMaxReliableMessageBytes;
  m.attr("MAX_UNRELIABLE_MESSAGE_BYTES") = kMaxUnreliableMessageBytes;
  m.def("version", [] { return std::string(version()); }, "The library's version, MAJOR.MINOR.PATCH.");
  m.def("wire_version", &wire_version, "The peer-to-peer wire protocol's version: peers of another one are refused.");
  m.def("relay_protocol_version", &relay_protocol_version, "The relay protocol's version.");
  m.def("version_line", [](const std::string& program) { return version_line(program); }, "program"_a,
        "What every Shoal program prints for --version: 'PROGRAM VERSION (wire W, relay R)'.");
}

}  // namespace

void bind_values(py::module_& m) {
  bind_vec3(m);
  bind_quat(m);
  bind_states(m);
  bind_network_values(m);
  bind_constants(m);
}

}  // namespace shoal::python
