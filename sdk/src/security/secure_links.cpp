// SPDX-License-Identifier: MIT
#include "security/secure_links.hpp"

#include <stdexcept>
#include <string>

#include "security/audit_disclosure.hpp"
#include "wire/dismissal.hpp"
#include "wire/refusal.hpp"

namespace shoal::security {
namespace {

// The layer's own frames, inside envelopes (Envelope::seal_own): [u8 kind][body].
constexpr std::uint8_t kRevocationFrame = 1;

// What an acceptor tells an opener whose hello it turned down. Only a peer whose hello parsed
// is told anything, sealed to that hello's fresh key; a token of another authority learns no
// more than that it is not invited here.
wire::Dismissal dismissal_for(DropReason reason, const Hello& hello, const RevocationRecord* revocation,
                              std::int64_t now_unix_s) {
  switch (reason) {
    case DropReason::wrong_session:
      return {wire::DismissalCause::wrong_session,
              "the invitation is for session '" + hello.token.session + "', not this one"};
    case DropReason::token_expired:
      return {wire::DismissalCause::token_expired,
              "the invitation expired " + std::to_string(now_unix_s - hello.token.expires_unix_s) +
                  " s ago by this peer's clock"};
    case DropReason::revoked:
      return {wire::DismissalCause::revoked,
              "the session's authority revoked this invitation" +
                  (revocation != nullptr && !revocation->reason.empty() ? ": " + revocation->reason : std::string{})};
    default:
      return {wire::DismissalCause::not_invited, "not invited: the session's authority did not sign this invitation"};
  }
}

}  // namespace

SecureLinks::SecureLinks(Transport& inner, const SecurityConfig& config) : inner_(inner) {
  auto own = parse_credentials(config.credentials.bytes);
  if (!own) {
    throw std::invalid_argument(config.credentials.empty()
        ? "security is on but no credentials were given: issue them with shoal::SessionAuthority "
          "(or turn security off on both ends)"
        : "the credentials are not well-formed (not made by shoal::SessionAuthority::invite)");
  }
  if (config.token_grace_ms == 0 || config.token_grace_ms > 60'000) {
    throw std::invalid_argument("token_grace_ms is " + std::to_string(config.token_grace_ms) +
                                ": expected 1..60000");
  }
  own_ = std::move(*own);
  audit_key_ = config.audit_key;
  grace_us_ = std::int64_t{config.token_grace_ms} * 1000;
}

ConnectionId SecureLinks::connect(const Address& remote) {
  const ConnectionId id = inner_.connect(remote);
  if (id != kNoConnection) {
    Link& link = links_[id];
    link.opened_here = true;
    link.known_above = true;
    link.handshake = std::make_unique<Handshake>();
  }
  return id;
}

void SecureLinks::disconnect(ConnectionId connection) {
  // The link stays until the transport underneath reports the end, which is passed on. A
  // closing link is closed by expire(), after what it was told has left.
  const auto found = links_.find(connection);
  if (found != links_.end() && found->second.closing_at_us < 0) inner_.disconnect(connection);
}

bool SecureLinks::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  const auto found = links_.find(connection);
  if (found == links_.end() || !found->second.envelope || found->second.closing_at_us >= 0 ||
      bytes.size() > max_message_size()) {
    return false;
  }
  if (!found->second.envelope->seal(channel, bytes, sealed_)) {
    inner_.disconnect(connection);  // sequence numbers used up: never reuse a nonce
    return false;
  }
  return inner_.send(connection, channel, sealed_);
}

std::size_t SecureLinks::max_message_size() const {
  const std::size_t inner = inner_.max_message_size();
  return inner > Envelope::kOverhead ? inner - Envelope::kOverhead : 0;
}

DropCounters SecureLinks::drops() const {
  DropCounters sum = inner_.drops();
  for (std::size_t i = 0; i < sum.counts.size(); ++i) sum.counts[i] += drops_.counts[i];
  return sum;
}

bool SecureLinks::poll(TransportEvent& event, std::int64_t now_us) {
  now_us_ = now_us;
  expire(now_us);
  // Bounded by what the transport underneath has: it returns false once drained.
  for (;;) {
    if (!pending_.empty()) {
      opened_ = std::move(pending_.front().bytes);
      event = pending_.front().event;
      if (event.kind == TransportEventKind::message) event.payload = opened_;
      pending_.pop_front();
      return true;
    }
    TransportEvent in;
    if (!inner_.poll(in, now_us)) return false;
    if (on_event(in, event, now_us)) return true;
  }
}

void SecureLinks::hand_up(TransportEventKind kind, ConnectionId id, std::vector<std::uint8_t> bytes) {
  Pending pending;
  pending.event.kind = kind;
  pending.event.connection = id;
  pending.event.channel = Channel::control;
  pending.bytes = std::move(bytes);
  pending_.push_back(std::move(pending));
}

void SecureLinks::expire(std::int64_t now_us) {
  std::vector<ConnectionId> late, closed;
  for (const auto& [id, link] : links_) {
    if (link.closing_at_us >= 0) {
      if (now_us >= link.closing_at_us) closed.push_back(id);
    } else if (!link.envelope && link.connected_below && now_us >= link.deadline_us) {
      late.push_back(id);
    }
  }
  for (const ConnectionId id : late) refuse(id, DropReason::no_token);
  for (const ConnectionId id : closed) {
    links_.erase(id);  // the layers above heard of its end when it began closing
    inner_.disconnect(id);
  }
}

void SecureLinks::refuse(ConnectionId id, DropReason reason) {
  drops_.add(reason);
  const auto found = links_.find(id);
  if (found == links_.end()) return;
  if (found->second.known_above) hand_up(TransportEventKind::disconnected, id);
  links_.erase(found);  // what the transport underneath still reports of it is dropped
  inner_.disconnect(id);
}

void SecureLinks::linger(ConnectionId id, Link& link, DropReason reason, std::int64_t now_us) {
  if (link.closing_at_us >= 0) return;
  if (link.known_above) hand_up(TransportEventKind::disconnected, id);
  link.closing_at_us = now_us + kLingerUs;
  link.closing_reason = reason;
  link.handshake.reset();
}

bool SecureLinks::on_event(const TransportEvent& in, TransportEvent& out, std::int64_t now_us) {
  const auto found = links_.find(in.connection);
  switch (in.kind) {
    case TransportEventKind::connected: {
      // An incoming connection gets a link (and costs a key pair) only now; nothing above
      // hears of it before its hello checks out.
      Link& link = found != links_.end() ? found->second : links_[in.connection];
      if (!link.handshake) link.handshake = std::make_unique<Handshake>();
      link.connected_below = true;
      link.deadline_us = now_us + grace_us_;
      // The opener speaks first; the acceptor answers only a hello that checks out, so a
      // stranger learns nothing of it and costs it no signature.
      if (link.opened_here) inner_.send(in.connection, Channel::control, link.handshake->hello(own_));
      return false;
    }
    case TransportEventKind::disconnected:
    case TransportEventKind::timed_out: {
      if (found == links_.end()) return false;
      const bool report = found->second.known_above && found->second.closing_at_us < 0;
      links_.erase(found);
      if (!report) return false;
      out = in;
      return true;
    }
    case TransportEventKind::message: {
      if (found == links_.end() || !found->second.connected_below) {
        drops_.add(DropReason::no_token);
        return false;
      }
      return on_message(in.connection, found->second, in.channel, in.payload, out, now_us);
    }
  }
  return false;
}

bool SecureLinks::on_message(ConnectionId id, Link& link, Channel channel, std::span<const std::uint8_t> bytes,
                             TransportEvent& out, std::int64_t now_us) {
  if (link.closing_at_us >= 0) {
    drops_.add(link.closing_reason);
    return false;
  }
  if (!link.envelope) {
    if (channel != Channel::control) {  // nothing but a hello before the handshake
      drops_.add(DropReason::no_token);
      return false;
    }
    if (frame_kind(bytes) == FrameKind::hello) return on_hello(id, link, bytes, out, now_us);
    if (link.opened_here) {
      on_refused(id, link, bytes);
    } else {
      on_stranger(id, bytes, now_us);
    }
    return false;
  }
  if (is_disclosure(channel, bytes)) return false;  // for the auditor, not for us
  bool own = false;
  if (const auto dropped = link.envelope->open(channel, bytes, opened_, &own)) {
    drops_.add(*dropped);
    return false;
  }
  if (own) {
    on_own_frame(id, opened_);
    return false;
  }
  // A link notice is this layer's word to its own peer: one that comes from the other end is
  // an impersonation of it.
  if (wire::kind_of_any_version(opened_) == static_cast<int>(wire::MessageKind::link_notice)) {
    drops_.add(DropReason::forged);
    return false;
  }
  out = {};
  out.kind = TransportEventKind::message;
  out.connection = id;
  out.channel = channel;
  out.payload = opened_;
  return true;
}

void SecureLinks::on_stranger(ConnectionId id, std::span<const std::uint8_t> bytes, std::int64_t now_us) {
  Link& link = links_.at(id);
  // A Shoal peer in the clear introducing itself (bytes 0-3 mean the same in every version):
  // told why it cannot play, in the clear, so that it does not wait for a join that never comes.
  std::optional<wire::Refusal> refusal = wire::refuse_introduction(bytes);
  DropReason reason = DropReason::unsupported_version;
  if (!refusal && wire::version_of(bytes) == wire::kProtocolVersion) {
    const int kind = wire::kind_of_any_version(bytes);
    if (kind == static_cast<int>(wire::MessageKind::join_request) || kind == static_cast<int>(wire::MessageKind::hello)) {
      refusal = wire::Refusal{wire::kProtocolVersion, wire::kProtocolVersion,
                              "links differ: this peer's are secured (join tokens, encryption), the other peer's "
                              "are in the clear; turn security on, or off, on both"};
      reason = DropReason::no_token;
    }
  }
  if (!refusal) return refuse(id, DropReason::no_token);
  std::vector<std::uint8_t> answer;
  wire::encode(*refusal, answer);
  inner_.send(id, Channel::control, answer);
  drops_.add(reason);
  linger(id, link, reason, now_us);
}

void SecureLinks::on_refused(ConnectionId id, Link& link, std::span<const std::uint8_t> bytes) {
  // The acceptor's reason, sealed to this end's hello; or, from a peer in the clear (of any
  // version), a refusal that names both versions or says that the links differ.
  std::vector<std::uint8_t> reason;
  if (auto opened = link.handshake->open_refusal(bytes)) {
    wire::Dismissal dismissal;
    if (wire::decode(*opened, dismissal)) reason = std::move(*opened);
  } else if (wire::Refusal refusal; wire::decode_refusal(bytes, refusal)) {
    reason.assign(bytes.begin(), bytes.end());
  }
  if (reason.empty()) return refuse(id, DropReason::no_token);
  hand_up(TransportEventKind::message, id, std::move(reason));
  // Its end closes the link; this end need not wait for anything more on it.
  hand_up(TransportEventKind::disconnected, id);
  links_.erase(id);
  inner_.disconnect(id);
}

bool SecureLinks::on_hello(ConnectionId id, Link& link, std::span<const std::uint8_t> bytes, TransportEvent& out,
                           std::int64_t now_us) {
  const auto hello = read_hello(bytes);
  if (const auto* refused = std::get_if<DropReason>(&hello)) {
    refuse(id, *refused);
    return false;
  }
  const Hello& theirs = std::get<Hello>(hello);
  const std::int64_t now_unix_s = unix_now_s();
  bool single_use = false;
  auto agreed = link.handshake->agree(theirs, own_, link.opened_here, now_unix_s, &single_use);
  const RevocationRecord* revocation = revocations_.find(theirs.token.peer_key);
  if (revocation != nullptr && std::holds_alternative<LinkKeys>(agreed)) agreed = DropReason::revoked;
  if (const auto* refused = std::get_if<DropReason>(&agreed)) {
    if (link.opened_here) {  // an acceptor is told nothing: it answered, it is no stranger
      refuse(id, *refused);
      return false;
    }
    std::vector<std::uint8_t> message;
    wire::encode(dismissal_for(*refused, theirs, revocation, now_unix_s), message);
    inner_.send(id, Channel::control, refusal_frame(theirs, message));
    drops_.add(*refused);
    linger(id, link, *refused, now_us);
    return false;
  }
  if (!link.opened_here) inner_.send(id, Channel::control, link.handshake->hello(own_));
  const LinkKeys& keys = std::get<LinkKeys>(agreed);
  if (audit_key_) inner_.send(id, Channel::control, disclose(keys.send, *audit_key_));
  link.envelope = std::make_unique<Envelope>(keys);
  link.handshake.reset();
  link.peer_key = theirs.token.peer_key;
  link.known_above = true;
  wire::LinkNotice identity;
  identity.key = theirs.token.peer_key;
  identity.single_use = single_use;
  std::vector<std::uint8_t> notice;
  wire::encode(identity, notice);
  hand_up(TransportEventKind::message, id, std::move(notice));
  // Every revocation this end knows, so that the other end refuses whom this one refuses.
  for (const RevocationRecord& record : revocations_.all()) {
    std::vector<std::uint8_t> frame{kRevocationFrame};
    append_revocation(frame, record);
    send_own(id, link, frame);
  }
  out = {};
  out.kind = TransportEventKind::connected;
  out.connection = id;
  return true;
}

void SecureLinks::send_own(ConnectionId id, Link& link, std::span<const std::uint8_t> frame) {
  if (link.envelope && link.closing_at_us < 0 && link.envelope->seal_own(frame, sealed_)) {
    inner_.send(id, Channel::control, sealed_);
  }
}

void SecureLinks::on_own_frame(ConnectionId id, std::span<const std::uint8_t> frame) {
  if (frame.empty() || frame[0] != kRevocationFrame) return drops_.add(DropReason::unknown_kind);
  const std::optional<RevocationRecord> record = read_revocation(frame.subspan(1));
  if (!record) return drops_.add(DropReason::malformed);
  // Any member hands revocations on, but only the authority's signature makes one.
  if (!verify_revocation(*record, own_.authority, own_.token.session)) return drops_.add(DropReason::forged);
  apply(*record, id);
}

bool SecureLinks::revoke(std::span<const std::uint8_t> revocation) {
  const std::optional<RevocationRecord> record = read_revocation(revocation);
  if (!record || !verify_revocation(*record, own_.authority, own_.token.session)) return false;
  apply(*record, kNoConnection);
  return true;
}

void SecureLinks::apply(const RevocationRecord& record, ConnectionId arrived_on) {
  if (!revocations_.add(record)) return;  // known already: handed on when it first came
  std::vector<std::uint8_t> frame{kRevocationFrame};
  append_revocation(frame, record);
  // To every link, the revoked peer's too: it learns why before its links close.
  for (auto& [id, link] : links_) {
    if (id != arrived_on) send_own(id, link, frame);
  }
  if (record.peer_key == own_.token.peer_key) {
    // This peer's own invitation: its peer is told, and leaves; the others close their links.
    ConnectionId told = arrived_on;
    for (const auto& [id, link] : links_) {
      if (told == kNoConnection && link.envelope && link.closing_at_us < 0) told = id;
    }
    if (told == kNoConnection) return;
    wire::LinkNotice notice;
    notice.kind = wire::LinkNoticeKind::revoked;
    notice.reason = record.reason;
    std::vector<std::uint8_t> bytes;
    wire::encode(notice, bytes);
    hand_up(TransportEventKind::message, told, std::move(bytes));
    return;
  }
  for (auto& [id, link] : links_) {
    if (link.envelope && link.closing_at_us < 0 && link.peer_key == record.peer_key) {
      linger(id, link, DropReason::revoked, now_us_);
    }
  }
}

}  // namespace shoal::security
