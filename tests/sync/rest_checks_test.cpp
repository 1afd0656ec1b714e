// SPDX-License-Identifier: MIT
// RestChecks: which bodies are due for a check of their resting copy, and when.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sync/rest_checks.hpp"

using namespace shoal;
using namespace shoal::sync;

namespace {

// The bodies checked as resting (kept still for the delay); those still changing are noted in
// `moving`, with the frame they began to change.
std::vector<BodyIndex> run(RestChecks& checks, Frame now, const std::vector<BodyIndex>& not_yet = {},
                           std::vector<std::pair<BodyIndex, Frame>>* moving = nullptr) {
  std::vector<BodyIndex> asked;
  checks.run(now, [&](BodyIndex b, bool still, Frame since) {
    if (!still) {
      if (moving != nullptr) moving->emplace_back(b, since);
      return true;
    }
    asked.push_back(b);
    return std::find(not_yet.begin(), not_yet.end(), b) == not_yet.end();
  });
  return asked;
}

}  // namespace

TEST_CASE("a body is checked once it has kept still for the delay, once") {
  RestChecks checks(8, 5);
  const BodyIndex moved[] = {2, 6, 2};
  checks.changed(moved, 10);
  CHECK(checks.pending() == 2);
  CHECK(run(checks, 14).empty());
  CHECK(run(checks, 15) == std::vector<BodyIndex>{2, 6});
  CHECK(checks.pending() == 0);
  CHECK(run(checks, 40).empty());
}

TEST_CASE("a body that changes again is checked as moving, since its first change, and one whose check is not done is asked again") {
  RestChecks checks(8, 5);
  const BodyIndex first[] = {1, 3};
  checks.changed(first, 10);
  const BodyIndex again[] = {1};
  checks.changed(again, 13);  // still moving three frames later
  std::vector<std::pair<BodyIndex, Frame>> moving;
  CHECK(run(checks, 15, {3}, &moving) == std::vector<BodyIndex>{3});  // 1 changed at 13: not yet
  CHECK(moving == std::vector<std::pair<BodyIndex, Frame>>{{1, 10}});  // changing since 10
  CHECK(checks.pending() == 2);
  CHECK(run(checks, 19).empty());
  CHECK(run(checks, 20) == std::vector<BodyIndex>{1, 3});
  CHECK(checks.pending() == 0);
}

TEST_CASE("checks stay bounded however long bodies keep changing, and clear() forgets them") {
  RestChecks checks(100, 3);
  std::vector<BodyIndex> all;
  for (BodyIndex b = 0; b < 100; ++b) all.push_back(b);
  for (Frame f = 0; f < 1000; ++f) {
    checks.changed(all, f);
    CHECK(run(checks, f).empty());
    REQUIRE(checks.pending() <= 100);
  }
  checks.clear();
  CHECK(checks.pending() == 0);
  CHECK(run(checks, 5000).empty());
  const BodyIndex one[] = {7};
  checks.changed(one, 5000);
  CHECK(run(checks, 5003) == std::vector<BodyIndex>{7});
}
