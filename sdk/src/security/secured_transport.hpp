// SPDX-License-Identifier: MIT
// A transport whose links are secured by SecureLinks, as any of the public transport
// interfaces (Transport, RelayTransport, HybridTransport): the transport layer derives from it
// to add what its interface has beyond Transport.
#pragma once

#include <memory>
#include <utility>

#include "core/steady_now.hpp"
#include "security/secure_links.hpp"

namespace shoal::security {

template <class Interface>
class SecuredTransport : public Interface {
 public:
  SecuredTransport(std::unique_ptr<Interface> inner, const SecurityConfig& config)
      : inner_(std::move(inner)), links_(*inner_, config) {}

  ConnectionId connect(const Address& remote) override { return links_.connect(remote); }
  void disconnect(ConnectionId connection) override { links_.disconnect(connection); }
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override {
    return links_.send(connection, channel, bytes);
  }
  bool poll(TransportEvent& event) override { return links_.poll(event, core::steady_now_us()); }
  bool poll(TransportEvent& event, std::int64_t now_us) override { return links_.poll(event, now_us); }
  void flush() override { inner_->flush(); }
  void wait(int timeout_ms) override { inner_->wait(timeout_ms); }
  LinkStats stats(ConnectionId connection) const override { return inner_->stats(connection); }
  Address local_address() const override { return inner_->local_address(); }
  Address remote_address(ConnectionId connection) const override { return inner_->remote_address(connection); }
  std::size_t max_message_size() const override { return links_.max_message_size(); }
  void set_conditions(const ConditionerConfig& config) override { inner_->set_conditions(config); }
  DropCounters drops() const override { return links_.drops(); }
  bool revoke(const Revocation& revocation) override { return links_.revoke(revocation.bytes); }

 protected:
  const Interface& inner() const { return *inner_; }

 private:
  std::unique_ptr<Interface> inner_;
  SecureLinks links_;
};

}  // namespace shoal::security
