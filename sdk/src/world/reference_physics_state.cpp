// SPDX-License-Identifier: MIT
// The reference physics outside its step: reading and writing bodies, saving and restoring
// engine state per frame, the changed-body list, body types and user bytes.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "world/reference_physics_impl.hpp"

namespace shoal {

using world::reference::Body;
using world::reference::finite;

std::size_t ReferencePhysics::body_count() const { return impl_->bodies.size(); }
ObjectId ReferencePhysics::body_id(BodyIndex body) const { return impl_->bodies.at(body).id; }
float ReferencePhysics::bounding_radius(BodyIndex body) const {
  return impl_->bodies.at(body).bounding_radius;
}
ObjectState ReferencePhysics::read(BodyIndex body) const { return impl_->bodies.at(body).state; }

void ReferencePhysics::write(BodyIndex body, const ObjectState& state) {
  if (body >= impl_->bodies.size()) {
    throw std::invalid_argument("ReferencePhysics::write: body " + std::to_string(body) +
                                " out of range (" + std::to_string(impl_->bodies.size()) +
                                " bodies)");
  }
  if (!finite(state)) {
    throw std::invalid_argument("ReferencePhysics::write: non-finite state for body " +
                                std::to_string(body));
  }
  if (impl_->present[body] == 0) return;  // an empty spawn slot keeps reading as empty
  Body& b = impl_->bodies[body];
  if (state.at_rest) {
    impl_->sleep_counters[body] = impl_->config.sleep_frames;
  } else if (b.state.at_rest) {
    impl_->sleep_counters[body] = 0;
  }
  b.state = state;
}

void ReferencePhysics::save(Frame frame) {
  Impl& m = *impl_;
  const std::size_t s = m.slot(frame);
  m.saved_frames[s] = frame;
  std::copy(m.sleep_counters.begin(), m.sleep_counters.end(),
            m.saved_counters.begin() + static_cast<std::ptrdiff_t>(s * m.counter_stride));
  m.contact_cache.save(s);
}

void ReferencePhysics::restore(Frame frame) {
  Impl& m = *impl_;
  const std::size_t s = m.slot(frame);
  if (m.saved_frames[s] == frame) {
    const auto begin = m.saved_counters.begin() + static_cast<std::ptrdiff_t>(s * m.counter_stride);
    std::copy(begin, begin + static_cast<std::ptrdiff_t>(m.bodies.size()), m.sleep_counters.begin());
    m.contact_cache.restore(s);
    return;
  }
  m.contact_cache.clear();
  for (BodyIndex b = 0; b < m.bodies.size(); ++b) {
    m.sleep_counters[b] = m.bodies[b].state.at_rest ? m.config.sleep_frames : 0;
  }
}

std::optional<std::span<const BodyIndex>> ReferencePhysics::changed_bodies() const {
  return std::span<const BodyIndex>(impl_->changed);
}

void ReferencePhysics::set_frozen(BodyIndex body, bool frozen) {
  Impl& m = *impl_;
  if (body >= m.bodies.size()) {
    throw std::invalid_argument("ReferencePhysics::set_frozen: body " + std::to_string(body) +
                                " out of range (" + std::to_string(m.bodies.size()) + " bodies)");
  }
  m.frozen[body] = frozen ? 1 : 0;
}

bool ReferencePhysics::is_frozen(BodyIndex body) const { return impl_->frozen.at(body) != 0; }

void ReferencePhysics::set_body_type(BodyIndex body, std::uint16_t type) {
  Impl& m = *impl_;
  if (body >= m.bodies.size()) {
    throw std::invalid_argument("ReferencePhysics::set_body_type: body " + std::to_string(body) +
                                " out of range (" + std::to_string(m.bodies.size()) + " bodies)");
  }
  m.types[body] = type;
  std::erase(m.counting, body);
  if (m.type_user_bytes[type] != 0) {
    m.counting.insert(std::upper_bound(m.counting.begin(), m.counting.end(), body), body);
  }
}

std::uint16_t ReferencePhysics::body_type(BodyIndex body) const { return impl_->types.at(body); }

void ReferencePhysics::set_user_bytes_size(std::uint16_t type, std::size_t size) {
  if (size > kMaxUserBytes) {
    throw std::invalid_argument("ReferencePhysics::set_user_bytes_size: type " + std::to_string(type) +
                                " given " + std::to_string(size) + " user bytes, expected at most " +
                                std::to_string(kMaxUserBytes));
  }
  Impl& m = *impl_;
  m.type_user_bytes[type] = static_cast<std::uint8_t>(size);
  m.counting.clear();
  for (BodyIndex b = 0; b < m.bodies.size(); ++b) {
    if (m.type_user_bytes[m.types[b]] != 0) m.counting.push_back(b);
  }
}

std::size_t ReferencePhysics::user_bytes_size(std::uint16_t type) const {
  return impl_->type_user_bytes[type];
}

void ReferencePhysics::read_user_bytes(BodyIndex body, std::span<std::uint8_t> out) const {
  const std::span<const std::uint8_t> bytes = impl_->user_bytes_of(body);
  std::copy_n(bytes.begin(), std::min(bytes.size(), out.size()), out.begin());
}

void ReferencePhysics::write_user_bytes(BodyIndex body, std::span<const std::uint8_t> bytes) {
  if (impl_->present.at(body) == 0) return;
  const std::span<std::uint8_t> held = impl_->user_bytes_of(body);
  std::copy_n(bytes.begin(), std::min(bytes.size(), held.size()), held.begin());
}

const ReferencePhysicsConfig& ReferencePhysics::config() const { return impl_->config; }
bool ReferencePhysics::is_static(BodyIndex body) const {
  return impl_->bodies.at(body).inverse_mass == 0;
}
std::size_t ReferencePhysics::contact_count() const { return impl_->contacts.size(); }

}  // namespace shoal
