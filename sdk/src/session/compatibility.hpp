// SPDX-License-Identifier: MIT
// Whether two peers can play together: the same wire version and the same snapshot encoding.
// Pure functions, so the messages are tested alone; the peer sends what they return in a
// refusal (wire/refusal.hpp) and in its join_failed / join_refused events.
#pragma once

#include <string>
#include <string_view>

#include "wire/encoding_settings.hpp"

namespace shoal::session {

/// "wire versions differ: the host speaks wire version 8, the joiner 9", naming each side by
/// the role given; empty when the versions are equal.
std::string wire_version_mismatch(int first_version, std::string_view first, int second_version,
                                  std::string_view second);

/// Empty when the settings are equal bit for bit; otherwise the first field that differs with
/// both values: "snapshot encoding differs: orientation_bits is 15 on the host, 12 on the
/// joiner".
std::string encoding_mismatch(const wire::EncodingSettings& first_settings, std::string_view first,
                              const wire::EncodingSettings& second_settings, std::string_view second);

}  // namespace shoal::session
