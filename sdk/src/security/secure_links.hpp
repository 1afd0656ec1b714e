// SPDX-License-Identifier: MIT
// The links of one transport, secured (wire/SPEC.md, "Secured links"): every connection of the
// transport underneath opens with the handshake (the opener's hello, then the acceptor's
// answer) and then carries only sealed messages. The layers above hear of a connection only
// once its handshake has succeeded, so a stranger never gets a `connected` event, let alone a
// message through; a connection without a valid hello within the grace time is closed, one
// with a bad hello at once. Connection ids are those of the transport underneath.
//
// What it tells the layers above besides their messages, as messages of their own wire format
// (wire/dismissal.hpp): after `connected`, a link notice naming the other end's invitation; to
// an opener whose hello was turned down, the dismissal that says why; to the peer whose own
// invitation the session's authority revoked, a link notice with the authority's reason.
//
// Revocations (security/revocation.hpp) are kept here, for every link: each new one is handed
// on to every link, all of them go to each new link, a hello naming a revoked key is refused,
// and a link to one is closed (its end told why first).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "security/envelope.hpp"
#include "security/handshake.hpp"
#include "security/revocation.hpp"
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
  /// Applies a revocation (Transport::revoke); false, changing nothing, when it is not one
  /// signed by this session's authority.
  bool revoke(std::span<const std::uint8_t> revocation);

  /// How long a refused or revoked link stays open below so that what it was told arrives
  /// (closing an ENet link empties its queues): its end closes it on reading, or this does then.
  static constexpr std::int64_t kLingerUs = 1'000'000;

 private:
  struct Link {
    bool opened_here = false;
    bool connected_below = false;  ///< the transport underneath reported it up
    bool known_above = false;      ///< the layers above know it: they opened it, or heard `connected`
    std::int64_t deadline_us = 0;  ///< handshake due by then (once connected below)
    std::unique_ptr<Handshake> handshake;  ///< until the keys are agreed
    std::unique_ptr<Envelope> envelope;    ///< once they are: the link is up
    PublicKey peer_key{};                  ///< the other end's token's, once up
    /// Refused or revoked: closed below at this time (or when its end closes it); what arrives
    /// meanwhile is dropped as `closing_reason`, and nothing is sent.
    std::int64_t closing_at_us = -1;
    DropReason closing_reason = DropReason::no_token;
  };
  /// An event for the layers above, with the bytes of a message the layer made itself.
  struct Pending {
    TransportEvent event;
    std::vector<std::uint8_t> bytes;
  };

  bool on_event(const TransportEvent& in, TransportEvent& out, std::int64_t now_us);
  bool on_message(ConnectionId id, Link& link, Channel channel, std::span<const std::uint8_t> bytes,
                  TransportEvent& out, std::int64_t now_us);
  bool on_hello(ConnectionId id, Link& link, std::span<const std::uint8_t> bytes, TransportEvent& out,
                std::int64_t now_us);
  /// The first message on a link this end accepted, when it is not a hello.
  void on_stranger(ConnectionId id, std::span<const std::uint8_t> bytes, std::int64_t now_us);
  /// The first message on a link this end opened, when it is not a hello: why it was refused.
  void on_refused(ConnectionId id, Link& link, std::span<const std::uint8_t> bytes);
  void on_own_frame(ConnectionId id, std::span<const std::uint8_t> frame);
  void apply(const RevocationRecord& record, ConnectionId arrived_on);
  void send_own(ConnectionId id, Link& link, std::span<const std::uint8_t> frame);
  void expire(std::int64_t now_us);
  /// Closes a link that failed its handshake at once; the layers above hear of it only if they opened it.
  void refuse(ConnectionId id, DropReason reason);
  /// Closes a link after kLingerUs (what it was just sent leaves meanwhile); until then what
  /// arrives on it is dropped as `reason`. The layers above hear of its end now.
  void linger(ConnectionId id, Link& link, DropReason reason, std::int64_t now_us);
  void hand_up(TransportEventKind kind, ConnectionId id, std::vector<std::uint8_t> bytes = {});

  Transport& inner_;
  OwnCredentials own_;
  std::int64_t grace_us_ = 0;
  std::int64_t now_us_ = 0;  ///< the latest poll's time (revoke() has none of its own)
  std::optional<PublicKey> audit_key_;
  Revocations revocations_;
  std::unordered_map<ConnectionId, Link> links_;
  std::deque<Pending> pending_;          ///< reported, in order, before polling on
  std::vector<std::uint8_t> opened_;     ///< the last message opened or handed up; valid until the next poll
  std::vector<std::uint8_t> sealed_;     ///< one message being sealed
  DropCounters drops_;
};

}  // namespace shoal::security
