// SPDX-License-Identifier: MIT
// Frame history: a window of frames that slides, keeps flags and user bytes per entry, answers
// safely for frames it does not hold, and stores states by change (checked against a plain
// model that keeps every frame whole).
#include <doctest/doctest.h>

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

#include "core/bitwise_equal.hpp"
#include "core/random.hpp"
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

std::vector<ObjectState> row(const FrameHistory& history, Frame f) {
  std::vector<ObjectState> states(history.body_count());
  history.copy_states(f, states);
  return states;
}

// Every frame whole, with a flag per entry saying whether the frame keeps a change there:
// what FrameHistory promises, written the plain way.
struct PlainHistory {
  struct Frame_ {
    std::vector<ObjectState> states;
    std::vector<bool> changed;
  };
  std::deque<Frame_> frames;
  Frame oldest = 0;
  int depth;

  PlainHistory(Frame start, std::vector<ObjectState> states, int d) : oldest(start), depth(d) {
    const std::size_t bodies = states.size();
    frames.push_back({std::move(states), std::vector<bool>(bodies, false)});
  }
  Frame newest() const { return oldest + static_cast<Frame>(frames.size()) - 1; }
  Frame_& at(Frame f) { return frames[static_cast<std::size_t>(f - oldest)]; }
  void advance() {
    Frame_ next{frames.back().states, std::vector<bool>(frames.back().states.size(), false)};
    frames.push_back(std::move(next));
    if (static_cast<int>(frames.size()) > depth) {
      frames.pop_front();
      ++oldest;
    }
  }
  // From f on, up to (not including) the next frame keeping a change, b holds `s`.
  void spread(Frame f, BodyIndex b, const ObjectState& s) {
    for (Frame g = f; g <= newest() && (g == f || !at(g).changed[b]); ++g) at(g).states[b] = s;
  }
  void set(Frame f, BodyIndex b, const ObjectState& s) {
    if (core::bitwise_equal(at(f).states[b], s)) return;
    at(f).changed[b] = true;
    spread(f, b, s);
  }
  void carry(Frame f, BodyIndex b, const ObjectState& before_window) {
    if (!at(f).changed[b]) return;
    at(f).changed[b] = false;
    spread(f, b, f == oldest ? before_window : at(f - 1).states[b]);
  }
};

ObjectState random_state(core::Random& random) {
  ObjectState s;
  s.position = {static_cast<float>(random.next_u64() % 7), 0, 0};  // few values: equal ones happen
  s.at_rest = random.next_u64() % 2 == 0;
  return s;
}

}  // namespace

TEST_CASE("history keeps the newest depth frames as the window slides") {
  FrameHistory history(3, 4);
  CHECK(history.empty());
  CHECK(history.newest() == kNoFrame);
  CHECK(history.newest_states().empty());
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
    CHECK(history.state(f, 2).position == Vec3{static_cast<float>(f), 2, 0});
    CHECK(row(history, f)[1].position == Vec3{static_cast<float>(f), 1, 0});
  }
  CHECK(history.newest_states()[2].position == Vec3{19, 2, 0});
  CHECK(history.previous_states()[2].position == Vec3{18, 2, 0});
  std::vector<ObjectState> out(3);
  CHECK_THROWS_AS(history.copy_states(15, out), std::invalid_argument);
}

TEST_CASE("a frame started by advance() carries every body over until set") {
  FrameHistory history(2, 8);
  history.record(0, states_for(0, 2));
  history.advance();
  CHECK(history.newest() == 1);
  CHECK(history.state(1, 0).position == Vec3{0, 0, 0});
  ObjectState moved;
  moved.position = {5, 5, 5};
  history.set(1, 1, moved);
  CHECK(history.state(1, 1).position == Vec3{5, 5, 5});
  CHECK(history.state(0, 1).position == Vec3{0, 1, 0});
  CHECK(history.previous_states()[1].position == Vec3{0, 1, 0});
  // Setting an older frame: the frames after it that followed it follow, up to the body's
  // next change; carrying it back undoes that.
  ObjectState earlier;
  earlier.position = {9, 9, 9};
  history.advance();
  history.advance();
  history.set(3, 0, moved);
  history.set(1, 0, earlier);
  CHECK(history.state(0, 0).position == Vec3{0, 0, 0});
  CHECK(history.state(1, 0).position == Vec3{9, 9, 9});
  CHECK(history.state(2, 0).position == Vec3{9, 9, 9});
  CHECK(history.state(3, 0).position == Vec3{5, 5, 5});
  history.carry(1, 0);
  CHECK(history.state(2, 0).position == Vec3{0, 0, 0});
  CHECK(history.state(3, 0).position == Vec3{5, 5, 5});
  CHECK_THROWS_AS(FrameHistory(2, 4).advance(), std::logic_error);
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
  CHECK(history.state(1, 0).position == Vec3{9, 9, 9});
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
  history.record(100, states_for(100, 2));  // after clear any frame may start the window again
  CHECK(history.oldest() == 100);
  CHECK(history.state(100, 1).position == Vec3{100, 1, 0});
}

TEST_CASE("a frame's confirmed flags can be read and written as one row") {
  FrameHistory history(3, 2);
  history.record(5, states_for(5, 3));
  history.record(6, states_for(6, 3));
  const auto flags = history.confirmed_flags(6);
  REQUIRE(flags.size() == 3);
  flags[2] = 1;
  CHECK(history.confirmed(6, 2));
  CHECK(!history.confirmed(6, 1));
  CHECK(!history.confirmed(5, 2));  // another frame's row
  history.set_confirmed(5, 0, true);
  CHECK(history.confirmed_flags(5)[0] == 1);
  CHECK(history.confirmed_flags(4).empty());  // not held
  CHECK(history.confirmed_flags(7).empty());
}

TEST_CASE("states by change read like whole frames, whatever is set and carried") {
  // Windows of one frame, a few, exactly a 64-bit word and more than one word; bodies with
  // few distinct values, so that writes often repeat what a frame already holds.
  for (const int depth : {1, 2, 5, 64, 70, 130}) {
    CAPTURE(depth);
    constexpr std::size_t kBodies = 5;
    core::Random random(static_cast<std::uint64_t>(depth) * 977);
    std::vector<ObjectState> start(kBodies);
    for (ObjectState& s : start) s = random_state(random);
    FrameHistory history(kBodies, depth);
    history.record(3, start);
    PlainHistory plain(3, start, depth);
    std::vector<ObjectState> before_window = start;  // the model's state before its window

    for (int step = 0; step < 2500; ++step) {
      const std::uint64_t op = random.next_u64() % 10;
      const Frame span = plain.newest() - plain.oldest + 1;
      const Frame f = plain.oldest + static_cast<Frame>(random.next_u64() % static_cast<std::uint64_t>(span));
      const auto b = static_cast<BodyIndex>(random.next_u64() % kBodies);
      const ObjectState s = random_state(random);
      if (op < 3) {
        if (static_cast<int>(plain.frames.size()) == depth) before_window = plain.frames.front().states;
        history.advance();
        plain.advance();
      } else if (op < 7) {
        history.set(f, b, s);
        plain.set(f, b, s);
      } else {
        history.carry(f, b);
        plain.carry(f, b, before_window[b]);
      }
      REQUIRE(history.newest() == plain.newest());
      REQUIRE(history.oldest() == plain.oldest);
      for (Frame g = plain.oldest; g <= plain.newest(); ++g) {
        for (BodyIndex body = 0; body < kBodies; ++body) {
          CAPTURE(step);
          CAPTURE(g);
          CAPTURE(body);
          REQUIRE(core::bitwise_equal(history.state(g, body), plain.at(g).states[body]));
        }
      }
      for (BodyIndex body = 0; body < kBodies; ++body) {
        REQUIRE(core::bitwise_equal(history.newest_states()[body], plain.at(plain.newest()).states[body]));
        const Frame previous = plain.newest() > plain.oldest ? plain.newest() - 1 : plain.newest();
        REQUIRE(core::bitwise_equal(history.previous_states()[body], plain.at(previous).states[body]));
      }
    }
  }
}
