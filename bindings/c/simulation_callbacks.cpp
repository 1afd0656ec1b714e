// SPDX-License-Identifier: MIT
#include "simulation_callbacks.hpp"

#include <algorithm>

#include "convert.hpp"

namespace shoal_c {
namespace {

// A peer calls these only with valid bodies and finite states, so the simulation does not
// throw here; noexcept makes any surprise a clean stop rather than an unwind through C frames.
SimulationUser& of(void* user) { return *static_cast<SimulationUser*>(user); }

void step(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t count) noexcept {
  SimulationUser& u = of(user);
  u.inputs.clear();
  for (uint32_t i = 0; i < count; ++i) u.inputs.push_back({inputs[i].body, to_cpp(inputs[i].input)});
  u.simulation.step(frame, u.inputs);
}
// The same with each input's own bytes (SHOAL_MAX_INPUT_BYTES of them per input).
void step_with_bytes(void* user, int32_t frame, const shoal_body_input* inputs, const uint8_t* input_bytes,
                     uint32_t count) noexcept {
  SimulationUser& u = of(user);
  u.inputs.clear();
  for (uint32_t i = 0; i < count; ++i) {
    shoal::BodyInput& in = u.inputs.emplace_back(shoal::BodyInput{inputs[i].body, to_cpp(inputs[i].input)});
    std::copy_n(input_bytes + static_cast<std::size_t>(i) * SHOAL_MAX_INPUT_BYTES, SHOAL_MAX_INPUT_BYTES,
                in.input.bytes.begin());
  }
  u.simulation.step(frame, u.inputs);
}
void add_body(void* user, uint32_t body, uint16_t type, const shoal_object_state* state, const uint8_t* bytes,
              uint32_t size) noexcept {
  of(user).simulation.add_body(body, type, to_cpp(*state), std::span<const std::uint8_t>(bytes, size));
}
void remove_body(void* user, uint32_t body) noexcept { of(user).simulation.remove_body(body); }
int can_spawn(void* user, uint16_t type) noexcept { return of(user).simulation.can_spawn(type) ? 1 : 0; }
uint32_t body_count(void* user) noexcept { return static_cast<uint32_t>(of(user).simulation.body_count()); }
uint32_t body_id(void* user, uint32_t body) noexcept { return of(user).simulation.body_id(body); }
float bounding_radius(void* user, uint32_t body) noexcept { return of(user).simulation.bounding_radius(body); }
void read(void* user, uint32_t body, shoal_object_state* out) noexcept { *out = to_c(of(user).simulation.read(body)); }
void write(void* user, uint32_t body, const shoal_object_state* state) noexcept {
  of(user).simulation.write(body, to_cpp(*state));
}
void save(void* user, int32_t frame) noexcept { of(user).simulation.save(frame); }
void restore(void* user, int32_t frame) noexcept { of(user).simulation.restore(frame); }
int changed_bodies(void* user, const uint32_t** out_bodies, uint32_t* out_count) noexcept {
  const std::optional<std::span<const shoal::BodyIndex>> changed = of(user).simulation.changed_bodies();
  if (!changed) return 0;
  *out_bodies = changed->data();
  *out_count = static_cast<uint32_t>(changed->size());
  return 1;
}
void set_frozen(void* user, uint32_t body, int frozen) noexcept { of(user).simulation.set_frozen(body, frozen != 0); }

}  // namespace

shoal_simulation_callbacks simulation_callbacks(SimulationUser& user) {
  shoal_simulation_callbacks c = {};
  c.struct_size = sizeof c;
  c.user = &user;
  c.step = step;
  c.step_with_bytes = step_with_bytes;  // preferred: the game's input bytes reach the adapter
  c.body_count = body_count;
  c.body_id = body_id;
  c.bounding_radius = bounding_radius;
  c.read = read;
  c.write = write;
  c.save = save;
  c.restore = restore;
  c.changed_bodies = changed_bodies;
  c.set_frozen = set_frozen;
  return c;
}

shoal_spawn_callbacks spawn_callbacks(SimulationUser& user) {
  shoal_spawn_callbacks c = {};
  c.struct_size = sizeof c;
  c.spawn_slot_count = static_cast<uint32_t>(user.simulation.spawn_slot_count());
  c.add_body_with_bytes = add_body;
  c.remove_body = remove_body;
  c.can_spawn = can_spawn;
  return c;
}

}  // namespace shoal_c
