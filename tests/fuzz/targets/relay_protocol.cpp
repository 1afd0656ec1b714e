// SPDX-License-Identifier: MIT
// What relay clients and shoal-relay say to each other (transport/relay_protocol.hpp), decoded
// as the relay and its clients decode every ENet message: any bytes get a verdict with a reason;
// an accepted message re-encodes to the same bytes.
#include <algorithm>
#include <vector>

#include "fuzz_target.hpp"
#include "transport/relay_protocol.hpp"

using namespace shoal;
using namespace shoal::transport;

namespace {

// Encodes a decoded message again, by its kind.
void reencode(const RelayMessage& m, std::vector<std::uint8_t>& out) {
  switch (m.kind) {
    case RelayKind::join: encode_join(m.join, out); break;
    case RelayKind::forward: encode_forward(m.slot, m.payload, out); break;
    case RelayKind::list_sessions: encode_list_sessions(out); break;
    case RelayKind::joined: encode_joined(m.joined, out); break;
    case RelayKind::refused:
      if (m.refusal == RefusalReason::version_mismatch) {
        // Read whatever its version byte says (any version's relay may send it).
        encode_version_refusal(m.client_version, out);
        out[1] = m.relay_version;
      } else {
        encode_refused(m.refusal, out);
      }
      break;
    case RelayKind::deliver: encode_deliver(m.slot, m.payload, out); break;
    case RelayKind::member_joined: encode_member_joined({m.slot, m.endpoint}, out); break;
    case RelayKind::member_left: encode_member_left(m.slot, out); break;
    case RelayKind::session_list: encode_session_list(m.sessions, out); break;
    case RelayKind::sealed:
      encode_sealed_header(out);
      out.insert(out.end(), m.payload.begin(), m.payload.end());
      break;
  }
}

}  // namespace

SHOAL_FUZZ_TARGET(relay_protocol) {
  const std::span<const std::uint8_t> bytes(data, size);
  RelayMessage message;
  DropReason why = DropReason::count;
  if (!decode_relay(bytes, message, why)) {
    FUZZ_CHECK(why < DropReason::count, "a rejected relay message names a reason");
    return 0;
  }
  if (message.kind == RelayKind::forward || message.kind == RelayKind::deliver || message.kind == RelayKind::sealed) {
    FUZZ_CHECK(message.payload.empty() || (message.payload.data() >= bytes.data() &&
                                           message.payload.data() + message.payload.size() == bytes.data() + bytes.size()),
               "a payload is the end of the message it came in");
  }
  std::vector<std::uint8_t> again;
  reencode(message, again);
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), again.begin(), again.end()),
             "an accepted relay message re-encodes to the same bytes");
  return 0;
}
