// SPDX-License-Identifier: MIT
// Game messages from C: sending one, and reading the bytes of the last message event polled.
#include <span>

#include "boundary.hpp"
#include "handles.hpp"

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_peer_send_message(shoal_peer* peer, uint16_t to, const uint8_t* bytes, size_t size, int32_t delivery,
                            int32_t frame) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    if (size > 0) require(bytes, "bytes");
    if (delivery != SHOAL_DELIVERY_RELIABLE && delivery != SHOAL_DELIVERY_UNRELIABLE) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, "delivery is " + std::to_string(delivery) +
                                                             ", expected SHOAL_DELIVERY_RELIABLE (0) or SHOAL_DELIVERY_UNRELIABLE (1)");
    }
    const auto how = delivery == SHOAL_DELIVERY_RELIABLE ? shoal::Delivery::reliable : shoal::Delivery::unreliable;
    return p.peer->send_message(to, std::span<const std::uint8_t>(bytes, size), how, frame) ? 1 : 0;
  });
}

int shoal_peer_event_message(const shoal_peer* peer, const uint8_t** out_bytes, size_t* out_size, int32_t* out_reliable) {
  return guarded(__func__, [&] {
    const shoal_peer& p = require(peer, "peer");
    if (!p.last_event_is_message) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_STATE, "the last event polled is no SHOAL_EVENT_MESSAGE");
    }
    if (out_bytes != nullptr) *out_bytes = p.last_event_bytes.data();
    if (out_size != nullptr) *out_size = p.last_event_bytes.size();
    if (out_reliable != nullptr) *out_reliable = p.last_event_reliable ? 1 : 0;
    return SHOAL_OK;
  });
}

}  // extern "C"
