// SPDX-License-Identifier: MIT
// The replay's side of a recording (peer/recorder.hpp): RecordCursor reads its records in
// order, and ReplayTransport answers every transport call of the replayed peer with the
// recorded answer. A call the recorded peer did not make (or made in another order) throws
// ReplayDiverged, which ends the replay (peer/replay.cpp) with its description.
#pragma once

#include <map>
#include <span>
#include <string>

#include "core/digest.hpp"
#include "shoal/transport.hpp"
#include "wire/recording_codec.hpp"

namespace shoal {

// The replayed peer asked its transport something the recorded one did not (or in another order).
struct ReplayDiverged {
  std::string what;
};

// A record's kind, as a replay's report names it.
std::string describe_record(wire::RecordKind kind);

// Reads records one at a time; addresses (which the transport answers from whenever asked)
// are taken in as they pass, so every other record comes out in order.
class RecordCursor {
 public:
  explicit RecordCursor(std::span<const std::uint8_t> bytes);

  /// The next record that is not an address, or nullptr at the end of the recording (or where
  /// it is cut short).
  const wire::Record* peek();
  void take() { has_ = false; }
  /// Takes the next record, which must be of `kind`.
  const wire::Record& expect(wire::RecordKind kind, const char* asked);

  Address local;
  std::map<ConnectionId, Address> remotes;

 private:
  wire::RecordingReader reader_;
  wire::Record record_;
  bool has_ = false;
  bool ended_ = false;
};

class ReplayTransport final : public Transport {
 public:
  /// What the peer sends goes into `sends`, which the recording's checks compare.
  ReplayTransport(RecordCursor& cursor, core::Digest& sends) : cursor_(cursor), sends_(sends) {}

  ConnectionId connect(const Address&) override {
    return cursor_.expect(wire::RecordKind::connect, "a connect").connection;
  }
  void disconnect(ConnectionId) override {}
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  bool poll(TransportEvent& event) override;
  void wait(int) override {}
  LinkStats stats(ConnectionId) const override { return {}; }
  Address local_address() const override {
    cursor_.peek();  // takes in an address recorded just now
    return cursor_.local;
  }
  Address remote_address(ConnectionId connection) const override;
  std::size_t max_message_size() const override { return 64 * 1024; }
  void set_conditions(const ConditionerConfig&) override {}

 private:
  RecordCursor& cursor_;
  core::Digest& sends_;
};

}  // namespace shoal
