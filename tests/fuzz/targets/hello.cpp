// SPDX-License-Identifier: MIT
// The first message of a secured link (security/handshake.hpp): a hello, read as an acceptor
// reads one, then checked against the fuzz session's authority (fuzz_keys.hpp) at a fixed time;
// or a refusal frame, opened as an opener opens one. Any bytes get a verdict with a reason; an
// accepted hello re-encodes to the same bytes, and one that agrees carries a token that checks out.
#include <algorithm>
#include <vector>

#include "fuzz_keys.hpp"
#include "fuzz_target.hpp"
#include "security/handshake.hpp"

using namespace shoal;
using namespace shoal::security;

SHOAL_FUZZ_TARGET(hello) {
  const std::span<const std::uint8_t> bytes(data, size);
  static const OwnCredentials own = *parse_credentials(fuzz::fuzz_credentials(1).bytes);
  static const Handshake handshake;  // its fresh key is random: what agrees does not depend on it
  const std::optional<FrameKind> kind = frame_kind(bytes);
  if (kind == FrameKind::refusal) {
    // Sealed to another key than this handshake's (the fuzzer cannot seal to it): never opens.
    FUZZ_CHECK(!handshake.open_refusal(bytes), "a refusal frame opens only with the key it was sealed to");
    return 0;
  }
  const auto read = read_hello(bytes);
  if (const auto* refused = std::get_if<DropReason>(&read)) {
    FUZZ_CHECK(*refused < DropReason::count, "a refused hello names a reason");
    FUZZ_CHECK(kind != FrameKind::hello || bytes.size() >= 4, "a hello's kind is read from its header");
    return 0;
  }
  const Hello& hello = std::get<Hello>(read);
  FUZZ_CHECK(kind == FrameKind::hello, "an accepted hello has a hello's header");
  std::vector<std::uint8_t> again;
  write_hello(hello, again);
  FUZZ_CHECK(std::equal(bytes.begin(), bytes.end(), again.begin(), again.end()), "an accepted hello re-encodes to the same bytes");
  bool single_use = true;
  const auto agreed = handshake.agree(hello, own, false, fuzz::kFuzzNow, &single_use);
  if (const auto* refused = std::get_if<DropReason>(&agreed)) {
    FUZZ_CHECK(*refused == DropReason::bad_token || *refused == DropReason::wrong_session ||
                   *refused == DropReason::token_expired,
               "a hello is refused for its token or its proof");
    return 0;
  }
  bool checked_single_use = false;
  FUZZ_CHECK(!check_token(hello.token, own.authority, own.token.session, fuzz::kFuzzNow, &checked_single_use),
             "an agreed hello's token checks out");
  FUZZ_CHECK(single_use == checked_single_use, "agreeing tells how the token was signed");
  return 0;
}
