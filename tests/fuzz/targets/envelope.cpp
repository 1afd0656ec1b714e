// SPDX-License-Identifier: MIT
// What arrives on one secured link after its handshake (security/envelope.hpp), opened as the
// security layer opens it with the fuzz link's keys (fuzz_keys.hpp): a stream of
// [u8 channel][u16 length][bytes]. Every message gets a verdict with a reason; one that opens is
// the sealed bytes less the envelope, opens once only (again: a replay), and when it is one of
// the layer's own frames, its revocation is read and believed as the layer reads it.
#include <vector>

#include "fuzz_keys.hpp"
#include "fuzz_target.hpp"
#include "security/envelope.hpp"
#include "wire/refusal.hpp"

using namespace shoal;
using namespace shoal::security;

SHOAL_FUZZ_TARGET(envelope) {
  fuzz::InputCursor input(data, size);
  Envelope envelope(fuzz::fuzz_link_keys(false));
  std::vector<std::uint8_t> opened, again;
  // Bounded by the input: every message takes at least a byte of it.
  while (!input.empty()) {
    const auto channel = static_cast<Channel>(input.u8() % (kChannelCount + 1));  // and one that is no channel
    const std::span<const std::uint8_t> sealed = input.chunk();
    bool own = false;
    if (const auto dropped = envelope.open(channel, sealed, opened, &own)) {
      FUZZ_CHECK(*dropped < DropReason::count, "a dropped message names a reason");
      continue;
    }
    FUZZ_CHECK(static_cast<int>(channel) < kChannelCount, "nothing opens on a channel that does not exist");
    FUZZ_CHECK(opened.size() + Envelope::kOverhead == sealed.size(), "a message is its envelope less 20 bytes");
    FUZZ_CHECK(!own || channel == Channel::control, "the layer's own frames come on the control channel only");
    FUZZ_CHECK(envelope.open(channel, sealed, again) == DropReason::replayed, "a message opens once");
    if (own && !opened.empty()) {  // a revocation frame ([1][record]), as the layer reads it
      const std::span<const std::uint8_t> body = std::span<const std::uint8_t>(opened).subspan(1);
      if (const std::optional<RevocationRecord> record = read_revocation(body)) {
        (void)verify_revocation(*record, fuzz::signing_keys(0).public_key, fuzz::kFuzzSession);
      }
    }
    (void)wire::kind_of_any_version(opened);  // the layer's check for a link notice from the other end
  }
  return 0;
}
