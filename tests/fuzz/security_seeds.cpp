// SPDX-License-Identifier: MIT
#include "security_seeds.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "fuzz_keys.hpp"
#include "security/handshake.hpp"
#include "shoal/security.hpp"
#include "wire/dismissal.hpp"
#include "wire/packet_header.hpp"

namespace shoal::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace security;

constexpr std::size_t kStreamLength = 24;  // messages per envelope or audit seed

// [u8 channel][u16 length][bytes]: a message of a stream seed.
void append_message(Channel channel, std::span<const std::uint8_t> bytes, Bytes& out) {
  out.push_back(static_cast<std::uint8_t>(channel));
  append_chunk(bytes, out);
}

// Up to kStreamLength of the match's messages from `from` on, sealed as the fuzz link's sender
// seals them; then a revocation as the layer's own frame, and the first message once more.
Bytes sealed_stream(const std::vector<TappedMessage>& clear, std::size_t from, Envelope& sender) {
  Bytes stream, sealed, first;
  Channel first_channel = Channel::control;
  for (std::size_t i = from; i < clear.size() && i < from + kStreamLength; ++i) {
    wire::MessageKind kind{};
    const Channel channel = wire::read_header(clear[i].bytes, kind) ? wire::channel_of(kind) : Channel::control;
    sender.seal(channel, clear[i].bytes, sealed);
    if (first.empty()) {
      first = sealed;
      first_channel = channel;
    }
    append_message(channel, sealed, stream);
  }
  Bytes frame{1};  // the layer's revocation frame
  append_revocation(frame, fuzz_revocation(2, "voted out"));
  sender.seal_own(frame, sealed);
  append_message(Channel::control, sealed, stream);
  if (!first.empty()) append_message(first_channel, first, stream);  // a replay
  return stream;
}

std::map<std::string, Bytes> hello_seeds(const std::vector<TappedMessage>& sealed) {
  std::map<std::string, Bytes> seeds;
  std::set<Bytes> seen;
  for (const TappedMessage& m : sealed) {
    if (frame_kind(m.bytes) != FrameKind::hello || !seen.insert(m.bytes).second) continue;
    seeds["hello-" + std::to_string(seeds.size())] = m.bytes;
    if (seeds.size() == 6) break;
  }
  // A refusal frame, as an acceptor answers a revoked invitation's hello.
  if (const auto hello = seen.empty() ? std::variant<Hello, DropReason>(DropReason::truncated) : read_hello(*seen.begin());
      std::holds_alternative<Hello>(hello)) {
    Bytes dismissal;
    wire::encode(wire::Dismissal{wire::DismissalCause::revoked, "the session's authority revoked this invitation: voted out"},
                 dismissal);
    seeds["refusal-frame"] = refusal_frame(std::get<Hello>(hello), dismissal);
  }
  return seeds;
}

std::map<std::string, Bytes> credentials_seeds() {
  const auto with = [](std::uint8_t which, std::span<const std::uint8_t> bytes) {
    Bytes seed{which};
    seed.insert(seed.end(), bytes.begin(), bytes.end());
    return seed;
  };
  const Credentials reusable = fuzz_credentials(1);
  const Credentials single = fuzz_credentials(2, true);
  Bytes revocation;
  append_revocation(revocation, fuzz_revocation(3, "voted out for cheating"));
  const std::string reusable_text = reusable.to_text();
  const std::string revocation_text = Revocation{revocation}.to_text();
  return {{"credentials", with(0, reusable.bytes)},
          {"credentials-single-use", with(0, single.bytes)},
          {"revocation", with(1, revocation)},
          {"credentials-text", with(2, {reinterpret_cast<const std::uint8_t*>(reusable_text.data()), reusable_text.size()})},
          {"revocation-text", with(2, {reinterpret_cast<const std::uint8_t*>(revocation_text.data()), revocation_text.size()})}};
}

}  // namespace

NamedSeeds security_seeds(const std::vector<TappedMessage>& clear, const std::vector<TappedMessage>& sealed) {
  NamedSeeds seeds;
  seeds["hello"] = hello_seeds(sealed);
  seeds["credentials"] = credentials_seeds();
  // The first messages of the match (handshake, welcome, baselines) and later ones (snapshots).
  for (const std::size_t from : {std::size_t{0}, clear.size() / 2}) {
    Envelope sender(fuzz_link_keys(true));
    seeds["envelope"]["stream-" + std::to_string(from)] = sealed_stream(clear, from, sender);
    // The same stream behind a disclosure of the sender's key to the fuzz auditor.
    static AuditKeys auditor;
    fuzz_audit_keys(auditor);
    Envelope disclosed(fuzz_link_keys(true));
    Bytes audited;
    append_message(Channel::control, disclose(fuzz_link_keys(true).send, auditor.public_key), audited);
    const Bytes stream = sealed_stream(clear, from, disclosed);
    audited.insert(audited.end(), stream.begin(), stream.end());
    seeds["audit_disclosure"]["audited-" + std::to_string(from)] = audited;
  }
  return seeds;
}

}  // namespace shoal::fuzz
