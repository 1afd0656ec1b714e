// SPDX-License-Identifier: MIT
// What the session's authority signs and games pass around as text: credentials
// (security/join_token.hpp; Credentials::from_text) and revocations (security/revocation.hpp;
// Revocation::from_text, and the frames that carry them between members). Input: one byte
// choosing which, then the bytes. Anything accepted re-encodes to the same bytes, and a
// revocation is believed only when the fuzz authority signed it for the fuzz session.
#include <algorithm>
#include <string>
#include <vector>

#include "fuzz_keys.hpp"
#include "fuzz_target.hpp"
#include "shoal/security.hpp"

using namespace shoal;
using namespace shoal::security;

namespace {

void check_credentials(std::span<const std::uint8_t> bytes) {
  const std::optional<OwnCredentials> own = parse_credentials(bytes);
  if (!own) return;
  const Credentials again = make_credentials(own->authority, own->token, own->peer_secret);
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), again.bytes.begin(), again.bytes.end()),
             "accepted credentials re-encode to the same bytes");
  FUZZ_CHECK(signed_single_use(own->token, own->authority) == own->token.single_use,
             "accepted credentials carry a token their authority signed");
  const Credentials as_given{{bytes.begin(), bytes.end()}};
  const std::optional<Credentials> from_text = Credentials::from_text(as_given.to_text());
  FUZZ_CHECK(from_text && from_text->bytes == as_given.bytes, "credentials read back from their text");
  FUZZ_CHECK(as_given.peer_key() == own->token.peer_key, "credentials name their token's key");
}

void check_revocation(std::span<const std::uint8_t> bytes) {
  const std::optional<RevocationRecord> record = read_revocation(bytes);
  if (!record) return;
  FUZZ_CHECK(record->reason.size() <= kMaxRevocationReason, "an accepted revocation's reason stays in bounds");
  std::vector<std::uint8_t> again;
  append_revocation(again, *record);
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), again.begin(), again.end()),
             "an accepted revocation re-encodes to the same bytes");
  if (verify_revocation(*record, fuzz::signing_keys(0).public_key, fuzz::kFuzzSession)) {
    FUZZ_CHECK(record->session == fuzz::kFuzzSession, "a believed revocation names the session");
  }
  Revocations list;
  FUZZ_CHECK(list.add(*record) && !list.add(*record) && list.find(record->peer_key) != nullptr,
             "a revocation list holds a key once");
}

}  // namespace

SHOAL_FUZZ_TARGET(credentials) {
  fuzz::InputCursor input(data, size);
  const std::uint8_t which = input.u8();
  const std::span<const std::uint8_t> bytes = input.bytes(input.left());
  switch (which % 3) {
    case 0: check_credentials(bytes); break;
    case 1: check_revocation(bytes); break;
    default: {  // as text, the way a game hands them over
      const std::string text(bytes.begin(), bytes.end());
      if (const std::optional<Credentials> c = Credentials::from_text(text)) check_credentials(c->bytes);
      if (const std::optional<Revocation> r = Revocation::from_text(text)) check_revocation(r->bytes);
      break;
    }
  }
  return 0;
}
