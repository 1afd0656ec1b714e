// SPDX-License-Identifier: MIT
// A game's own transport from C: shoal_transport_callbacks seen by the peer as a shoal::Transport.
#include <chrono>
#include <memory>
#include <string>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

namespace shoal_c {
namespace {

static_assert(SHOAL_DROP_REASON_COUNT == shoal::kDropReasonCount, "shoal_drop_reason mirrors shoal::DropReason");
static_assert(SHOAL_DROP_OVER_LIMIT == static_cast<int>(shoal::DropReason::over_limit));
static_assert(SHOAL_DROP_MALFORMED == static_cast<int>(shoal::DropReason::malformed));
static_assert(SHOAL_CHANNEL_TIME == static_cast<int>(shoal::Channel::time) && shoal::kChannelCount == 3);
static_assert(SHOAL_TRANSPORT_MESSAGE == static_cast<int>(shoal::TransportEventKind::message));
static_assert(SHOAL_TRANSPORT_TIMED_OUT == static_cast<int>(shoal::TransportEventKind::timed_out));

void require_callback(bool given, const char* name) {
  if (!given) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                std::string("shoal_transport_callbacks.") + name +
                    " is NULL: expected a function (connect, disconnect, send, poll, wait, local_address, "
                    "remote_address and max_message_size are required)");
  }
}

class CallbackTransport final : public shoal::Transport {
 public:
  explicit CallbackTransport(const shoal_transport_callbacks& callbacks) : c_(callbacks) {
    require_callback(c_.connect != nullptr, "connect");
    require_callback(c_.disconnect != nullptr, "disconnect");
    require_callback(c_.send != nullptr, "send");
    require_callback(c_.poll != nullptr, "poll");
    require_callback(c_.wait != nullptr, "wait");
    require_callback(c_.local_address != nullptr, "local_address");
    require_callback(c_.remote_address != nullptr, "remote_address");
    require_callback(c_.max_message_size != nullptr, "max_message_size");
  }
  ~CallbackTransport() override {
    if (c_.destroy != nullptr) c_.destroy(c_.user);
  }
  CallbackTransport(const CallbackTransport&) = delete;
  CallbackTransport& operator=(const CallbackTransport&) = delete;

  shoal::ConnectionId connect(const shoal::Address& remote) override {
    const shoal_address address = to_c(remote, "the address to connect to");
    return c_.connect(c_.user, &address);
  }
  void disconnect(shoal::ConnectionId connection) override { c_.disconnect(c_.user, connection); }
  bool send(shoal::ConnectionId connection, shoal::Channel channel, std::span<const std::uint8_t> bytes) override {
    return c_.send(c_.user, connection, static_cast<std::int32_t>(channel), bytes.data(),
                   static_cast<std::uint32_t>(bytes.size())) == 1;
  }
  bool poll(shoal::TransportEvent& event) override {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return poll(event, std::chrono::duration_cast<std::chrono::microseconds>(now).count());
  }
  // What the game's poll gives is checked like any input from outside: an event that names no
  // kind or channel Shoal knows, or a message without its bytes, is dropped and counted.
  bool poll(shoal::TransportEvent& event, std::int64_t now_us) override {
    for (;;) {
      shoal_transport_event e{};
      if (c_.poll(c_.user, now_us, &e) != 1) return false;
      const bool known_kind = e.kind >= SHOAL_TRANSPORT_CONNECTED && e.kind <= SHOAL_TRANSPORT_MESSAGE;
      const bool message = e.kind == SHOAL_TRANSPORT_MESSAGE;
      const bool known_channel = e.channel >= SHOAL_CHANNEL_CONTROL && e.channel <= SHOAL_CHANNEL_TIME;
      if (!known_kind || (message && (!known_channel || (e.payload == nullptr && e.size > 0)))) {
        own_drops_.add(shoal::DropReason::malformed);
        continue;
      }
      event.kind = static_cast<shoal::TransportEventKind>(e.kind);
      event.connection = e.connection;
      event.channel = message ? static_cast<shoal::Channel>(e.channel) : shoal::Channel::control;
      event.payload = message ? std::span<const std::uint8_t>(e.payload, e.size) : std::span<const std::uint8_t>();
      return true;
    }
  }
  void flush() override {
    if (c_.flush != nullptr) c_.flush(c_.user);
  }
  void wait(int timeout_ms) override { c_.wait(c_.user, timeout_ms); }
  shoal::LinkStats stats(shoal::ConnectionId connection) const override {
    shoal_link_stats s{};
    if (c_.stats != nullptr) c_.stats(c_.user, connection, &s);
    return {s.rtt_ms, s.rtt_variance_ms, s.packet_loss, s.packets_out_per_s, s.packets_in_per_s,
            s.bytes_out_per_s, s.bytes_in_per_s};
  }
  shoal::Address local_address() const override {
    shoal_address a{};
    c_.local_address(c_.user, &a);
    return to_cpp(a, "shoal_transport_callbacks.local_address's host");
  }
  shoal::Address remote_address(shoal::ConnectionId connection) const override {
    shoal_address a{};
    c_.remote_address(c_.user, connection, &a);
    return to_cpp(a, "shoal_transport_callbacks.remote_address's host");
  }
  std::size_t max_message_size() const override { return c_.max_message_size(c_.user); }
  void set_conditions(const shoal::ConditionerConfig& config) override {
    if (c_.set_conditions == nullptr) return;
    const shoal_conditioner conditions = to_c(config);
    c_.set_conditions(c_.user, &conditions);
  }
  shoal::DropCounters drops() const override {
    shoal::DropCounters counters = own_drops_;
    if (c_.drops == nullptr) return counters;
    std::uint64_t theirs[SHOAL_DROP_REASON_COUNT] = {};
    c_.drops(c_.user, theirs, SHOAL_DROP_REASON_COUNT);
    for (std::size_t i = 0; i < shoal::kDropReasonCount; ++i) counters.counts[i] += theirs[i];
    return counters;
  }

 private:
  shoal_transport_callbacks c_;
  shoal::DropCounters own_drops_;  // events the game's poll got wrong
};

}  // namespace
}  // namespace shoal_c

extern "C" {

int shoal_transport_create_custom(const shoal_transport_callbacks* callbacks, shoal_transport** out_transport) {
  return shoal_c::guarded(__func__, [&] {
    shoal_transport*& out = shoal_c::require(out_transport, "out_transport");
    out = nullptr;
    const auto& c = shoal_c::require_sized(callbacks, "callbacks", "shoal_transport_callbacks");
    out = new shoal_transport{std::make_unique<shoal_c::CallbackTransport>(c)};
    return SHOAL_OK;
  });
}

}  // extern "C"
