// SPDX-License-Identifier: MIT
// Worlds a Peer runs on: the native reference physics, and shoal.Simulation, which a Python
// class subclasses (slow: every call crosses into Python; for tools and tests). A peer calls its
// simulation from inside update(), whose GIL is released: every call into Python takes it back.
#include <string>
#include <vector>

#include "bind.hpp"
#include "shoal/reference_physics.hpp"
#include "shoal/simulation.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

py::list inputs_list(std::span<const BodyInput> inputs) {
  py::list list;
  for (const BodyInput& input : inputs) list.append(input);
  return list;
}

py::bytes as_bytes(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// The C++ side of a Simulation written in Python: each virtual call goes to the Python
/// method of that name, with the GIL taken; an optional method the class lacks keeps the C++
/// default. An exception raised in Python goes up through the peer's call to its caller.
class PythonSimulation : public Simulation {
 public:
  void step(Frame frame, std::span<const BodyInput> inputs) override {
    py::gil_scoped_acquire gil;
    required("step")(frame, inputs_list(inputs));
  }
  std::size_t body_count() const override { PYBIND11_OVERRIDE_PURE(std::size_t, Simulation, body_count, ); }
  ObjectId body_id(BodyIndex body) const override { PYBIND11_OVERRIDE_PURE(ObjectId, Simulation, body_id, body); }
  float bounding_radius(BodyIndex body) const override { PYBIND11_OVERRIDE_PURE(float, Simulation, bounding_radius, body); }
  std::uint16_t body_type(BodyIndex body) const override { PYBIND11_OVERRIDE(std::uint16_t, Simulation, body_type, body); }
  ObjectState read(BodyIndex body) const override { PYBIND11_OVERRIDE_PURE(ObjectState, Simulation, read, body); }
  void write(BodyIndex body, const ObjectState& state) override { PYBIND11_OVERRIDE_PURE(void, Simulation, write, body, state); }
  void save(Frame frame) override { PYBIND11_OVERRIDE(void, Simulation, save, frame); }
  void restore(Frame frame) override { PYBIND11_OVERRIDE(void, Simulation, restore, frame); }
  std::size_t user_bytes_size(std::uint16_t type) const override {
    PYBIND11_OVERRIDE(std::size_t, Simulation, user_bytes_size, type);
  }
  void read_user_bytes(BodyIndex body, std::span<std::uint8_t> out) const override {
    py::gil_scoped_acquire gil;
    const py::function method = py::get_override(static_cast<const Simulation*>(this), "read_user_bytes");
    if (!method) return;
    const std::vector<std::uint8_t> bytes = bytes_of(method(body));
    if (bytes.size() != out.size()) {
      throw std::invalid_argument("Simulation.read_user_bytes(" + std::to_string(body) + ") returned " +
                                  std::to_string(bytes.size()) + " bytes, expected user_bytes_size(body_type(body)) = " +
                                  std::to_string(out.size()));
    }
    std::copy(bytes.begin(), bytes.end(), out.begin());
  }
  void write_user_bytes(BodyIndex body, std::span<const std::uint8_t> bytes) override {
    py::gil_scoped_acquire gil;
    if (const py::function method = py::get_override(static_cast<const Simulation*>(this), "write_user_bytes")) {
      method(body, as_bytes(bytes));
    }
  }
  std::optional<std::span<const BodyIndex>> changed_bodies() const override {
    py::gil_scoped_acquire gil;
    const py::function method = py::get_override(static_cast<const Simulation*>(this), "changed_bodies");
    if (!method) return std::nullopt;
    const py::object changed = method();
    if (changed.is_none()) return std::nullopt;
    changed_.clear();
    for (const py::handle body : changed) changed_.push_back(body.cast<BodyIndex>());
    return std::span<const BodyIndex>(changed_);
  }
  void set_frozen(BodyIndex body, bool frozen) override { PYBIND11_OVERRIDE(void, Simulation, set_frozen, body, frozen); }
  std::size_t spawn_slot_count() const override { PYBIND11_OVERRIDE(std::size_t, Simulation, spawn_slot_count, ); }
  void add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override {
    py::gil_scoped_acquire gil;
    if (const py::function method = py::get_override(static_cast<const Simulation*>(this), "add_body")) {
      method(body, type, state, as_bytes(spawn_bytes));
    }
  }
  void remove_body(BodyIndex body) override { PYBIND11_OVERRIDE(void, Simulation, remove_body, body); }
  bool can_spawn(std::uint16_t type) const override { PYBIND11_OVERRIDE(bool, Simulation, can_spawn, type); }

 private:
  py::function required(const char* name) const {
    py::function method = py::get_override(static_cast<const Simulation*>(this), name);
    if (!method) throw std::logic_error(std::string("shoal.Simulation: the subclass does not define ") + name + "()");
    return method;
  }
  mutable std::vector<BodyIndex> changed_;  // what changed_bodies() last returned, viewed by the peer
};

// What every simulation offers Python, native or not: the calls a tool makes on a world.
void bind_simulation(py::module_& m) {
  py::class_<Simulation, PythonSimulation>(m, "Simulation",
      "The game's physics behind the interface Shoal needs to re-simulate frames. Subclass it in Python "
      "(call super().__init__()) and define step, body_count, body_id, bounding_radius, read and write; the "
      "optional methods (save, restore, body_type, user_bytes_size, read_user_bytes, write_user_bytes, "
      "changed_bodies, set_frozen, spawn_slot_count, add_body, remove_body, can_spawn) keep their defaults when "
      "left out. Every call crosses into Python: for tools and tests, not large worlds.")
      .def(py::init<>())
      .def("step", [](Simulation& s, Frame frame, const std::vector<BodyInput>& inputs) { s.step(frame, inputs); },
           "frame"_a, "inputs"_a, "Advances the world one fixed step; the state afterwards is frame's.")
      .def("body_count", &Simulation::body_count, "how many bodies the world has")
      .def("body_id", &Simulation::body_id, "body"_a, "the game's id of a body")
      .def("bounding_radius", &Simulation::bounding_radius, "body"_a, "radius of a sphere that holds the body")
      .def("body_type", &Simulation::body_type, "body"_a, "a small game-defined type")
      .def("read", &Simulation::read, "body"_a, "a body's state now")
      .def("write", &Simulation::write, "body"_a, "state"_a, "sets a body's state")
      .def("save", &Simulation::save, "frame"_a, "keeps engine-private state after stepping frame")
      .def("restore", &Simulation::restore, "frame"_a, "brings it back before re-simulating from frame")
      .def("user_bytes_size", &Simulation::user_bytes_size, "body_type"_a, "user bytes per body of a type")
      .def("read_user_bytes", [](const Simulation& s, BodyIndex body) {
             std::vector<std::uint8_t> bytes(s.user_bytes_size(s.body_type(body)));
             s.read_user_bytes(body, bytes);
             return as_bytes(bytes);
           },
           "body"_a, "a body's user bytes (user_bytes_size of its type)")
      .def("write_user_bytes", [](Simulation& s, BodyIndex body, const py::object& data) {
             s.write_user_bytes(body, bytes_of(data));
           },
           "body"_a, "data"_a, "sets a body's user bytes")
      .def("changed_bodies", [](const Simulation& s) -> py::object {
             const auto changed = s.changed_bodies();
             if (!changed) return py::none();
             return py::cast(std::vector<BodyIndex>(changed->begin(), changed->end()));
           },
           "the bodies the last step may have changed, or None for every body")
      .def("set_frozen", &Simulation::set_frozen, "body"_a, "frozen"_a, "leave a body out of the step")
      .def("spawn_slot_count", &Simulation::spawn_slot_count, "spawn slots after the fixed bodies")
      .def("add_body", [](Simulation& s, BodyIndex body, std::uint16_t type, const ObjectState& state, const py::object& data) {
             s.add_body(body, type, state, bytes_of(data));
           },
           "body"_a, "type"_a, "state"_a, "spawn_bytes"_a = py::bytes(), "fills an empty spawn slot")
      .def("remove_body", &Simulation::remove_body, "body"_a, "empties a spawn slot")
      .def("can_spawn", &Simulation::can_spawn, "type"_a, "whether add_body builds bodies of type");
}

void bind_reference_physics(py::module_& m) {
  Struct<ReferencePhysicsConfig>(m, "ReferencePhysicsConfig",
                                 "The reference physics' settings; ReferencePhysics checks each and raises InvalidArgument "
                                 "naming the field.")
      .field("dt", &ReferencePhysicsConfig::dt, "seconds per step, (0, 1]")
      .field("gravity", &ReferencePhysicsConfig::gravity, "m/s^2, y is up")
      .field("arena_half_x", &ReferencePhysicsConfig::arena_half_x, "walls at x = +-arena_half_x (m)")
      .field("arena_half_z", &ReferencePhysicsConfig::arena_half_z, "walls at z = +-arena_half_z (m); ground at y = 0")
      .field("restitution", &ReferencePhysicsConfig::restitution, "0..1, bounciness of every contact")
      .field("friction", &ReferencePhysicsConfig::friction, "Coulomb coefficient, >= 0")
      .field("linear_damping", &ReferencePhysicsConfig::linear_damping, "1/s")
      .field("angular_damping", &ReferencePhysicsConfig::angular_damping, "1/s")
      .field("solver_iterations", &ReferencePhysicsConfig::solver_iterations, "contact solver passes per step, 1..256")
      .field("allow_sleep", &ReferencePhysicsConfig::allow_sleep, "False: bodies never fall asleep on their own")
      .field("sleep_linear_speed", &ReferencePhysicsConfig::sleep_linear_speed, "m/s: slower counts as still")
      .field("sleep_angular_speed", &ReferencePhysicsConfig::sleep_angular_speed, "rad/s")
      .field("sleep_frames", &ReferencePhysicsConfig::sleep_frames, "frames a still group waits before it sleeps")
      .field("push_acceleration", &ReferencePhysicsConfig::push_acceleration, "m/s^2 of a full Input.axis push")
      .field("max_push_speed", &ReferencePhysicsConfig::max_push_speed, "m/s: pushing does not speed a body past this")
      .field("history_frames", &ReferencePhysicsConfig::history_frames, "frames of engine-private state save() keeps")
      .field("grid_cell_size", &ReferencePhysicsConfig::grid_cell_size, "m, broad-phase cell edge");
  py::class_<ReferencePhysics, Simulation>(m, "ReferencePhysics",
      "Shoal's built-in physics, native: spheres and boxes in a walled arena, deterministic and restorable bit for bit.")
      .def(py::init<const ReferencePhysicsConfig&>(), "config"_a = ReferencePhysicsConfig{})
      .def("add_sphere", &ReferencePhysics::add_sphere, "id"_a, "radius"_a, "mass"_a, "state"_a = ObjectState{},
           "Adds a sphere (mass 0: static) and returns its body index.")
      .def("add_box", &ReferencePhysics::add_box, "id"_a, "half_extents"_a, "mass"_a, "state"_a = ObjectState{},
           "Adds a box of these half extents and returns its body index.")
      .def("is_frozen", &ReferencePhysics::is_frozen, "body"_a, "whether the body is left out of steps")
      .def("set_body_type", &ReferencePhysics::set_body_type, "body"_a, "type"_a, "a game-defined body type")
      .def("set_user_bytes_size", &ReferencePhysics::set_user_bytes_size, "type"_a, "size"_a,
           "Gives every body of type this many user bytes (set it before building a Peer).")
      .def("set_spawn_sphere", &ReferencePhysics::set_spawn_sphere, "type"_a, "radius"_a, "mass"_a,
           "Declares the sphere add_body builds for type.")
      .def("set_spawn_box", &ReferencePhysics::set_spawn_box, "type"_a, "half_extents"_a, "mass"_a,
           "Declares the box add_body builds for type.")
      .def("add_spawn_slots", &ReferencePhysics::add_spawn_slots, "count"_a,
           "Reserves count empty spawn slots after the bodies; returns the first one's index.")
      .def("slot_filled", &ReferencePhysics::slot_filled, "body"_a, "False for an empty spawn slot")
      .def_property_readonly("config", &ReferencePhysics::config, py::return_value_policy::copy, "the world's config")
      .def("is_static", &ReferencePhysics::is_static, "body"_a, "whether the step never moves the body")
      .def("contact_count", &ReferencePhysics::contact_count, "contacts found in the last step");
}

}  // namespace

void bind_simulations(py::module_& m) {
  bind_simulation(m);
  bind_reference_physics(m);
}

}  // namespace shoal::python
