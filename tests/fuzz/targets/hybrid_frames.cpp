// SPDX-License-Identifier: MIT
// What two hybrid transports say inside each path (transport/hybrid_frames.hpp): any bytes are
// accepted or refused without harm; an accepted frame re-encodes to the same bytes.
#include <algorithm>
#include <vector>

#include "fuzz_target.hpp"
#include "transport/hybrid_frames.hpp"

using namespace shoal;
using namespace shoal::transport;

SHOAL_FUZZ_TARGET(hybrid_frames) {
  const std::span<const std::uint8_t> bytes(data, size);
  HybridFrame frame;
  if (!decode_hybrid(bytes, frame)) return 0;
  std::vector<std::uint8_t> again;
  switch (frame.type) {
    case HybridFrameType::hello:
      FUZZ_CHECK(frame.hello.direct_host.size() <= kMaxHybridHostSize, "a hello's host fits its size byte");
      encode_hybrid_hello(frame.hello, again);
      break;
    case HybridFrameType::close: encode_hybrid_close(again); break;
    case HybridFrameType::sequenced: encode_hybrid_sequenced(frame.seq, frame.payload, again); break;
    case HybridFrameType::datagram: encode_hybrid_datagram(frame.payload, again); break;
    case HybridFrameType::ack: encode_hybrid_ack(frame.seq, again); break;
    case HybridFrameType::punch: encode_hybrid_punch(frame.punch_answer, again); break;
  }
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), again.begin(), again.end()),
             "an accepted hybrid frame re-encodes to the same bytes");
  return 0;
}
