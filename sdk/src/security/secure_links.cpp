// SPDX-License-Identifier: MIT
#include "security/secure_links.hpp"

#include <stdexcept>
#include <string>

#include "security/audit_disclosure.hpp"

namespace shoal::security {

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
    link.handshake = std::make_unique<Handshake>();
  }
  return id;
}

void SecureLinks::disconnect(ConnectionId connection) {
  // The link stays until the transport underneath reports the end, which is passed on.
  if (links_.contains(connection)) inner_.disconnect(connection);
}

bool SecureLinks::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  const auto found = links_.find(connection);
  if (found == links_.end() || !found->second.envelope || bytes.size() > max_message_size()) return false;
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
  expire(now_us);
  // Bounded by what the transport underneath has: it returns false once drained.
  for (;;) {
    if (!pending_.empty()) {
      event = pending_.back();
      pending_.pop_back();
      return true;
    }
    TransportEvent in;
    if (!inner_.poll(in, now_us)) return false;
    if (on_event(in, event, now_us)) return true;
  }
}

void SecureLinks::expire(std::int64_t now_us) {
  std::vector<ConnectionId> late;
  for (const auto& [id, link] : links_) {
    if (!link.envelope && link.connected_below && now_us >= link.deadline_us) late.push_back(id);
  }
  for (const ConnectionId id : late) refuse(id, DropReason::no_token);
}

void SecureLinks::refuse(ConnectionId id, DropReason reason) {
  drops_.add(reason);
  const auto found = links_.find(id);
  if (found == links_.end()) return;
  if (found->second.opened_here) {
    TransportEvent closed;
    closed.kind = TransportEventKind::disconnected;
    closed.connection = id;
    pending_.push_back(closed);
  }
  links_.erase(found);  // what the transport underneath still reports of it is dropped
  inner_.disconnect(id);
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
      const bool known_above = found->second.envelope || found->second.opened_here;
      links_.erase(found);
      if (!known_above) return false;
      out = in;
      return true;
    }
    case TransportEventKind::message: {
      if (found == links_.end() || !found->second.connected_below) {
        drops_.add(DropReason::no_token);
        return false;
      }
      Link& link = found->second;
      if (!link.envelope) {
        if (in.channel != Channel::control) {  // nothing but a hello before the handshake
          drops_.add(DropReason::no_token);
          return false;
        }
        return on_hello(in.connection, link, in.payload, out);
      }
      if (is_disclosure(in.channel, in.payload)) return false;  // for the auditor, not for us
      if (const auto dropped = link.envelope->open(in.channel, in.payload, opened_)) {
        drops_.add(*dropped);
        return false;
      }
      out = in;
      out.payload = opened_;
      return true;
    }
  }
  return false;
}

bool SecureLinks::on_hello(ConnectionId id, Link& link, std::span<const std::uint8_t> bytes, TransportEvent& out) {
  const auto hello = read_hello(bytes);
  if (const auto* refused = std::get_if<DropReason>(&hello)) {
    refuse(id, *refused);
    return false;
  }
  const auto agreed = link.handshake->agree(std::get<Hello>(hello), own_, link.opened_here, unix_now_s());
  if (const auto* refused = std::get_if<DropReason>(&agreed)) {
    refuse(id, *refused);
    return false;
  }
  if (!link.opened_here) inner_.send(id, Channel::control, link.handshake->hello(own_));
  const LinkKeys& keys = std::get<LinkKeys>(agreed);
  if (audit_key_) inner_.send(id, Channel::control, disclose(keys.send, *audit_key_));
  link.envelope = std::make_unique<Envelope>(keys);
  link.handshake.reset();
  out = {};
  out.kind = TransportEventKind::connected;
  out.connection = id;
  return true;
}

}  // namespace shoal::security
