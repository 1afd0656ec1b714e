// SPDX-License-Identifier: MIT
#include "transport/conditioned_relay.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <limits>

#include "core/steady_now.hpp"

namespace shoal::transport {
namespace {

constexpr std::size_t kMaxUdpPayload = 65536;
constexpr std::int64_t kRateWindowUs = 1'000'000;
// 0x7E: ENet's header flags would say "compressed" (0x4000), which an ENet host without a
// compressor drops, so no datagram ENet sends here starts like this. Then "SPN", then the
// sender's running punch count (tells the punches of a capture apart).
constexpr std::array<std::uint8_t, 4> kPunchMagic{0x7E, 'S', 'P', 'N'};

bool is_punch(std::span<const std::uint8_t> datagram) {
  return datagram.size() == kPunchDatagramSize && std::equal(kPunchMagic.begin(), kPunchMagic.end(), datagram.begin());
}

}  // namespace

struct ConditionedRelay::Pipe {
  Pipe(const Endpoint& remote_endpoint, const Endpoint& bind, const ConditionerConfig& conditions,
       std::uint64_t stream)
      : remote(remote_endpoint),
        socket(bind),
        outbound(conditions.outbound, core::Random::derive_seed(conditions.seed, 2 * stream)),
        inbound(conditions.inbound, core::Random::derive_seed(conditions.seed, 2 * stream + 1)) {}

  Endpoint remote;
  UdpSocket socket;
  LinkConditioner outbound;  ///< inner endpoint -> remote
  LinkConditioner inbound;   ///< remote -> inner endpoint

  // Counts of the current rate window and the rates of the last complete one.
  std::int64_t window_start_us = -1;
  std::uint64_t packets_out = 0, packets_in = 0, bytes_out = 0, bytes_in = 0;
  PipeRates rates;
};

ConditionedRelay::ConditionedRelay(const RelayConfig& config)
    : config_(config), public_socket_(config.public_bind) {}

ConditionedRelay::~ConditionedRelay() = default;

const Endpoint& ConditionedRelay::public_endpoint() const { return public_socket_.local(); }

ConditionedRelay::Pipe* ConditionedRelay::open_pipe(const Endpoint& remote) {
  if (auto found = by_remote_.find(remote); found != by_remote_.end()) return found->second;
  if (pipes_.size() >= config_.max_pipes) return nullptr;
  const auto own = own_conditions_.find(remote);
  const ConditionerConfig& conditions = own == own_conditions_.end() ? config_.conditions : own->second;
  pipes_.push_back(std::make_unique<Pipe>(remote, config_.pipe_bind, conditions, pipes_.size()));
  Pipe* pipe = pipes_.back().get();
  by_remote_.emplace(remote, pipe);
  by_pipe_port_.emplace(pipe->socket.local().port, pipe);
  return pipe;
}

std::optional<Endpoint> ConditionedRelay::pipe_for(const Endpoint& remote) {
  const Pipe* pipe = open_pipe(remote);
  if (pipe == nullptr) return std::nullopt;
  Endpoint local = pipe->socket.local();
  // A pipe bound to the wildcard address is reached through loopback.
  if (local.ipv4 == 0) local.ipv4 = 0x7F000001;
  return local;
}

std::optional<Endpoint> ConditionedRelay::remote_behind(const Endpoint& pipe_local) const {
  const auto found = by_pipe_port_.find(pipe_local.port);
  if (found == by_pipe_port_.end()) return std::nullopt;
  return found->second->remote;
}

void ConditionedRelay::set_conditions(const ConditionerConfig& conditions) {
  config_.conditions = conditions;
  for (const auto& pipe : pipes_) {
    if (own_conditions_.contains(pipe->remote)) continue;
    pipe->outbound.set_conditions(conditions.outbound);
    pipe->inbound.set_conditions(conditions.inbound);
  }
}

void ConditionedRelay::set_conditions_for(const Endpoint& remote, const ConditionerConfig& conditions) {
  own_conditions_[remote] = conditions;
  if (const auto found = by_remote_.find(remote); found != by_remote_.end()) {
    found->second->outbound.set_conditions(conditions.outbound);
    found->second->inbound.set_conditions(conditions.inbound);
  }
}

void ConditionedRelay::punch(const Endpoint& remote) {
  std::array<std::uint8_t, kPunchDatagramSize> datagram{};
  std::copy(kPunchMagic.begin(), kPunchMagic.end(), datagram.begin());
  for (std::size_t i = 0; i < kPunchesPerCall; ++i) {
    const std::uint64_t count = counters_.punches_sent;
    for (std::size_t b = 0; b < 8; ++b) datagram[kPunchMagic.size() + b] = static_cast<std::uint8_t>(count >> (8 * b));
    public_socket_.send_to(remote, datagram);
    ++counters_.punches_sent;
  }
}

void ConditionedRelay::pump() {
  // Each datagram's arrival is the clock read just after taking it from its socket. A time
  // read before the reads is stale by however long the process was descheduled in between
  // (tens of milliseconds on a loaded machine), and would release what arrived in that gap
  // early: sooner after it was sent than the link's latency allows. So the relay takes no
  // time from its caller, unlike the transports' timers (Transport::poll(event, now_us)): it
  // models a wire, which runs on the real clock like ENet on either side of it.
  //
  // One wait of 0 ms first says which sockets hold anything. Reading each socket until it is empty
  // cost a failed recvmsg per socket per pump instead: with a pipe per remote and a pump per
  // transport event, that was most of a 16-peer match's CPU, on every peer.
  const std::size_t sockets = 1 + pipes_.size();
  if (pump_waits_.size() != sockets) {  // pipes are only ever added
    pump_waits_.resize(sockets);
    pump_waits_[0].socket = public_socket_.handle();
    for (std::size_t i = 1; i < sockets; ++i) pump_waits_[i].socket = pipes_[i - 1]->socket.handle();
  }
  if (transport::platform::wait_readable(pump_waits_, 0) > 0) read_ready();
  const std::int64_t now_us = core::steady_now_us();
  for (const auto& pipe : pipes_) {
    while (pipe->inbound.release(now_us, datagram_)) pipe->socket.send_to(config_.inner, datagram_);
    while (pipe->outbound.release(now_us, datagram_)) {
      public_socket_.send_to(pipe->remote, datagram_);
      ++pipe->packets_out;
      pipe->bytes_out += datagram_.size();
    }
    update_rates(*pipe, now_us);
  }
}

void ConditionedRelay::read_ready() {
  std::array<std::uint8_t, kMaxUdpPayload> received;
  Endpoint from;
  const bool public_ready = pump_waits_[0].readable;
  for (std::ptrdiff_t size; public_ready && (size = public_socket_.receive_from(received, from)) >= 0;) {
    const std::span datagram(received.data(), static_cast<std::size_t>(size));
    if (is_punch(datagram)) {
      ++counters_.punches_received;
      continue;
    }
    Pipe* pipe = open_pipe(from);
    if (pipe == nullptr) {
      ++counters_.dropped_pipe_limit;
      continue;
    }
    ++pipe->packets_in;
    pipe->bytes_in += static_cast<std::uint64_t>(size);
    pipe->inbound.submit(core::steady_now_us(), datagram);
  }
  // Only the pipes polled: one opened by the public socket's reads just now waits for the next pump.
  for (std::size_t i = 1; i < pump_waits_.size(); ++i) {
    if (!pump_waits_[i].readable) continue;
    Pipe& pipe = *pipes_[i - 1];
    for (std::ptrdiff_t size; (size = pipe.socket.receive_from(received, from)) >= 0;) {
      if (from != config_.inner) {
        ++counters_.dropped_unknown_source;
        continue;
      }
      pipe.outbound.submit(core::steady_now_us(), std::span(received.data(), static_cast<std::size_t>(size)));
    }
  }
}

void ConditionedRelay::update_rates(Pipe& pipe, std::int64_t now_us) {
  if (pipe.window_start_us < 0) pipe.window_start_us = now_us;
  const std::int64_t elapsed_us = now_us - pipe.window_start_us;
  if (elapsed_us < kRateWindowUs) return;
  const auto per_second = [elapsed_us](std::uint64_t count) {
    return static_cast<float>(static_cast<double>(count) * 1e6 / static_cast<double>(elapsed_us));
  };
  pipe.rates = {per_second(pipe.packets_out), per_second(pipe.packets_in),
                per_second(pipe.bytes_out), per_second(pipe.bytes_in)};
  pipe.packets_out = pipe.packets_in = pipe.bytes_out = pipe.bytes_in = 0;
  pipe.window_start_us = now_us;
}

std::int64_t ConditionedRelay::next_release_us() const {
  std::int64_t next = std::numeric_limits<std::int64_t>::max();
  for (const auto& pipe : pipes_) {
    next = std::min({next, pipe->outbound.next_release_us(), pipe->inbound.next_release_us()});
  }
  return next;
}

void ConditionedRelay::wait(int timeout_ms, transport::platform::SocketHandle extra) const {
  std::vector<transport::platform::WaitEntry>& waits = waits_;
  waits.clear();
  waits.push_back({public_socket_.handle()});
  for (const auto& pipe : pipes_) waits.push_back({pipe->socket.handle()});
  if (extra != transport::platform::kNoSocket) waits.push_back({extra});

  std::int64_t timeout = std::max(timeout_ms, 0);
  const std::int64_t next = next_release_us();
  if (next != std::numeric_limits<std::int64_t>::max()) {
    // Round up so we never wake just before the datagram is due and spin.
    timeout = std::clamp<std::int64_t>((next - core::steady_now_us() + 999) / 1000, 0, timeout);
  }
  transport::platform::wait_readable(waits, static_cast<int>(timeout));
}

PipeRates ConditionedRelay::rates(const Endpoint& remote) const {
  const auto found = by_remote_.find(remote);
  return found == by_remote_.end() ? PipeRates{} : found->second->rates;
}

const LinkConditioner::Counters* ConditionedRelay::outbound_counters(const Endpoint& remote) const {
  const auto found = by_remote_.find(remote);
  return found == by_remote_.end() ? nullptr : &found->second->outbound.counters();
}

const LinkConditioner::Counters* ConditionedRelay::inbound_counters(const Endpoint& remote) const {
  const auto found = by_remote_.find(remote);
  return found == by_remote_.end() ? nullptr : &found->second->inbound.counters();
}

}  // namespace shoal::transport
