// SPDX-License-Identifier: MIT
// What both adapters keep per registered body beside the engine's own body: its id, bounding
// radius, type, user bytes, frozen flag, and the state Shoal last saw of it.
//
// The state is the adapter's answer to read(). The engine's pose is stored in its own form
// (Bullet: a rotation matrix; Box2D: an angle), and converting a quaternion to that form and
// back does not give the same bits. So after every step the adapter converts each body the
// step moved to an ObjectState and writes that back into the engine, exactly as write() does:
// the engine then always holds what a write of the recorded state gives it, in a straight run
// and in a catch-up alike, and read() returns the recorded state bit for bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "shoal/simulation.hpp"

namespace shoal::engines {

inline bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool finite(const ObjectState& s) {
  return finite(s.position) && finite(s.linear_velocity) && finite(s.angular_velocity) &&
         std::isfinite(s.orientation.w) && std::isfinite(s.orientation.x) &&
         std::isfinite(s.orientation.y) && std::isfinite(s.orientation.z);
}

class BodyTable {
 public:
  /// `owner` names the adapter in error messages ("BulletSimulation").
  explicit BodyTable(const char* owner) : owner_(owner) {}

  /// Adds a body; throws std::invalid_argument for an id already registered.
  BodyIndex add(ObjectId id, float bounding_radius, std::uint16_t type, const ObjectState& state) {
    for (ObjectId existing : ids_) {
      if (existing == id) fail("add_body", "object id " + std::to_string(id) + " is registered twice, expected unique ids");
    }
    ids_.push_back(id);
    radii_.push_back(bounding_radius);
    types_.push_back(type);
    states_.push_back(state);
    frozen_.push_back(0);
    user_bytes_.resize(ids_.size() * kMaxUserBytes, 0);
    changed_.reserve(ids_.size());
    return static_cast<BodyIndex>(ids_.size() - 1);
  }

  std::size_t size() const { return ids_.size(); }
  ObjectId id(BodyIndex b) const { return ids_.at(b); }
  float radius(BodyIndex b) const { return radii_.at(b); }
  void set_radius(BodyIndex b, float radius) { radii_.at(b) = radius; }
  std::uint16_t type(BodyIndex b) const { return types_.at(b); }
  void set_type(BodyIndex b, std::uint16_t type) { types_.at(check(b, "set_body_type")) = type; }

  const ObjectState& state(BodyIndex b) const { return states_.at(b); }
  ObjectState& state(BodyIndex b) { return states_[b]; }
  std::span<const ObjectState> states() const { return states_; }

  bool frozen(BodyIndex b) const { return frozen_.at(b) != 0; }
  void set_frozen(BodyIndex b, bool frozen) { frozen_[b] = frozen ? 1 : 0; }

  /// Throws std::invalid_argument naming `call` unless `b` is a registered body.
  BodyIndex check(BodyIndex b, const char* call) const {
    if (b >= ids_.size()) {
      fail(call, "body " + std::to_string(b) + " out of range (" + std::to_string(ids_.size()) + " bodies)");
    }
    return b;
  }
  /// Throws std::invalid_argument unless `s` is finite.
  void check_finite(BodyIndex b, const ObjectState& s, const char* call) const {
    if (!finite(s)) fail(call, "non-finite state for body " + std::to_string(b));
  }

  // User bytes: game state kept per body and written, read and restored by Shoal; the step
  // never changes them.
  void set_user_bytes_size(std::uint16_t type, std::size_t size) {
    if (size > kMaxUserBytes) {
      fail("set_user_bytes_size", "type " + std::to_string(type) + " given " + std::to_string(size) +
                                      " user bytes, expected at most " + std::to_string(kMaxUserBytes));
    }
    user_bytes_size_[type] = static_cast<std::uint8_t>(size);
  }
  std::size_t user_bytes_size(std::uint16_t type) const { return user_bytes_size_[type]; }
  void read_user_bytes(BodyIndex b, std::span<std::uint8_t> out) const {
    const std::uint8_t* held = user_bytes_.data() + static_cast<std::size_t>(b) * kMaxUserBytes;
    const std::size_t n = std::min<std::size_t>(out.size(), user_bytes_size_[types_.at(b)]);
    std::copy(held, held + n, out.begin());
  }
  void write_user_bytes(BodyIndex b, std::span<const std::uint8_t> bytes) {
    std::uint8_t* held = user_bytes_.data() + static_cast<std::size_t>(b) * kMaxUserBytes;
    const std::size_t n = std::min<std::size_t>(bytes.size(), user_bytes_size_[types_.at(b)]);
    std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n), held);
  }

  /// The bodies the last step may have changed (changed_bodies()).
  std::vector<BodyIndex>& changed() { return changed_; }
  const std::vector<BodyIndex>& changed() const { return changed_; }

  [[noreturn]] void fail(const char* call, const std::string& what) const {
    throw std::invalid_argument(std::string(owner_) + "::" + call + ": " + what);
  }

 private:
  const char* owner_;
  std::vector<ObjectId> ids_;
  std::vector<float> radii_;
  std::vector<std::uint16_t> types_;
  std::vector<ObjectState> states_;
  std::vector<std::uint8_t> frozen_;
  std::vector<std::uint8_t> user_bytes_size_ = std::vector<std::uint8_t>(65536, 0);  // per type
  std::vector<std::uint8_t> user_bytes_;  // body x kMaxUserBytes
  std::vector<BodyIndex> changed_;
};

}  // namespace shoal::engines
