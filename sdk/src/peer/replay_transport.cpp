// SPDX-License-Identifier: MIT
#include "peer/replay_transport.hpp"

#include <fmt/format.h>

#include "peer/recorder.hpp"

namespace shoal {

std::string describe_record(wire::RecordKind kind) {
  switch (kind) {
    case wire::RecordKind::update: return "an update";
    case wire::RecordKind::poll: return "a transport event";
    case wire::RecordKind::poll_empty: return "an empty poll";
    case wire::RecordKind::connect: return "a connect";
    case wire::RecordKind::local_address: return "its own address";
    case wire::RecordKind::remote_address: return "a remote address";
    case wire::RecordKind::input: return "an input";
    case wire::RecordKind::controlled: return "a controlled object";
    case wire::RecordKind::host: return "host()";
    case wire::RecordKind::join: return "join()";
    case wire::RecordKind::leave: return "leave()";
    case wire::RecordKind::check: return "a check";
    case wire::RecordKind::end: return "the end";
    case wire::RecordKind::spawn: return "a spawn";
    case wire::RecordKind::remove: return "a removal";
    case wire::RecordKind::message: return "a game message";
    case wire::RecordKind::events_taken: return "events taken";
  }
  return "an unknown record";
}

RecordCursor::RecordCursor(std::span<const std::uint8_t> bytes) : reader_(bytes) {
  wire::RecordingHeader skipped;  // read (and checked) when the Replay was made
  (void)reader_.header(skipped);
}

const wire::Record* RecordCursor::peek() {
  while (!has_ && !ended_) {
    bool at_end = false;
    if (!reader_.next(record_, at_end) || at_end) {
      ended_ = true;
      break;
    }
    if (record_.kind == wire::RecordKind::local_address) {
      local = record_.address;
    } else if (record_.kind == wire::RecordKind::remote_address) {
      remotes[record_.connection] = record_.address;
    } else {
      has_ = true;
    }
  }
  return has_ ? &record_ : nullptr;
}

const wire::Record& RecordCursor::expect(wire::RecordKind kind, const char* asked) {
  const wire::Record* next = peek();
  if (next == nullptr || next->kind != kind) {
    throw ReplayDiverged{fmt::format("the replayed peer asked for {}, where the recording has {}", asked,
                                     next == nullptr ? std::string("nothing more") : describe_record(next->kind))};
  }
  take();
  return *next;
}

bool ReplayTransport::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  add_to_digest(sends_, connection, channel, bytes);
  return true;
}

bool ReplayTransport::poll(TransportEvent& event) {
  const wire::Record* next = cursor_.peek();
  if (next == nullptr || (next->kind != wire::RecordKind::poll && next->kind != wire::RecordKind::poll_empty)) {
    throw ReplayDiverged{fmt::format("the replayed peer polled its transport, where the recording has {}",
                                     next == nullptr ? std::string("nothing more") : describe_record(next->kind))};
  }
  cursor_.take();
  if (next->kind == wire::RecordKind::poll_empty) return false;
  event = {next->event, next->connection, next->channel, next->payload};
  return true;
}

Address ReplayTransport::remote_address(ConnectionId connection) const {
  cursor_.peek();
  const auto found = cursor_.remotes.find(connection);
  return found == cursor_.remotes.end() ? Address{"", 0} : found->second;
}

}  // namespace shoal
