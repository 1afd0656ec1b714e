// Frame history: a ring of frames that wraps, keeps flags and user bytes per entry, and
// answers safely for frames it does not hold.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "world/frame_history.hpp"

using namespace shoal;
using shoal::world::FrameHistory;

namespace {

std::vector<ObjectState> states_for(Frame f, std::size_t count) {
  std::vector<ObjectState> states(count);
  for (std::size_t b = 0; b < count; ++b) {
    states[b].position = {static_cast<float>(f), static_cast<float>(b), 0};
  }
  return states;
}

}  // namespace

TEST_CASE("history keeps the newest depth frames as the ring wraps") {
  FrameHistory history(3, 4);
  CHECK(history.empty());
  CHECK(history.newest() == kNoFrame);
  CHECK(history.states(0).empty());
  for (Frame f = 10; f <= 19; ++f) {
    history.record(f, states_for(f, 3));
    CHECK(history.newest() == f);
    CHECK(history.oldest() == std::max(10, f - 3));
  }
  CHECK(!history.has(15));
  CHECK(history.has(16));
  CHECK(history.has(19));
  CHECK(!history.has(20));
  for (Frame f = 16; f <= 19; ++f) {
    const auto states = history.states(f);
    REQUIRE(states.size() == 3);
    CHECK(states[2].position == Vec3{static_cast<float>(f), 2, 0});
  }
  CHECK(history.states(15).empty());
  CHECK(history.states(20).empty());
}

TEST_CASE("confirmed flags and user bytes belong to one frame and body") {
  FrameHistory history(2, 3, 4);
  history.record(0, states_for(0, 2));
  history.record(1, states_for(1, 2));
  history.set_confirmed(1, 1, true);
  CHECK(history.confirmed(1, 1));
  CHECK(!history.confirmed(1, 0));
  CHECK(!history.confirmed(0, 1));
  auto bytes = history.user_bytes(1, 1);
  REQUIRE(bytes.size() == 4);
  bytes[3] = 0xAB;
  CHECK(history.user_bytes(1, 0)[3] == 0);

  // A rewrite of a held frame (catch-up) keeps flags and bytes; only states change.
  auto rewritten = states_for(1, 2);
  rewritten[0].position = {9, 9, 9};
  history.record(1, rewritten);
  CHECK(history.states(1)[0].position == Vec3{9, 9, 9});
  CHECK(history.confirmed(1, 1));
  CHECK(history.user_bytes(1, 1)[3] == 0xAB);

  // When frame 4 reuses frame 1's slot it starts clean.
  for (Frame f = 2; f <= 4; ++f) history.record(f, states_for(f, 2));
  CHECK(!history.has(1));
  CHECK(!history.confirmed(4, 1));
  CHECK(history.user_bytes(4, 1)[3] == 0);
  CHECK(!history.confirmed(1, 1));  // not held: false, not stale data
  CHECK(history.user_bytes(1, 1).empty());
  history.set_confirmed(1, 1, true);  // not held: ignored
  history.set_confirmed(4, 7, true);  // body out of range: ignored
  CHECK(history.user_bytes(4, 7).empty());
  CHECK(!history.confirmed(4, 7));
}

TEST_CASE("history rejects frames out of sequence and bad sizes") {
  FrameHistory history(2, 4);
  CHECK_THROWS_AS(history.record(-3, states_for(0, 2)), std::invalid_argument);
  history.record(5, states_for(5, 2));
  CHECK_THROWS_WITH_AS(history.record(7, states_for(7, 2)),
                       doctest::Contains("neither the next frame (6)"), std::invalid_argument);
  CHECK_THROWS_AS(history.record(4, states_for(4, 2)), std::invalid_argument);
  CHECK_THROWS_WITH_AS(history.record(6, states_for(6, 3)),
                       doctest::Contains("expected one per body (2)"), std::invalid_argument);
  CHECK(history.newest() == 5);
  CHECK_THROWS_WITH_AS(FrameHistory(2, 0), doctest::Contains("depth must be at least 1"),
                       std::invalid_argument);
  history.clear();
  CHECK(history.empty());
  history.record(100, states_for(100, 2));  // after clear any frame may start the ring again
  CHECK(history.oldest() == 100);
}

TEST_CASE("a frame's confirmed flags can be read and written as one row") {
  FrameHistory history(3, 2);
  history.record(5, states_for(5, 3));
  history.record(6, states_for(6, 3));
  const auto row = history.confirmed_flags(6);
  REQUIRE(row.size() == 3);
  row[2] = 1;
  CHECK(history.confirmed(6, 2));
  CHECK(!history.confirmed(6, 1));
  CHECK(!history.confirmed(5, 2));  // another frame's row
  history.set_confirmed(5, 0, true);
  CHECK(history.confirmed_flags(5)[0] == 1);
  CHECK(history.confirmed_flags(4).empty());  // not held
  CHECK(history.confirmed_flags(7).empty());
}
