// SPDX-License-Identifier: MIT
#include "region_methods.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "authority/regions.hpp"
#include "bounding_tree.hpp"
#include "core/vector_clones.hpp"
#include "world/spatial_grid.hpp"

namespace shoal::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ns_between(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
}

// The overlap test of every method, written once so that all of them round alike: the scans
// inline the same arithmetic, and SpatialGrid's and BoundingTree's own tests are this one.
bool spheres_overlap(Vec3 center, float reach, Vec3 c, float r) {
  const float dx = center.x - c.x, dy = center.y - c.y, dz = center.z - c.z;
  const float sum = reach + r;
  return dx * dx + dy * dy + dz * dz <= sum * sum;
}

// The bodies whose flag is set, skipping runs of zeros a word at a time (as regions.cpp does).
void gather(const std::uint8_t* flags, std::size_t count, std::uint8_t bit, std::vector<BodyIndex>& out) {
  std::size_t i = 0;
  while (i < count) {
    std::uint64_t word = 0;
    if (i + sizeof word <= count) {
      std::memcpy(&word, flags + i, sizeof word);
      if (word == 0) {
        i += sizeof word;
        continue;
      }
    }
    if (flags[i] & bit) out.push_back(static_cast<BodyIndex>(i));
    ++i;
  }
}

// Each body's position and swept sphere as structure of arrays, for the vectoriser.
struct BodyArrays {
  std::vector<float> xs, ys, zs, swept_xs, swept_ys, swept_zs, swept_radii;

  void read(const RegionFrame& frame) {
    const std::size_t count = frame.states.size();
    for (auto* v : {&xs, &ys, &zs, &swept_xs, &swept_ys, &swept_zs, &swept_radii}) v->resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const ObjectState& s = frame.states[i];
      xs[i] = s.position.x;
      ys[i] = s.position.y;
      zs[i] = s.position.z;
      const SweptSphere swept = swept_sphere(s, frame.radii[i], frame.horizon);
      swept_xs[i] = swept.center.x;
      swept_ys[i] = swept.center.y;
      swept_zs[i] = swept.center.z;
      swept_radii[i] = swept.radius;
    }
  }
};

// flags[i] = 1 when sphere i overlaps the query sphere: one branch-free pass, built for AVX2
// too as RegionBuilder's pass is.
SHOAL_VECTOR_CLONES void sphere_pass(Vec3 c, float reach, const float* __restrict xs,
                                     const float* __restrict ys, const float* __restrict zs,
                                     const float* __restrict radii, std::size_t count,
                                     std::uint8_t* __restrict flags) {
  for (std::size_t i = 0; i < count; ++i) {
    const float dx = c.x - xs[i], dy = c.y - ys[i], dz = c.z - zs[i];
    const float sum = reach + radii[i];
    flags[i] = static_cast<std::uint8_t>(dx * dx + dy * dy + dz * dz <= sum * sum);
  }
}

constexpr std::uint8_t kCoreBit = 1, kContactBit = 2;

// The three tests of one controlled body in one pass (authority/regions.cpp's bounding_pass
// without the previous membership's hysteresis).
SHOAL_VECTOR_CLONES void fused_pass(const RegionQuery& q, const BodyArrays& a, const float* __restrict radii,
                                    std::size_t count, std::uint8_t* __restrict simulated,
                                    std::uint8_t* __restrict passed) {
  const float* __restrict xs = a.xs.data();
  const float* __restrict ys = a.ys.data();
  const float* __restrict zs = a.zs.data();
  const float* __restrict swept_xs = a.swept_xs.data();
  const float* __restrict swept_ys = a.swept_ys.data();
  const float* __restrict swept_zs = a.swept_zs.data();
  const float* __restrict swept_radii = a.swept_radii.data();
  for (std::size_t i = 0; i < count; ++i) {
    const float dx = q.center.x - xs[i], dy = q.center.y - ys[i], dz = q.center.z - zs[i];
    const float distance_squared = dx * dx + dy * dy + dz * dz;
    const float simulated_sum = q.simulated_reach + radii[i];
    const float core_sum = q.core_reach + radii[i];
    const float sx = q.swept_center.x - swept_xs[i], sy = q.swept_center.y - swept_ys[i],
                sz = q.swept_center.z - swept_zs[i];
    const float swept_sum = q.swept_reach + swept_radii[i];
    simulated[i] = static_cast<std::uint8_t>(distance_squared <= simulated_sum * simulated_sum);
    passed[i] = static_cast<std::uint8_t>(
        static_cast<std::uint8_t>(distance_squared <= core_sum * core_sum) * kCoreBit |
        static_cast<std::uint8_t>(sx * sx + sy * sy + sz * sz <= swept_sum * swept_sum) * kContactBit);
  }
}

// A method answering each query on its own: its rebuild and each query's answers timed apart.
class PerQuery : public RegionMethod {
 public:
  PhaseTimes run(const RegionFrame& frame, std::span<RegionAnswers> answers) final {
    const auto t0 = Clock::now();
    rebuild(frame);
    const auto t1 = Clock::now();
    for (std::size_t k = 0; k < frame.queries.size(); ++k) answer_core(frame, frame.queries[k], answers[k].core);
    const auto t2 = Clock::now();
    for (std::size_t k = 0; k < frame.queries.size(); ++k) {
      answer_simulated(frame, frame.queries[k], answers[k].simulated);
    }
    const auto t3 = Clock::now();
    for (std::size_t k = 0; k < frame.queries.size(); ++k) {
      answer_contact(frame, frame.queries[k], answers[k].contact);
    }
    const auto t4 = Clock::now();
    PhaseTimes t;
    t.rebuild = ns_between(t0, t1);
    t.core = ns_between(t1, t2);
    t.simulated = ns_between(t2, t3);
    t.contact = ns_between(t3, t4);
    return t;
  }

 protected:
  virtual void rebuild(const RegionFrame& frame) = 0;
  // Each replaces its output (see RegionAnswers).
  virtual void answer_core(const RegionFrame& frame, const RegionQuery& q, std::vector<BodyIndex>& core) = 0;
  virtual void answer_simulated(const RegionFrame& frame, const RegionQuery& q,
                                std::vector<std::uint8_t>& simulated) = 0;
  virtual void answer_contact(const RegionFrame& frame, const RegionQuery& q, std::vector<BodyIndex>& contact) = 0;
};

class Scan final : public PerQuery {
 public:
  std::string name() const override { return "scan"; }

 protected:
  void rebuild(const RegionFrame& frame) override {
    arrays_.read(frame);
    flags_.resize(frame.states.size());
  }
  void answer_core(const RegionFrame& frame, const RegionQuery& q, std::vector<BodyIndex>& core) override {
    sphere_pass(q.center, q.core_reach, arrays_.xs.data(), arrays_.ys.data(), arrays_.zs.data(), frame.radii.data(),
                flags_.size(), flags_.data());
    core.clear();
    gather(flags_.data(), flags_.size(), 1, core);
  }
  void answer_simulated(const RegionFrame& frame, const RegionQuery& q,
                        std::vector<std::uint8_t>& simulated) override {
    simulated.resize(flags_.size());
    sphere_pass(q.center, q.simulated_reach, arrays_.xs.data(), arrays_.ys.data(), arrays_.zs.data(),
                frame.radii.data(), flags_.size(), simulated.data());
  }
  void answer_contact(const RegionFrame&, const RegionQuery& q, std::vector<BodyIndex>& contact) override {
    sphere_pass(q.swept_center, q.swept_reach, arrays_.swept_xs.data(), arrays_.swept_ys.data(),
                arrays_.swept_zs.data(), arrays_.swept_radii.data(), flags_.size(), flags_.data());
    flags_[q.body] = 0;
    contact.clear();
    gather(flags_.data(), flags_.size(), 1, contact);
  }

 private:
  BodyArrays arrays_;
  std::vector<std::uint8_t> flags_;
};

class FusedScan final : public RegionMethod {
 public:
  std::string name() const override { return "scan fused"; }
  PhaseTimes run(const RegionFrame& frame, std::span<RegionAnswers> answers) override {
    const std::size_t count = frame.states.size();
    PhaseTimes t;
    const auto t0 = Clock::now();
    arrays_.read(frame);
    passed_.resize(count);
    const auto t1 = Clock::now();
    for (std::size_t k = 0; k < frame.queries.size(); ++k) {
      const RegionQuery& q = frame.queries[k];
      RegionAnswers& a = answers[k];
      a.simulated.resize(count);
      fused_pass(q, arrays_, frame.radii.data(), count, a.simulated.data(), passed_.data());
      passed_[q.body] &= static_cast<std::uint8_t>(~kContactBit);
      a.core.clear();
      gather(passed_.data(), count, kCoreBit, a.core);
      a.contact.clear();
      gather(passed_.data(), count, kContactBit, a.contact);
    }
    const auto t2 = Clock::now();
    t.rebuild = ns_between(t0, t1);
    t.together = ns_between(t1, t2);
    return t;
  }

 private:
  BodyArrays arrays_;
  std::vector<std::uint8_t> passed_;
};

// An index over every body's swept sphere, which holds the body's bounding sphere: one index
// answers the contact query as it is and gives candidates for the two others. (Most bodies are
// still, and then the two spheres are the same.)
template <class Index>
class Indexed final : public PerQuery {
 public:
  Indexed(std::string name, Index index) : name_(std::move(name)), index_(std::move(index)) {}
  std::string name() const override { return name_; }

 protected:
  void rebuild(const RegionFrame& frame) override {
    const std::size_t count = frame.states.size();
    positions_.resize(count);
    swept_centers_.resize(count);
    swept_radii_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      positions_[i] = frame.states[i].position;
      const SweptSphere swept = swept_sphere(frame.states[i], frame.radii[i], frame.horizon);
      swept_centers_[i] = swept.center;
      swept_radii_[i] = swept.radius;
    }
    index_.rebuild(swept_centers_, swept_radii_);
  }
  void answer_core(const RegionFrame& frame, const RegionQuery& q, std::vector<BodyIndex>& core) override {
    core.clear();
    index_.query_sphere(q.center, q.core_reach, [&](BodyIndex b) {
      if (spheres_overlap(q.center, q.core_reach, positions_[b], frame.radii[b])) core.push_back(b);
    });
  }
  void answer_simulated(const RegionFrame& frame, const RegionQuery& q,
                        std::vector<std::uint8_t>& simulated) override {
    simulated.assign(positions_.size(), 0);
    index_.query_sphere(q.center, q.simulated_reach, [&](BodyIndex b) {
      if (spheres_overlap(q.center, q.simulated_reach, positions_[b], frame.radii[b])) simulated[b] = 1;
    });
  }
  void answer_contact(const RegionFrame&, const RegionQuery& q, std::vector<BodyIndex>& contact) override {
    contact.clear();
    index_.query_sphere(q.swept_center, q.swept_reach, [&](BodyIndex b) {
      if (b != q.body) contact.push_back(b);
    });
  }

 private:
  std::string name_;
  Index index_;
  std::vector<Vec3> positions_, swept_centers_;
  std::vector<float> swept_radii_;
};

class Builder final : public RegionMethod {
 public:
  explicit Builder(const AuthorityConfig& config) : builder_(config) {}
  std::string name() const override { return "RegionBuilder"; }
  bool answers_queries() const override { return false; }

  PhaseTimes run(const RegionFrame& frame, std::span<RegionAnswers> answers) override {
    regions_.resize(frame.queries.size());
    PhaseTimes t;
    const auto t0 = Clock::now();
    if (builder_.body_count() != frame.states.size()) {
      builder_.rebuild({frame.states, frame.radii});
    } else {
      builder_.rebuild_touched({frame.states, frame.radii}, frame.touched);
    }
    const auto t1 = Clock::now();
    for (std::size_t k = 0; k < frame.queries.size(); ++k) {
      const BodyIndex controlled[] = {frame.queries[k].body};
      builder_.compute(controlled, regions_[k]);
    }
    const auto t2 = Clock::now();
    for (std::size_t k = 0; k < frame.queries.size(); ++k) {  // out of the timing
      answers[k].core.assign(regions_[k].core_bodies.begin(), regions_[k].core_bodies.end());
      answers[k].simulated.assign(regions_[k].simulated.begin(), regions_[k].simulated.end());
      answers[k].contact.assign(regions_[k].contact_bodies.begin(), regions_[k].contact_bodies.end());
    }
    t.rebuild = ns_between(t0, t1);
    t.together = ns_between(t1, t2);
    return t;
  }

 private:
  authority::RegionBuilder builder_;
  std::vector<authority::PeerRegions> regions_;
};

}  // namespace

SweptSphere swept_sphere(const ObjectState& state, float radius, float horizon) {
  const float half = 0.5f * horizon;
  // Most bodies are still: sqrt(0) is 0, so skip it for them (as regions.cpp does).
  const float speed_squared = length_squared(state.linear_velocity);
  const float speed = speed_squared == 0 ? 0.0f : std::sqrt(speed_squared);
  return {state.position + state.linear_velocity * half, radius + speed * half};
}

RegionQuery region_query(BodyIndex body, const ObjectState& state, float radius,
                         const AuthorityConfig& config) {
  const float core = std::max(config.r_min, length(state.linear_velocity) * config.T);
  const SweptSphere swept = swept_sphere(state, radius, config.T_predict);
  RegionQuery q;
  q.body = body;
  q.center = state.position;
  q.core_reach = core + config.hysteresis;
  q.simulated_reach = core + config.simulated_radius + config.hysteresis;
  q.swept_center = swept.center;
  q.swept_reach = swept.radius + config.hysteresis;
  return q;
}

std::unique_ptr<RegionMethod> make_scan() { return std::make_unique<Scan>(); }
std::unique_ptr<RegionMethod> make_fused_scan() { return std::make_unique<FusedScan>(); }

std::unique_ptr<RegionMethod> make_grid(float cell_size) {
  char name[32];
  std::snprintf(name, sizeof name, "grid %g m", static_cast<double>(cell_size));
  return std::make_unique<Indexed<world::SpatialGrid>>(name, world::SpatialGrid(cell_size));
}

std::unique_ptr<RegionMethod> make_tree() {
  return std::make_unique<Indexed<BoundingTree>>("tree", BoundingTree{});
}

std::unique_ptr<RegionMethod> make_region_builder(const AuthorityConfig& config) {
  return std::make_unique<Builder>(config);
}

}  // namespace shoal::bench
