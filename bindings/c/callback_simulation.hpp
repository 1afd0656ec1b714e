// SPDX-License-Identifier: MIT
// A game's physics behind the C callbacks of shoal_simulation_callbacks, seen by Shoal as a
// shoal::Simulation.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "shoal/shoal.h"
#include "shoal/simulation.hpp"

namespace shoal_c {

class CallbackSimulation final : public shoal::Simulation {
 public:
  /// Throws Error naming the first required callback that is NULL.
  explicit CallbackSimulation(const shoal_simulation_callbacks& callbacks);

  /// While a peer runs on this simulation the body count is the one read when it was created:
  /// a Peer sizes its tables once, so a count that changed under it would send it past their
  /// ends. Released when that peer goes, so the game may change its world for the next one.
  void fix_body_count();
  void release_body_count() { fixed_body_count_.reset(); }

  void step(shoal::Frame frame, std::span<const shoal::BodyInput> inputs) override;
  std::size_t body_count() const override;
  shoal::ObjectId body_id(shoal::BodyIndex body) const override;
  float bounding_radius(shoal::BodyIndex body) const override;
  shoal::ObjectState read(shoal::BodyIndex body) const override;
  void write(shoal::BodyIndex body, const shoal::ObjectState& state) override;
  void save(shoal::Frame frame) override;
  void restore(shoal::Frame frame) override;
  std::uint16_t body_type(shoal::BodyIndex body) const override;
  std::size_t user_bytes_size(std::uint16_t type) const override;
  void read_user_bytes(shoal::BodyIndex body, std::span<std::uint8_t> out) const override;
  void write_user_bytes(shoal::BodyIndex body, std::span<const std::uint8_t> bytes) override;
  std::optional<std::span<const shoal::BodyIndex>> changed_bodies() const override;
  void set_frozen(shoal::BodyIndex body, bool frozen) override;
  std::size_t spawn_slot_count() const override { return spawning_.spawn_slot_count; }
  void add_body(shoal::BodyIndex body, std::uint16_t type, const shoal::ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override;
  void remove_body(shoal::BodyIndex body) override;
  bool can_spawn(std::uint16_t type) const override;
  /// Throws Error for a count above the bodies or 65536, or a missing callback.
  void set_spawning(const shoal_spawn_callbacks& spawning);

 private:
  shoal_simulation_callbacks callbacks_;
  shoal_spawn_callbacks spawning_{};
  std::optional<std::size_t> fixed_body_count_;
  std::vector<shoal_body_input> inputs_;  // reused every step: no allocation per frame
  std::vector<std::uint8_t> input_bytes_;  // step_with_bytes' bytes, SHOAL_MAX_INPUT_BYTES per input, reused
};

}  // namespace shoal_c
