// SPDX-License-Identifier: MIT
// A Transport that forwards every call to another one: derive from it to watch, count or
// alter traffic (statistics, tests, fault injection) and override only what you need.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "shoal/transport.hpp"

namespace shoal {

/// A Transport that passes every call to another one: derive from it to change a few calls (tests
/// that rewrite or drop traffic).
class ForwardingTransport : public Transport {
 public:
  /// Takes ownership of `inner`, which receives every call.
  explicit ForwardingTransport(std::unique_ptr<Transport> inner) : inner_(std::move(inner)) {}

  ConnectionId connect(const Address& remote) override { return inner_->connect(remote); }
  void disconnect(ConnectionId connection) override { inner_->disconnect(connection); }
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override {
    return inner_->send(connection, channel, bytes);
  }
  /// Passes the time of a poll(event, now_us) in progress on, if any (see below).
  bool poll(TransportEvent& event) override {
    return polling_at_ ? inner_->poll(event, now_us_) : inner_->poll(event);
  }
  /// Goes through poll(event), so that a class that overrides only that one still sees every
  /// event; ForwardingTransport::poll(event) then hands `now_us` to the wrapped transport.
  bool poll(TransportEvent& event, std::int64_t now_us) override {
    struct Done {  // also when poll(event) throws
      bool& flag;
      ~Done() { flag = false; }
    } done{polling_at_};
    polling_at_ = true;
    now_us_ = now_us;
    return poll(event);
  }
  void flush() override { inner_->flush(); }
  void wait(int timeout_ms) override { inner_->wait(timeout_ms); }
  LinkStats stats(ConnectionId connection) const override { return inner_->stats(connection); }
  Address local_address() const override { return inner_->local_address(); }
  Address remote_address(ConnectionId connection) const override {
    return inner_->remote_address(connection);
  }
  std::size_t max_message_size() const override { return inner_->max_message_size(); }
  void set_conditions(const ConditionerConfig& config) override { inner_->set_conditions(config); }
  DropCounters drops() const override { return inner_->drops(); }
  bool revoke(const Revocation& revocation) override { return inner_->revoke(revocation); }

 protected:
  /// the wrapped transport
  Transport& inner() { return *inner_; }

 private:
  std::unique_ptr<Transport> inner_;
  bool polling_at_ = false;  ///< inside poll(event, now_us)
  std::int64_t now_us_ = 0;  ///< its time
};

}  // namespace shoal
