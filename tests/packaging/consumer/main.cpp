// Uses a compiled symbol of libshoal through the installed public headers only.
#include <cstdio>

#include <shoal/drop_reason.hpp>
#include <shoal/math.hpp>

int main() {
  shoal::DropCounters drops;
  drops.add(shoal::DropReason::truncated);
  const std::string_view name = shoal::to_string(shoal::DropReason::truncated);
  const shoal::Quat turn = shoal::axis_angle({0, 0, 1}, 1.0f);
  if (name != "truncated" || drops.total() != 1 || turn == shoal::Quat{}) {
    std::fprintf(stderr, "consumer: unexpected result from libshoal\n");
    return 1;
  }
  std::printf("consumer: linked libshoal, %.*s counted\n", static_cast<int>(name.size()),
              name.data());
  return 0;
}
