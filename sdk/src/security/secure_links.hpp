// SPDX-License-Identifier: MIT
// The links of one transport, secured (wire/SPEC.md, "Secured links"): every connection of the
// transport underneath opens with the handshake (the opener's hello, then the acceptor's
// answer) and then carries only sealed messages. The layers above hear of a connection only
// once its handshake has succeeded, so a stranger never gets a `connected` event, let alone a
// message through; a connection without a valid hello within the grace time is closed, one
// with a bad hello at once. Connection ids are those of the transport underneath.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "security/envelope.hpp"
#include "security/handshake.hpp"
#include "shoal/security_config.hpp"
#include "shoal/transport.hpp"

namespace shoal::security {

class SecureLinks {
 public:
  /// Throws std::invalid_argument for credentials that are not well-formed or a bad grace.
  SecureLinks(Transport& inner, const SecurityConfig& config);

  ConnectionId connect(const Address& remote);
  void disconnect(ConnectionId connection);
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes);
  /// Closes links whose handshake is late at `now_us` (the caller's clock), then polls the
  /// transport underneath at that time.
  bool poll(TransportEvent& event, std::int64_t now_us);
  std::size_t max_message_size() const;
  DropCounters drops() const;

 private:
  struct Link {
    bool opened_here = false;
    bool connected_below = false;  ///< the transport underneath reported it up
    std::int64_t deadline_us = 0;  ///< handshake due by then (once connected below)
    std::unique_ptr<Handshake> handshake;  ///< until the keys are agreed
    std::unique_ptr<Envelope> envelope;    ///< once they are: the link is up
  };
  bool on_event(const TransportEvent& in, TransportEvent& out, std::int64_t now_us);
  bool on_hello(ConnectionId id, Link& link, std::span<const std::uint8_t> bytes, TransportEvent& out);
  void expire(std::int64_t now_us);
  /// Closes a link that failed its handshake; the layers above hear of it only if they opened it.
  void refuse(ConnectionId id, DropReason reason);

  Transport& inner_;
  OwnCredentials own_;
  std::int64_t grace_us_ = 0;
  std::optional<PublicKey> audit_key_;
  std::unordered_map<ConnectionId, Link> links_;
  std::vector<TransportEvent> pending_;  ///< events without payload, reported before polling on
  std::vector<std::uint8_t> opened_;     ///< the last message opened; valid until the next poll
  std::vector<std::uint8_t> sealed_;     ///< one message being sealed
  DropCounters drops_;
};

}  // namespace shoal::security
