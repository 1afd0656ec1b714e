// SPDX-License-Identifier: MIT
// shoal_simulation: the C callbacks wrapped as a shoal::Simulation, and its C functions.
#include "callback_simulation.hpp"

#include <string>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

namespace shoal_c {
namespace {

void require_callback(bool given, const char* name) {
  if (!given) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                std::string("shoal_simulation_callbacks.") + name +
                    " is NULL: expected a function (step or step_with_bytes, body_count, body_id, "
                    "bounding_radius, read and write are required)");
  }
}

}  // namespace

CallbackSimulation::CallbackSimulation(const shoal_simulation_callbacks& callbacks)
    : callbacks_(require_sized(&callbacks, "callbacks", "shoal_simulation_callbacks")) {
  require_callback(callbacks.step != nullptr || callbacks.step_with_bytes != nullptr, "step");
  require_callback(callbacks.body_count != nullptr, "body_count");
  require_callback(callbacks.body_id != nullptr, "body_id");
  require_callback(callbacks.bounding_radius != nullptr, "bounding_radius");
  require_callback(callbacks.read != nullptr, "read");
  require_callback(callbacks.write != nullptr, "write");
  const int user_bytes_callbacks = (callbacks.user_bytes_size != nullptr) +
                                   (callbacks.read_user_bytes != nullptr) +
                                   (callbacks.write_user_bytes != nullptr);
  if (user_bytes_callbacks != 0 && user_bytes_callbacks != 3) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                "shoal_simulation_callbacks: user_bytes_size, read_user_bytes and "
                "write_user_bytes go together: give all three or none");
  }
}

void CallbackSimulation::fix_body_count() { fixed_body_count_ = callbacks_.body_count(callbacks_.user); }

void CallbackSimulation::step(shoal::Frame frame, std::span<const shoal::BodyInput> inputs) {
  inputs_.clear();
  for (const shoal::BodyInput& in : inputs) inputs_.push_back({in.body, to_c(in.input)});
  const auto count = static_cast<std::uint32_t>(inputs_.size());
  if (callbacks_.step_with_bytes == nullptr) return callbacks_.step(callbacks_.user, frame, inputs_.data(), count);
  input_bytes_.clear();
  for (const shoal::BodyInput& in : inputs) input_bytes_.insert(input_bytes_.end(), in.input.bytes.begin(), in.input.bytes.end());
  callbacks_.step_with_bytes(callbacks_.user, frame, inputs_.data(), input_bytes_.data(), count);
}

std::size_t CallbackSimulation::body_count() const {
  return fixed_body_count_ ? *fixed_body_count_ : callbacks_.body_count(callbacks_.user);
}

shoal::ObjectId CallbackSimulation::body_id(shoal::BodyIndex body) const {
  return callbacks_.body_id(callbacks_.user, body);
}

float CallbackSimulation::bounding_radius(shoal::BodyIndex body) const {
  return callbacks_.bounding_radius(callbacks_.user, body);
}

shoal::ObjectState CallbackSimulation::read(shoal::BodyIndex body) const {
  // Starts from the C++ default so that a callback filling only some fields reads defined values.
  shoal_object_state state = to_c(shoal::ObjectState{});
  callbacks_.read(callbacks_.user, body, &state);
  return to_cpp(state);
}

void CallbackSimulation::write(shoal::BodyIndex body, const shoal::ObjectState& state) {
  const shoal_object_state c = to_c(state);
  callbacks_.write(callbacks_.user, body, &c);
}

void CallbackSimulation::save(shoal::Frame frame) {
  if (callbacks_.save != nullptr) callbacks_.save(callbacks_.user, frame);
}

void CallbackSimulation::restore(shoal::Frame frame) {
  if (callbacks_.restore != nullptr) callbacks_.restore(callbacks_.user, frame);
}

std::uint16_t CallbackSimulation::body_type(shoal::BodyIndex body) const {
  return callbacks_.body_type != nullptr ? callbacks_.body_type(callbacks_.user, body) : 0;
}

std::size_t CallbackSimulation::user_bytes_size(std::uint16_t type) const {
  return callbacks_.user_bytes_size != nullptr ? callbacks_.user_bytes_size(callbacks_.user, type) : 0;
}

void CallbackSimulation::read_user_bytes(shoal::BodyIndex body, std::span<std::uint8_t> out) const {
  if (callbacks_.read_user_bytes == nullptr) return;
  callbacks_.read_user_bytes(callbacks_.user, body, out.data(), static_cast<std::uint32_t>(out.size()));
}

void CallbackSimulation::write_user_bytes(shoal::BodyIndex body, std::span<const std::uint8_t> bytes) {
  if (callbacks_.write_user_bytes == nullptr) return;
  callbacks_.write_user_bytes(callbacks_.user, body, bytes.data(), static_cast<std::uint32_t>(bytes.size()));
}

std::optional<std::span<const shoal::BodyIndex>> CallbackSimulation::changed_bodies() const {
  if (callbacks_.changed_bodies == nullptr) return std::nullopt;
  const std::uint32_t* bodies = nullptr;
  std::uint32_t count = 0;
  if (callbacks_.changed_bodies(callbacks_.user, &bodies, &count) == 0) return std::nullopt;
  if (count == 0) return std::span<const shoal::BodyIndex>{};
  // A list that names a body past the end (or is missing) would send the peer past its
  // tables' ends. It is not trusted then: every body is read, as with no list, which is always
  // right, only slower. (Throwing from here would leave the peer mid-step.)
  const std::size_t bodies_held = body_count();
  if (bodies == nullptr) return std::nullopt;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (bodies[i] >= bodies_held) return std::nullopt;
  }
  static_assert(sizeof(shoal::BodyIndex) == sizeof(std::uint32_t));
  return std::span<const shoal::BodyIndex>(bodies, count);
}

void CallbackSimulation::set_frozen(shoal::BodyIndex body, bool frozen) {
  if (callbacks_.set_frozen != nullptr) callbacks_.set_frozen(callbacks_.user, body, frozen ? 1 : 0);
}

void CallbackSimulation::set_spawning(const shoal_spawn_callbacks& spawning) {
  const bool adds = spawning.add_body != nullptr || spawning.add_body_with_bytes != nullptr;
  if (spawning.spawn_slot_count > 0 && (!adds || spawning.remove_body == nullptr)) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                "shoal_spawn_callbacks: add_body (or add_body_with_bytes) and remove_body are required when "
                "spawn_slot_count > 0");
  }
  const std::size_t bodies = body_count();
  if (spawning.spawn_slot_count > bodies || spawning.spawn_slot_count > 65536) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                "shoal_spawn_callbacks: spawn_slot_count " + std::to_string(spawning.spawn_slot_count) +
                    ", expected at most body_count (" + std::to_string(bodies) + ") and 65536");
  }
  spawning_ = spawning;
}

void CallbackSimulation::add_body(shoal::BodyIndex body, std::uint16_t type, const shoal::ObjectState& state,
                                  std::span<const std::uint8_t> spawn_bytes) {
  const shoal_object_state c_state = to_c(state);
  if (spawning_.add_body_with_bytes != nullptr) {
    return spawning_.add_body_with_bytes(callbacks_.user, body, type, &c_state, spawn_bytes.data(),
                                         static_cast<std::uint32_t>(spawn_bytes.size()));
  }
  if (spawning_.add_body != nullptr) spawning_.add_body(callbacks_.user, body, type, &c_state);
}

bool CallbackSimulation::can_spawn(std::uint16_t type) const {
  return spawning_.can_spawn == nullptr || spawning_.can_spawn(callbacks_.user, type) != 0;
}

void CallbackSimulation::remove_body(shoal::BodyIndex body) {
  if (spawning_.remove_body != nullptr) spawning_.remove_body(callbacks_.user, body);
}

}  // namespace shoal_c

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_simulation_create(const shoal_simulation_callbacks* callbacks, shoal_simulation** out_simulation) {
  return guarded(__func__, [&] {
    shoal_simulation*& out = require(out_simulation, "out_simulation");
    out = nullptr;
    out = new shoal_simulation(require(callbacks, "callbacks"));
    return SHOAL_OK;
  });
}

int shoal_simulation_set_spawning(shoal_simulation* simulation, const shoal_spawn_callbacks* callbacks) {
  return guarded(__func__, [&] {
    shoal_simulation& held = require(simulation, "simulation");
    shoal_c::refuse_if_driving(held.driving_peer, "the simulation drives a peer: set its spawning before creating the peer");
    held.simulation.set_spawning(shoal_c::require_sized(callbacks, "callbacks", "shoal_spawn_callbacks"));
    return SHOAL_OK;
  });
}

int shoal_simulation_destroy(shoal_simulation* simulation) {
  return guarded(__func__, [&] {
    if (simulation == nullptr) return SHOAL_OK;
    shoal_c::refuse_if_driving(simulation->driving_peer,
                               "the simulation still drives a peer: destroy the peer first");
    delete simulation;
    return SHOAL_OK;
  });
}

}  // extern "C"
