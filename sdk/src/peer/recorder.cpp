// SPDX-License-Identifier: MIT
#include "peer/recorder.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace shoal {
namespace {

constexpr std::size_t kFlushBytes = 256u << 10;
constexpr std::int64_t kFlushIntervalUs = 1'000'000;

}  // namespace

void add_to_digest(core::Digest& digest, const Event& e) {
  digest.add((std::uint64_t{static_cast<std::uint8_t>(e.kind)} << 56) | (std::uint64_t{e.peer} << 32) | e.object);
  digest.add((static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.frame)) << 32) |
             static_cast<std::uint32_t>(e.depth));
  digest.add((std::uint64_t{static_cast<std::uint8_t>(e.step)} << 8) | static_cast<std::uint8_t>(e.failure));
  for (ObjectId object : e.objects) digest.add(object);
}

void add_to_digest(core::Digest& digest, ConnectionId connection, Channel channel,
                   std::span<const std::uint8_t> bytes) {
  digest.add((std::uint64_t{connection} << 8) | static_cast<std::uint8_t>(channel));
  digest.add(bytes);
}

wire::RecordedCheck make_check(Frame newest, std::span<const ObjectState> states, const core::Digest& events,
                               const core::Digest& sends) {
  core::Digest digest;
  for (const ObjectState& s : states) digest.add(s);
  return {newest, digest.value(), events.value(), sends.value()};
}

Recorder::Recorder(const std::string& path, const wire::RecordingHeader& header)
    : path_(path), file_(std::fopen(path.c_str(), "wb")), writer_(buffer_), last_input_(header.input) {
  if (file_ == nullptr) {
    throw std::runtime_error("shoal::Peer::record: cannot write '" + path + "': " + std::strerror(errno));
  }
  buffer_.reserve(2 * kFlushBytes);
  writer_.header(header);
  flush();
}

Recorder::~Recorder() {
  if (file_ == nullptr) return;
  flush();
  std::fclose(file_);
}

wire::RecordingWriter& Recorder::write() {
  if (events_taken_ > 0) writer_.events_taken(std::exchange(events_taken_, 0));
  return writer_;
}

void Recorder::input(const Input& input) {
  if (left_ || input == last_input_) return;  // bots and players repeat themselves every frame
  last_input_ = input;
  write().input(input);
}

void Recorder::event_taken() {
  if (!left_) ++events_taken_;
}

void Recorder::update(std::int64_t now_us) {
  if (left_) return;
  write().update(now_us);
  flush_if_due(now_us);
}

// After leave() the replay stops: what the peer does then (its goodbye) is not compared.
void Recorder::event(const Event& e) {
  if (!left_) add_to_digest(events_, e);
}

void Recorder::sent(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  if (!left_) add_to_digest(sends_, connection, channel, bytes);
}

void Recorder::check(Frame newest, std::span<const ObjectState> states) {
  if (!left_) write().check(make_check(newest, states, events_, sends_));
}

void Recorder::leave() {
  if (left_) return;
  write().leave();
  left_ = true;
}

void Recorder::finish(Frame newest, std::span<const ObjectState> states) {
  if (file_ == nullptr) return;
  write().end(make_check(newest, states, events_, sends_), states);
  flush();
  std::fclose(file_);
  file_ = nullptr;
}

void Recorder::flush_if_due(std::int64_t now_us) {
  if (last_flush_us_ < 0) last_flush_us_ = now_us;
  if (buffer_.size() < kFlushBytes && now_us - last_flush_us_ < kFlushIntervalUs) return;
  last_flush_us_ = now_us;
  flush();
}

void Recorder::flush() {
  if (file_ == nullptr || buffer_.empty()) return;
  // A full disk loses the rest of the recording, never the match: the game goes on.
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) == buffer_.size()) std::fflush(file_);
  buffer_.clear();
}

ConnectionId RecordingTransport::connect(const Address& remote) {
  const ConnectionId id = ForwardingTransport::connect(remote);
  recorder_.write().connect(id);
  return id;
}

bool RecordingTransport::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  recorder_.sent(connection, channel, bytes);
  return ForwardingTransport::send(connection, channel, bytes);
}

bool RecordingTransport::poll(TransportEvent& event) {
  const bool got = ForwardingTransport::poll(event);
  if (!recorder_.left()) recorder_.write().poll(got ? &event : nullptr);
  return got;
}

Address RecordingTransport::local_address() const {
  const Address address = ForwardingTransport::local_address();
  if (!local_known_ || address != local_) {
    local_known_ = true;
    local_ = address;
    recorder_.write().local_address(address);
  }
  return address;
}

Address RecordingTransport::remote_address(ConnectionId connection) const {
  const Address address = ForwardingTransport::remote_address(connection);
  auto known = std::find_if(remotes_.begin(), remotes_.end(), [&](const auto& r) { return r.first == connection; });
  if (known == remotes_.end() || known->second != address) {
    if (known == remotes_.end()) {
      remotes_.emplace_back(connection, address);
    } else {
      known->second = address;
    }
    recorder_.write().remote_address(connection, address);
  }
  return address;
}

}  // namespace shoal
