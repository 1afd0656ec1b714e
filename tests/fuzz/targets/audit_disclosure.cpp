// SPDX-License-Identifier: MIT
// What an auditing relay reads of one direction of a secured route (peer/auditing_relay.cpp,
// security/audit_disclosure.hpp): a stream of [u8 channel][u16 length][bytes], in which a
// disclosure of the sender's key, sealed to the fuzz auditor (fuzz_keys.hpp), lets the relay
// open that direction's envelopes. Any bytes get a verdict; a disclosure that opens gives a key
// which, disclosed again, has a disclosure's shape; what opens then is the envelope less 20 bytes.
#include <memory>
#include <vector>

#include "fuzz_keys.hpp"
#include "fuzz_target.hpp"
#include "security/audit_disclosure.hpp"

using namespace shoal;
using namespace shoal::security;

namespace {

const AuditKeys& auditor() {
  static AuditKeys keys;  // the constructor draws a random pair; the fuzz auditor's replaces it
  static const bool fixed = (fuzz::fuzz_audit_keys(keys), true);
  (void)fixed;
  return keys;
}

}  // namespace

SHOAL_FUZZ_TARGET(audit_disclosure) {
  fuzz::InputCursor input(data, size);
  std::unique_ptr<Envelope> opener;
  std::vector<std::uint8_t> opened;
  while (!input.empty()) {
    const auto channel = static_cast<Channel>(input.u8() % kChannelCount);
    const std::span<const std::uint8_t> bytes = input.chunk();
    if (is_disclosure(channel, bytes)) {
      const std::optional<SymmetricKey> key = read_disclosure(bytes, auditor());
      if (!key) continue;  // sealed to another auditor, or tampered with
      FUZZ_CHECK(is_disclosure(Channel::control, disclose(*key, auditor().public_key)),
                 "a key disclosed again has a disclosure's shape");
      LinkKeys keys;
      keys.receive = *key;
      opener = std::make_unique<Envelope>(keys);
      continue;
    }
    if (!opener) continue;  // in the clear, or its key never disclosed: the relay reads it as it is
    if (const auto dropped = opener->open(channel, bytes, opened)) {
      FUZZ_CHECK(*dropped < DropReason::count, "a dropped message names a reason");
      continue;
    }
    FUZZ_CHECK(opened.size() + Envelope::kOverhead == bytes.size(), "a message is its envelope less 20 bytes");
  }
  return 0;
}
