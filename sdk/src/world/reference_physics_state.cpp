// The reference physics outside its step: reading and writing bodies, saving and restoring
// engine state per frame, the changed-body list, body types and user bytes.
#include <algorithm>
#include <cstdint>
#include <cstring>
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
  std::vector<Impl::SavedCounter>& saved = m.saved_counters[s];
  saved.clear();
  const int rest = m.config.sleep_frames;
  const int* counters = m.sleep_counters.data();
  const std::size_t n = m.sleep_counters.size();
  auto keep = [&](std::size_t b) {
    if (counters[b] != rest) saved.push_back({static_cast<BodyIndex>(b), counters[b]});
  };
  // Four counters read at a time, as two 64-bit words: most are resting bodies'.
  const std::uint64_t rest_pair = static_cast<std::uint32_t>(rest) * 0x1'0000'0001ull;
  std::size_t b = 0;
  for (; b + 4 <= n; b += 4) {
    std::uint64_t words[2];
    std::memcpy(words, counters + b, sizeof words);
    if (((words[0] ^ rest_pair) | (words[1] ^ rest_pair)) == 0) continue;
    for (std::size_t k = b; k < b + 4; ++k) keep(k);
  }
  for (; b < n; ++b) keep(b);
  const auto cached = m.contact_cache.entries();
  m.saved_caches[s].assign(cached.begin(), cached.end());
}

void ReferencePhysics::restore(Frame frame) {
  Impl& m = *impl_;
  const std::size_t s = m.slot(frame);
  if (m.saved_frames[s] == frame) {
    std::fill(m.sleep_counters.begin(), m.sleep_counters.end(), m.config.sleep_frames);
    for (const Impl::SavedCounter& c : m.saved_counters[s]) m.sleep_counters[c.body] = c.counter;
    m.contact_cache.assign(m.saved_caches[s]);
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
  const std::span<std::uint8_t> held = impl_->user_bytes_of(body);
  std::copy_n(bytes.begin(), std::min(bytes.size(), held.size()), held.begin());
}

const ReferencePhysicsConfig& ReferencePhysics::config() const { return impl_->config; }
bool ReferencePhysics::is_static(BodyIndex body) const {
  return impl_->bodies.at(body).inverse_mass == 0;
}
std::size_t ReferencePhysics::contact_count() const { return impl_->contacts.size(); }

}  // namespace shoal
