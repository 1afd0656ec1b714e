// SPDX-License-Identifier: MIT
// A Simulation that forwards every call to another one: derive from it to time, count or alter
// what an engine does (profiling, tests, fault injection) and override only what you need.
// Every optional call is forwarded too, so a wrapper never silently turns one off.
#pragma once

#include "shoal/simulation.hpp"

namespace shoal {

/// A Simulation that passes every call to another one: derive from it to watch or change a few
/// calls (tests, instrumentation) without writing the rest.
class ForwardingSimulation : public Simulation {
 public:
  /// `inner` must outlive this wrapper.
  explicit ForwardingSimulation(Simulation& inner) : inner_(inner) {}

  void step(Frame frame, std::span<const BodyInput> inputs) override { inner_.step(frame, inputs); }
  std::size_t body_count() const override { return inner_.body_count(); }
  ObjectId body_id(BodyIndex body) const override { return inner_.body_id(body); }
  float bounding_radius(BodyIndex body) const override { return inner_.bounding_radius(body); }
  std::uint16_t body_type(BodyIndex body) const override { return inner_.body_type(body); }
  ObjectState read(BodyIndex body) const override { return inner_.read(body); }
  void write(BodyIndex body, const ObjectState& state) override { inner_.write(body, state); }
  void save(Frame frame) override { inner_.save(frame); }
  void restore(Frame frame) override { inner_.restore(frame); }
  std::size_t user_bytes_size(std::uint16_t body_type) const override {
    return inner_.user_bytes_size(body_type);
  }
  void read_user_bytes(BodyIndex body, std::span<std::uint8_t> out) const override {
    inner_.read_user_bytes(body, out);
  }
  void write_user_bytes(BodyIndex body, std::span<const std::uint8_t> bytes) override {
    inner_.write_user_bytes(body, bytes);
  }
  std::optional<std::span<const BodyIndex>> changed_bodies() const override {
    return inner_.changed_bodies();
  }
  void set_frozen(BodyIndex body, bool frozen) override { inner_.set_frozen(body, frozen); }
  std::size_t spawn_slot_count() const override { return inner_.spawn_slot_count(); }  ///< forwarded
  /// forwarded
  void add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override {
    inner_.add_body(body, type, state, spawn_bytes);
  }
  void remove_body(BodyIndex body) override { inner_.remove_body(body); }  ///< forwarded
  bool can_spawn(std::uint16_t type) const override { return inner_.can_spawn(type); }  ///< forwarded

 protected:
  /// the wrapped simulation
  Simulation& inner() const { return inner_; }

 private:
  Simulation& inner_;
};

}  // namespace shoal
