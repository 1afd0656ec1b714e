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
                    " is NULL: expected a function (only save and restore are optional)");
  }
}

}  // namespace

CallbackSimulation::CallbackSimulation(const shoal_simulation_callbacks& callbacks)
    : callbacks_(callbacks) {
  require_callback(callbacks.step != nullptr, "step");
  require_callback(callbacks.body_count != nullptr, "body_count");
  require_callback(callbacks.body_id != nullptr, "body_id");
  require_callback(callbacks.bounding_radius != nullptr, "bounding_radius");
  require_callback(callbacks.read != nullptr, "read");
  require_callback(callbacks.write != nullptr, "write");
}

void CallbackSimulation::fix_body_count() { fixed_body_count_ = callbacks_.body_count(callbacks_.user); }

void CallbackSimulation::step(shoal::Frame frame, std::span<const shoal::BodyInput> inputs) {
  inputs_.clear();
  for (const shoal::BodyInput& in : inputs) inputs_.push_back({in.body, to_c(in.input)});
  callbacks_.step(callbacks_.user, frame, inputs_.data(), static_cast<std::uint32_t>(inputs_.size()));
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
