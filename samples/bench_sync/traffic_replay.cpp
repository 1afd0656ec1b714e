#include "traffic_replay.hpp"

#include <string>

namespace shoal::bench {

using Call = TrafficLog::Call;

RecordingTransport::RecordingTransport(std::unique_ptr<Transport> inner, TrafficLog& log)
    : ForwardingTransport(std::move(inner)), log_(log) {
  log_.max_message_size = ForwardingTransport::max_message_size();
}

ConnectionId RecordingTransport::connect(const Address& remote) {
  TrafficLog::Entry e;
  e.call = Call::connect;
  e.connection = ForwardingTransport::connect(remote);
  e.address = remote;
  log_.entries.push_back(e);
  return e.connection;
}

bool RecordingTransport::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  TrafficLog::Entry e;
  e.call = Call::send;
  e.connection = connection;
  e.channel = channel;
  e.size = bytes.size();
  e.result = ForwardingTransport::send(connection, channel, bytes);
  log_.entries.push_back(e);
  return e.result;
}

bool RecordingTransport::poll(TransportEvent& event) {
  TrafficLog::Entry e;
  e.call = Call::poll;
  e.result = ForwardingTransport::poll(event);
  if (e.result) {
    e.kind = event.kind;
    e.connection = event.connection;
    e.channel = event.channel;
    e.offset = log_.bytes.size();
    e.size = event.payload.size();
    log_.bytes.insert(log_.bytes.end(), event.payload.begin(), event.payload.end());
  }
  log_.entries.push_back(e);
  return e.result;
}

Address RecordingTransport::local_address() const {
  TrafficLog::Entry e;
  e.call = Call::local_address;
  e.address = ForwardingTransport::local_address();
  log_.entries.push_back(e);
  return e.address;
}

Address RecordingTransport::remote_address(ConnectionId connection) const {
  TrafficLog::Entry e;
  e.call = Call::remote_address;
  e.connection = connection;
  e.address = ForwardingTransport::remote_address(connection);
  log_.entries.push_back(e);
  return e.address;
}

const TrafficLog::Entry& ReplayTransport::take(Call call, const char* what) const {
  if (next_ >= log_.entries.size()) {
    throw ReplayDiverged(std::string("replay: the peer called ") + what + " after the recording ended");
  }
  const TrafficLog::Entry& e = log_.entries[next_];
  if (e.call != call) {
    throw ReplayDiverged("replay diverged at call " + std::to_string(next_) + ": the peer called " +
                         what + ", the recorded peer something else");
  }
  ++next_;
  return e;
}

ConnectionId ReplayTransport::connect(const Address&) { return take(Call::connect, "connect").connection; }

bool ReplayTransport::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  const std::size_t at = next_;
  const TrafficLog::Entry& e = take(Call::send, "send");
  if (e.connection != connection || e.channel != channel || e.size != bytes.size()) {
    throw ReplayDiverged("replay diverged at call " + std::to_string(at) + ": a send of " +
                         std::to_string(bytes.size()) + " bytes where " + std::to_string(e.size) +
                         " were recorded");
  }
  return e.result;
}

bool ReplayTransport::poll(TransportEvent& event) {
  const TrafficLog::Entry& e = take(Call::poll, "poll");
  if (!e.result) return false;
  event.kind = e.kind;
  event.connection = e.connection;
  event.channel = e.channel;
  event.payload = std::span<const std::uint8_t>(log_.bytes).subspan(e.offset, e.size);
  return true;
}

Address ReplayTransport::local_address() const { return take(Call::local_address, "local_address").address; }

Address ReplayTransport::remote_address(ConnectionId) const {
  return take(Call::remote_address, "remote_address").address;
}

}  // namespace shoal::bench
