// SPDX-License-Identifier: MIT
// shoal-determinism-probe: what must come out the same, bit for bit, on every system a match
// mixes, printed as one line per item ("NAME HASH"), so two builds' outputs compare:
//   - sqrt over a sweep of inputs, the one C library function the reference physics calls;
//   - the LAN match's arena as built for 2..16 peers, and the reference physics stepping the
//     3-peer one for 600 frames with every ball pushed.
// Lines starting "libm-" are the C library's sin, cos, acos and atan2 over sweeps: not used by
// the simulation, and allowed to differ (glibc's and mingw-w64's do, by 1 ulp); printed so
// that the difference is seen, not assumed.
// --dump FILE also writes every result's bits (one 32-bit word each, in item order), for
// counting which inputs differ.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "arena.hpp"
#include "shoal/version.hpp"

namespace {

class Digest {
 public:
  void add(std::uint32_t word) {
    for (int i = 0; i < 4; ++i) hash_ = (hash_ ^ ((word >> (8 * i)) & 0xFF)) * 0x100000001B3ull;  // FNV-1a
    words_.push_back(word);
  }
  void add(float value) { add(std::bit_cast<std::uint32_t>(value)); }
  std::uint64_t hash() const { return hash_; }
  const std::vector<std::uint32_t>& words() const { return words_; }

 private:
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
  std::vector<std::uint32_t> words_;
};

// `count` inputs evenly spread over [from, to], each exactly representable.
std::vector<float> sweep(float from, float to, int count) {
  std::vector<float> values;
  for (int i = 0; i < count; ++i) values.push_back(from + (to - from) * static_cast<float>(i) / static_cast<float>(count - 1));
  return values;
}

void add_state(Digest& digest, const shoal::ObjectState& s) {
  for (float f : {s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x, s.orientation.y,
                  s.orientation.z, s.linear_velocity.x, s.linear_velocity.y, s.linear_velocity.z,
                  s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z}) {
    digest.add(f);
  }
  digest.add(std::uint32_t{s.at_rest});
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-determinism-probe")) return 0;
  std::vector<std::pair<std::string, Digest>> items;
  items.reserve(8);  // the references item() hands out stay valid
  auto item = [&](const std::string& name) -> Digest& { return items.emplace_back(name, Digest{}).second; };

  constexpr int kSweep = 200'000;
  Digest& sqrt_digest = item("sqrt");
  for (float x : sweep(0, 10'000, kSweep)) sqrt_digest.add(std::sqrt(x));
  Digest& sin_digest = item("libm-sin");
  for (float x : sweep(-8, 8, kSweep)) sin_digest.add(std::sin(x));
  Digest& cos_digest = item("libm-cos");
  for (float x : sweep(-8, 8, kSweep)) cos_digest.add(std::cos(x));
  Digest& acos_digest = item("libm-acos");
  for (float x : sweep(-1, 1, kSweep)) acos_digest.add(std::acos(x));
  Digest& atan2_digest = item("libm-atan2");
  for (float y : sweep(-2, 2, 448)) {
    for (float x : sweep(-2, 2, 448)) atan2_digest.add(std::atan2(y, x));
  }

  // The arenas of matches of 2..16 peers as every peer builds them; the 3-peer one stepped.
  Digest& built = item("arena-built-2-to-16-peers");
  for (int peers = 2; peers <= 16; ++peers) {
    for (const shoal::samples::BodySpec& body : lan_match::arena_layout(lan_match::arena_for(peers, 60)).bodies) {
      add_state(built, body.state);
    }
  }
  const lan_match::Arena arena = lan_match::arena_for(3, 60);
  const auto world = lan_match::build_arena(shoal::samples::Physics::reference, arena);
  shoal::Simulation& physics = world->simulation();
  Digest& stepped = item("reference-physics-600-frames");
  std::uint32_t lcg = 12345;
  std::vector<shoal::BodyInput> inputs;
  for (shoal::Frame frame = 0; frame < 600; ++frame) {
    inputs.clear();
    for (int ball = 0; ball < arena.balls; ++ball) {
      lcg = lcg * 1664525u + 1013904223u;
      shoal::BodyInput in;
      in.body = static_cast<shoal::BodyIndex>(ball);
      in.input.axis = {static_cast<float>(static_cast<int>(lcg >> 24) - 128) / 128.0f, 0,
                       static_cast<float>(static_cast<int>((lcg >> 16) & 0xFF) - 128) / 128.0f};
      inputs.push_back(in);
    }
    physics.step(frame, inputs);
    if (frame % 60 == 59) {
      for (std::size_t b = 0; b < physics.body_count(); ++b) add_state(stepped, physics.read(static_cast<shoal::BodyIndex>(b)));
    }
  }

  for (const auto& [name, digest] : items) std::printf("%s %016llx\n", name.c_str(), static_cast<unsigned long long>(digest.hash()));
  if (argc == 3 && std::string(argv[1]) == "--dump") {
    std::ofstream dump(argv[2], std::ios::binary);
    for (const auto& [name, digest] : items) dump.write(reinterpret_cast<const char*>(digest.words().data()),
                                                        static_cast<std::streamsize>(digest.words().size() * 4));
  }
  return 0;
}
