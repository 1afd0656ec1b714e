// SPDX-License-Identifier: MIT
#include "peer/presentation.hpp"

#include <stdexcept>

namespace shoal {

Presentation::Presentation(std::size_t bodies, const SmoothingRules& rules, std::vector<std::uint16_t> body_types,
                           float frame_s)
    : smoother_(bodies, rules, frame_s), body_types_(std::move(body_types)), control_modes_(bodies, ControlMode::uncontrolled) {}

void Presentation::refresh(float dt_s, std::span<const ObjectState> previous, std::span<const ObjectState> current,
                           float alpha) {
  if (touched_.all) {
    smoother_.update(dt_s, previous, current, alpha, body_types_, control_modes_);
  } else {
    smoother_.update_touched(dt_s, previous, current, alpha, body_types_, control_modes_, touched_.bodies);
  }
  touched_.reset();
}

void Presentation::validate() const {
  const std::size_t bodies = control_modes_.size();
  if (body_types_.size() != bodies) throw std::logic_error("Presentation: a body type per body");
  for (BodyIndex b : touched_.bodies) {
    if (b >= bodies) throw std::logic_error("Presentation: a touched body out of range");
  }
}

}  // namespace shoal
