// SPDX-License-Identifier: MIT
#include "peer_script.hpp"

#include <algorithm>
#include <string>

namespace shoal::fuzz {

bool ScriptTransport::poll(TransportEvent& event) {
  if (events_.empty()) return false;
  event = events_.front();
  events_.pop_front();
  return true;
}

Address ScriptTransport::remote_address(ConnectionId connection) const {
  return {"10.0.1." + std::to_string(connection % 256), static_cast<std::uint16_t>(40000 + connection % 1000)};
}

ScriptRecorder::ScriptRecorder(std::unique_ptr<Transport> inner, std::vector<std::uint8_t>& script, bool joins,
                               int ball)
    : ForwardingTransport(std::move(inner)), script_(script) {
  script_.assign(1, script_setup(joins, ball));
}

void ScriptRecorder::update(int elapsed_ms) {
  // An update of more than 255 ms is written as several steps; none happen in the recorded match.
  for (int left = std::max(elapsed_ms, 0);;) {
    const int step = std::min(left, 255);
    script_.push_back(static_cast<std::uint8_t>(ScriptOp::update));
    script_.push_back(static_cast<std::uint8_t>(step));
    left -= step;
    if (left == 0) break;
  }
}

ConnectionId ScriptRecorder::connect(const Address& remote) {
  const ConnectionId real = inner().connect(remote);
  numbers_[real] = next_opened_++;
  return real;
}

std::uint8_t ScriptRecorder::number_of(ConnectionId real) {
  const auto known = numbers_.find(real);
  if (known != numbers_.end()) return known->second;
  return numbers_[real] = next_incoming_++;  // opened by the remote
}

bool ScriptRecorder::poll(TransportEvent& event) {
  if (!inner().poll(event)) return false;
  const std::uint8_t connection = number_of(event.connection);
  switch (event.kind) {
    case TransportEventKind::connected: script_.push_back(static_cast<std::uint8_t>(ScriptOp::connected)); break;
    case TransportEventKind::disconnected: script_.push_back(static_cast<std::uint8_t>(ScriptOp::disconnected)); break;
    case TransportEventKind::timed_out: script_.push_back(static_cast<std::uint8_t>(ScriptOp::timed_out)); break;
    case TransportEventKind::message: script_.push_back(static_cast<std::uint8_t>(ScriptOp::message)); break;
  }
  script_.push_back(connection);
  if (event.kind == TransportEventKind::message) {
    script_.push_back(static_cast<std::uint8_t>(event.channel));
    const auto size = static_cast<std::uint16_t>(std::min<std::size_t>(event.payload.size(), 0xFFFF));
    script_.push_back(static_cast<std::uint8_t>(size & 0xFF));
    script_.push_back(static_cast<std::uint8_t>(size >> 8));
    script_.insert(script_.end(), event.payload.begin(), event.payload.begin() + size);
  }
  return true;
}

}  // namespace shoal::fuzz
