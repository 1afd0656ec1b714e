// SPDX-License-Identifier: MIT
// Transport::poll(event, now_us): a transport that knows only poll(event) still works when
// polled with a time, and ForwardingTransport hands the time to what it wraps without going
// around a derived class that overrides only poll(event) (as most such wrappers do).
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"

using namespace shoal;

namespace {

// Everything but poll: nothing to connect to.
class Stub : public Transport {
 public:
  ConnectionId connect(const Address&) override { return kNoConnection; }
  void disconnect(ConnectionId) override {}
  bool send(ConnectionId, Channel, std::span<const std::uint8_t>) override { return false; }
  void wait(int) override {}
  LinkStats stats(ConnectionId) const override { return {}; }
  Address local_address() const override { return {}; }
  Address remote_address(ConnectionId) const override { return {}; }
  std::size_t max_message_size() const override { return 0; }
  void set_conditions(const ConditionerConfig&) override {}
};

// A transport written before poll(event, now_us) existed: it overrides poll(event) only.
class OnlyUntimed final : public Stub {
 public:
  int polls = 0;
  bool poll(TransportEvent&) override { return ++polls == 1; }
};

// Hands out `pending` events, one per poll, and remembers how it was polled.
class Scripted final : public Stub {
 public:
  int pending = 0;
  int untimed_polls = 0;
  std::vector<std::int64_t> times;  ///< given to poll(event, now_us), in order

  bool poll(TransportEvent& event) override {
    ++untimed_polls;
    return take(event);
  }
  bool poll(TransportEvent& event, std::int64_t now_us) override {
    times.push_back(now_us);
    return take(event);
  }

 private:
  bool take(TransportEvent& event) {
    if (pending == 0) return false;
    --pending;
    event = {};
    event.kind = TransportEventKind::connected;
    event.connection = 7;
    return true;
  }
};

// Counts the events it passes up; overrides poll(event) only, like the wrappers in the tests.
class Counting final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  int seen = 0;
  bool poll(TransportEvent& event) override {
    const bool got = ForwardingTransport::poll(event);
    seen += got ? 1 : 0;
    return got;
  }
};

// Remembers the times it is polled at.
class TimeWatch final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  using ForwardingTransport::poll;
  std::vector<std::int64_t> times;
  int untimed_polls = 0;
  bool poll(TransportEvent& event) override {
    untimed_polls += polling_timed_ ? 0 : 1;
    return ForwardingTransport::poll(event);
  }
  bool poll(TransportEvent& event, std::int64_t now_us) override {
    times.push_back(now_us);
    polling_timed_ = true;
    const bool got = ForwardingTransport::poll(event, now_us);
    polling_timed_ = false;
    return got;
  }

 private:
  bool polling_timed_ = false;
};

}  // namespace

TEST_CASE("Peer polls its transport at the time of its update") {
  MemoryNetwork net;
  auto watch = std::make_unique<TimeWatch>(net.create_endpoint(1));
  TimeWatch* watched = watch.get();
  ReferencePhysics physics{ReferencePhysicsConfig{}};
  physics.add_sphere(1, 0.5f, 1.0f, ObjectState{});
  Peer peer(PeerConfig{}, physics, std::move(watch));
  peer.set_controlled(1);
  peer.host();
  peer.update_at(7'000'000);
  peer.update_at(7'016'667);
  REQUIRE_FALSE(watched->times.empty());
  CHECK(watched->times.front() == 7'000'000);
  CHECK(watched->times.back() == 7'016'667);
  CHECK(watched->untimed_polls == 0);
}

TEST_CASE("a transport that overrides only poll(event) is polled through it when given a time") {
  OnlyUntimed only;
  Transport& transport = only;
  TransportEvent event;
  CHECK(transport.poll(event, 123));
  CHECK_FALSE(transport.poll(event, 124));
  CHECK(only.polls == 2);
}

TEST_CASE("ForwardingTransport passes the time on, through a derived class's poll(event)") {
  auto inner = std::make_unique<Scripted>();
  Scripted* scripted = inner.get();
  scripted->pending = 2;
  Counting counting(std::move(inner));
  Transport& transport = counting;
  TransportEvent event;

  CHECK(transport.poll(event, 5'000'000));
  CHECK(event.connection == 7);
  CHECK(transport.poll(event, 5'016'667));
  CHECK_FALSE(transport.poll(event, 5'033'333));
  CHECK(counting.seen == 2);  // the derived class saw every event
  CHECK(scripted->times == std::vector<std::int64_t>{5'000'000, 5'016'667, 5'033'333});  // and the inner one every time
  CHECK(scripted->untimed_polls == 0);

  // Polled without a time, it passes none on: the wrapped transport reads its own clock.
  scripted->pending = 1;
  CHECK(transport.poll(event));
  CHECK(scripted->untimed_polls == 1);
  CHECK(scripted->times.size() == 3);
  CHECK(counting.seen == 3);
}
