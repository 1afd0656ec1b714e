// SPDX-License-Identifier: MIT
// Whether two peers can play together: the same snapshot encoding (the wire versions' own
// message is wire::wire_version_mismatch, which the security layer sends too). Pure functions,
// so the messages are tested alone; the peer sends what they return in a refusal
// (wire/refusal.hpp) and in its join_failed / join_refused events.
#pragma once

#include <string>
#include <string_view>

#include "wire/encoding_settings.hpp"

namespace shoal::session {

/// Empty when the settings are equal bit for bit; otherwise the first field that differs with
/// both values: "snapshot encoding differs: orientation_bits is 15 on the host, 12 on the
/// joiner".
std::string encoding_mismatch(const wire::EncodingSettings& first_settings, std::string_view first,
                              const wire::EncodingSettings& second_settings, std::string_view second);

}  // namespace shoal::session
