// SPDX-License-Identifier: MIT
// Conversions between the C structs of shoal.h and the C++ values they mirror. The C side
// only ever mirrors: every default comes from a default-constructed C++ value, so the two
// cannot drift apart.
#pragma once

#include <cstddef>
#include <string>

#include "boundary.hpp"
#include "shoal/diagnosis.hpp"
#include "shoal/events.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "shoal/shoal.h"
#include "shoal/transport.hpp"

namespace shoal_c {

inline shoal::Vec3 to_cpp(const shoal_vec3& v) { return {v.x, v.y, v.z}; }
inline shoal_vec3 to_c(const shoal::Vec3& v) { return {v.x, v.y, v.z}; }
inline shoal::Quat to_cpp(const shoal_quat& q) { return {q.w, q.x, q.y, q.z}; }
inline shoal_quat to_c(const shoal::Quat& q) { return {q.w, q.x, q.y, q.z}; }

inline shoal::ObjectState to_cpp(const shoal_object_state& s) {
  return {to_cpp(s.position), to_cpp(s.orientation), to_cpp(s.linear_velocity),
          to_cpp(s.angular_velocity), s.at_rest != 0};
}
/// to_cpp(s), or an Error naming `field` when a number in it is not finite.
shoal::ObjectState to_cpp_finite(const shoal_object_state& s, const char* field);
inline shoal_object_state to_c(const shoal::ObjectState& s) {
  return {to_c(s.position), to_c(s.orientation), to_c(s.linear_velocity),
          to_c(s.angular_velocity), s.at_rest ? 1 : 0};
}
inline shoal_visual_state to_c(const shoal::VisualState& v) {
  return {to_c(v.position), to_c(v.orientation)};
}
inline shoal::Input to_cpp(const shoal_input& i) { return {to_cpp(i.axis), i.buttons}; }
inline shoal_input to_c(const shoal::Input& i) { return {to_c(i.axis), i.buttons}; }

shoal::SmoothingRule to_cpp(const shoal_smoothing_rule& r);
shoal_smoothing_rule to_c(const shoal::SmoothingRule& r);
shoal::PeerConfig to_cpp(const shoal_peer_config& c);
shoal_peer_config to_c(const shoal::PeerConfig& c);

shoal::ReferencePhysicsConfig to_cpp(const shoal_world_config& c);
shoal_world_config to_c(const shoal::ReferencePhysicsConfig& c);

shoal::LinkConditions to_cpp(const shoal_link_conditions& c);
shoal_link_conditions to_c(const shoal::LinkConditions& c);
shoal::ConditionerConfig to_cpp(const shoal_conditioner& c);
shoal_conditioner to_c(const shoal::ConditionerConfig& c);
shoal::TransportConfig to_cpp(const shoal_enet_config& c);
shoal_enet_config to_c(const shoal::TransportConfig& c);
/// `field` names the host in messages: what the caller passed, or where the value came from.
shoal::Address to_cpp(const shoal_address& a, const char* field);
shoal_address to_c(const shoal::Address& a, const char* field);

shoal_event to_c(const shoal::Event& e);
shoal_stats to_c(const shoal::PeerStats& s);
shoal_remote_stats to_c(const shoal::RemotePeerStats& r);
shoal_object_diagnosis to_c(const shoal::ObjectDiagnosis& d);

/// The NUL-terminated string in a fixed char array, or an Error naming `field` when the
/// array holds no NUL (the caller filled all of it).
template <std::size_t N>
std::string from_c_array(const char (&chars)[N], const char* field) {
  for (std::size_t i = 0; i < N; ++i) {
    if (chars[i] == '\0') return std::string(chars, i);
  }
  throw Error(SHOAL_ERROR_INVALID_ARGUMENT, std::string(field) + " has no terminating NUL within its " +
                                                std::to_string(N) + " bytes: expected at most " +
                                                std::to_string(N - 1) + " bytes of text");
}

/// Copies `text` into a fixed char array, NUL-terminated; an Error naming `field` when it
/// does not fit.
template <std::size_t N>
void to_c_array(const std::string& text, char (&chars)[N], const char* field) {
  if (text.size() >= N) {
    throw Error(SHOAL_ERROR_INTERNAL, std::string(field) + " is " + std::to_string(text.size()) +
                                          " bytes long: expected at most " + std::to_string(N - 1));
  }
  text.copy(chars, text.size());
  chars[text.size()] = '\0';
}

}  // namespace shoal_c
