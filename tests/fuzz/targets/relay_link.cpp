// SPDX-License-Identifier: MIT
// The link protocol two relay clients speak inside forwarded payloads (decode_link in
// transport/relay_protocol.hpp). Input: one byte whose low bit says whether data carries a
// sequence number (the control channel's links), then the payload. Accepted messages re-encode
// to the same bytes.
#include <algorithm>
#include <vector>

#include "fuzz_target.hpp"
#include "transport/relay_protocol.hpp"

using namespace shoal;
using namespace shoal::transport;

SHOAL_FUZZ_TARGET(relay_link) {
  fuzz::InputCursor input(data, size);
  const bool data_has_seq = (input.u8() & 1) != 0;
  const std::span<const std::uint8_t> bytes = input.bytes(input.left());
  LinkMessage message;
  if (!decode_link(bytes, data_has_seq, message)) return 0;
  std::vector<std::uint8_t> again;
  switch (message.type) {
    case LinkType::open:
    case LinkType::accept:
    case LinkType::close: encode_link(message.type, message.tag, again); break;
    case LinkType::ack: encode_link_seq(message.type, message.tag, message.seq, again); break;
    case LinkType::data:
      if (data_has_seq) {
        encode_link_seq(message.type, message.tag, message.seq, again);
      } else {
        encode_link(message.type, message.tag, again);
      }
      FUZZ_CHECK(message.payload.size() == bytes.size() - again.size(), "a data payload is the rest of the message");
      again.insert(again.end(), message.payload.begin(), message.payload.end());
      break;
  }
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), again.begin(), again.end()),
             "an accepted link message re-encodes to the same bytes");
  return 0;
}
