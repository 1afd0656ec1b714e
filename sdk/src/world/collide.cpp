// SPDX-License-Identifier: MIT
#include "world/collide.hpp"

#include <cmath>
#include <limits>

namespace shoal::world {
namespace {

// A face axis beats an edge axis, and box a's face beats box b's, unless the other is clearly
// better: flipping between near-equal axes from frame to frame makes resting stacks jitter.
constexpr float kRelativeTolerance = 0.98f;
constexpr float kAbsoluteTolerance = 0.005f;

float sign_of(float v) { return v < 0 ? -1.0f : 1.0f; }

void sphere_sphere(Vec3 ca, float ra, Vec3 cb, float rb, float margin, Manifold& out) {
  const Vec3 d = cb - ca;
  const float reach = ra + rb + margin;
  const float dist_sq = length_squared(d);
  if (dist_sq > reach * reach) return;
  const float dist = std::sqrt(dist_sq);
  out.normal = dist > 1e-6f ? d / dist : Vec3{0, 1, 0};
  const float separation = dist - ra - rb;
  out.add(ca + out.normal * (ra + separation * 0.5f), separation);
}

// Normal from the box towards the sphere.
void box_sphere(const Pose& box, Vec3 half, Vec3 center, float radius, float margin,
                Manifold& out) {
  const Vec3 local = box.to_local_direction(center - box.position);
  const Vec3 clamped{std::fmax(-half.x, std::fmin(local.x, half.x)),
                     std::fmax(-half.y, std::fmin(local.y, half.y)),
                     std::fmax(-half.z, std::fmin(local.z, half.z))};
  if (local == clamped) {
    // Centre inside the box: leave through the nearest face.
    int axis = 0;
    float depth = half.x - std::fabs(local.x);
    for (int k = 1; k < 3; ++k) {
      const float d = component(half, k) - std::fabs(component(local, k));
      if (d < depth) { depth = d; axis = k; }
    }
    out.normal = box.axes[axis] * sign_of(component(local, axis));
    const float separation = -depth - radius;
    out.add(center - out.normal * (radius + separation * 0.5f), separation);
    return;
  }
  const Vec3 offset = local - clamped;
  const float dist_sq = length_squared(offset);
  const float reach = radius + margin;
  if (dist_sq > reach * reach) return;
  const float dist = std::sqrt(dist_sq);
  const Vec3 local_normal = offset / dist;
  out.normal = box.axes[0] * local_normal.x + box.axes[1] * local_normal.y +
               box.axes[2] * local_normal.z;
  const float separation = dist - radius;
  out.add(box.to_world(clamped) + out.normal * (separation * 0.5f), separation);
}

// Clips the incident box's face most opposed to `normal` against the side planes of the
// reference box's face `axis`; `normal` is that face's outward normal (towards the incident box).
void face_contact(const Pose& ref, Vec3 ref_half, int axis, Vec3 normal, const Pose& inc,
                  Vec3 inc_half, float margin, Manifold& out) {
  int inc_axis = 0;
  float best = -1;
  for (int k = 0; k < 3; ++k) {
    const float d = std::fabs(dot(inc.axes[k], normal));
    if (d > best) { best = d; inc_axis = k; }
  }
  const float facing = dot(inc.axes[inc_axis], normal) > 0 ? -1.0f : 1.0f;
  const Vec3 face_center =
      inc.position + inc.axes[inc_axis] * (facing * component(inc_half, inc_axis));
  const int iu = (inc_axis + 1) % 3;
  const int iv = (inc_axis + 2) % 3;
  const Vec3 du = inc.axes[iu] * component(inc_half, iu);
  const Vec3 dv = inc.axes[iv] * component(inc_half, iv);

  std::array<Vec3, 8> poly{face_center + du + dv, face_center - du + dv, face_center - du - dv,
                           face_center + du - dv};
  int count = 4;
  std::array<Vec3, 8> clipped{};
  const int ru = (axis + 1) % 3;
  const int rv = (axis + 2) % 3;
  const Vec3 side_normals[4] = {ref.axes[ru], -ref.axes[ru], ref.axes[rv], -ref.axes[rv]};
  const float side_half[4] = {component(ref_half, ru), component(ref_half, ru),
                              component(ref_half, rv), component(ref_half, rv)};
  for (int s = 0; s < 4 && count > 0; ++s) {
    const Vec3 n = side_normals[s];
    const float limit = dot(n, ref.position) + side_half[s];
    int kept = 0;
    for (int i = 0; i < count; ++i) {
      const Vec3 p = poly[static_cast<std::size_t>(i)];
      const Vec3 q = poly[static_cast<std::size_t>((i + 1) % count)];
      const float dp = dot(n, p) - limit;
      const float dq = dot(n, q) - limit;
      if (dp <= 0 && kept < 8) clipped[static_cast<std::size_t>(kept++)] = p;
      if ((dp < 0) != (dq < 0) && kept < 8) {
        clipped[static_cast<std::size_t>(kept++)] = p + (q - p) * (dp / (dp - dq));
      }
    }
    poly = clipped;
    count = kept;
  }

  const float face_offset = dot(normal, ref.position) + component(ref_half, axis);
  ContactPoint candidates[8];
  int found = 0;
  for (int i = 0; i < count; ++i) {
    const Vec3 p = poly[static_cast<std::size_t>(i)];
    const float separation = dot(normal, p) - face_offset;
    if (separation < margin) candidates[found++] = {p - normal * (separation * 0.5f), separation};
  }
  if (found <= 4) {
    for (int i = 0; i < found; ++i) out.add(candidates[i].point, candidates[i].separation);
    return;
  }
  // Keep the four points furthest out along the face's diagonals: they span the contact area.
  const Vec3 diagonals[2] = {ref.axes[ru] + ref.axes[rv], ref.axes[ru] - ref.axes[rv]};
  int chosen[4] = {0, 0, 0, 0};
  for (int d = 0; d < 2; ++d) {
    for (int i = 1; i < found; ++i) {
      const float key = dot(diagonals[d], candidates[i].point);
      if (key > dot(diagonals[d], candidates[chosen[2 * d]].point)) chosen[2 * d] = i;
      if (key < dot(diagonals[d], candidates[chosen[2 * d + 1]].point)) chosen[2 * d + 1] = i;
    }
  }
  for (int i = 0; i < 4; ++i) {
    bool repeated = false;
    for (int j = 0; j < i; ++j) repeated = repeated || chosen[j] == chosen[i];
    if (!repeated) out.add(candidates[chosen[i]].point, candidates[chosen[i]].separation);
  }
}

void box_box(const Pose& a, Vec3 ha, const Pose& b, Vec3 hb, float margin, Manifold& out) {
  const Vec3 d = b.position - a.position;
  float abs_r[3][3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) abs_r[i][j] = std::fabs(dot(a.axes[i], b.axes[j])) + 1e-6f;
  }
  auto project_a = [&](Vec3 axis) {
    return ha.x * std::fabs(dot(a.axes[0], axis)) + ha.y * std::fabs(dot(a.axes[1], axis)) +
           ha.z * std::fabs(dot(a.axes[2], axis));
  };
  auto project_b = [&](Vec3 axis) {
    return hb.x * std::fabs(dot(b.axes[0], axis)) + hb.y * std::fabs(dot(b.axes[1], axis)) +
           hb.z * std::fabs(dot(b.axes[2], axis));
  };

  constexpr float kNone = -std::numeric_limits<float>::max();
  float face_a_sep = kNone, face_b_sep = kNone, edge_sep = kNone;
  int face_a = 0, face_b = 0, edge_i = 0, edge_j = 0;
  Vec3 edge_axis;
  for (int i = 0; i < 3; ++i) {
    const float rb = component(hb, 0) * abs_r[i][0] + component(hb, 1) * abs_r[i][1] +
                     component(hb, 2) * abs_r[i][2];
    const float sep = std::fabs(dot(d, a.axes[i])) - (component(ha, i) + rb);
    if (sep > margin) return;
    if (sep > face_a_sep) { face_a_sep = sep; face_a = i; }
  }
  for (int j = 0; j < 3; ++j) {
    const float ra = component(ha, 0) * abs_r[0][j] + component(ha, 1) * abs_r[1][j] +
                     component(ha, 2) * abs_r[2][j];
    const float sep = std::fabs(dot(d, b.axes[j])) - (ra + component(hb, j));
    if (sep > margin) return;
    if (sep > face_b_sep) { face_b_sep = sep; face_b = j; }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vec3 axis = cross(a.axes[i], b.axes[j]);
      const float len = length(axis);
      if (len < 1e-4f) continue;  // parallel edges: the face axes already cover them
      axis = axis / len;
      const float sep = std::fabs(dot(d, axis)) - (project_a(axis) + project_b(axis));
      if (sep > margin) return;
      if (sep > edge_sep) { edge_sep = sep; edge_i = i; edge_j = j; edge_axis = axis; }
    }
  }

  const bool use_b = face_b_sep > kRelativeTolerance * face_a_sep + kAbsoluteTolerance;
  const float face_sep = use_b ? face_b_sep : face_a_sep;
  if (edge_sep > kRelativeTolerance * face_sep + kAbsoluteTolerance) {
    const Vec3 axis = dot(d, edge_axis) < 0 ? -edge_axis : edge_axis;  // from a to b
    // The edge of a furthest along the axis and the edge of b furthest against it.
    Vec3 pa = a.position, pb = b.position;
    for (int k = 0; k < 3; ++k) {
      if (k != edge_i) pa += a.axes[k] * (component(ha, k) * sign_of(dot(a.axes[k], axis)));
      if (k != edge_j) pb -= b.axes[k] * (component(hb, k) * sign_of(dot(b.axes[k], axis)));
    }
    const Vec3 da = a.axes[edge_i];
    const Vec3 db = b.axes[edge_j];
    const float ea = component(ha, edge_i);
    const float eb = component(hb, edge_j);
    // Closest points of the two segments (unit directions).
    const Vec3 r = pa - pb;
    const float cos_ab = dot(da, db);
    const float c = dot(da, r);
    const float f = dot(db, r);
    const float denom = 1 - cos_ab * cos_ab;
    float s = denom > 1e-6f ? (cos_ab * f - c) / denom : 0.0f;
    s = std::fmax(-ea, std::fmin(s, ea));
    float t = std::fmax(-eb, std::fmin(cos_ab * s + f, eb));
    s = std::fmax(-ea, std::fmin(cos_ab * t - c, ea));
    out.normal = axis;
    out.add((pa + da * s + pb + db * t) * 0.5f, edge_sep);
    return;
  }
  if (use_b) {
    const Vec3 normal = b.axes[face_b] * -sign_of(dot(d, b.axes[face_b]));  // from b to a
    out.normal = -normal;
    face_contact(b, hb, face_b, normal, a, ha, margin, out);
  } else {
    const Vec3 normal = a.axes[face_a] * sign_of(dot(d, a.axes[face_a]));
    out.normal = normal;
    face_contact(a, ha, face_a, normal, b, hb, margin, out);
  }
}

}  // namespace

void collide(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, float margin,
             Manifold& out) {
  out.count = 0;
  if (a.kind == ShapeKind::sphere && b.kind == ShapeKind::sphere) {
    sphere_sphere(pa.position, a.radius, pb.position, b.radius, margin, out);
  } else if (a.kind == ShapeKind::box && b.kind == ShapeKind::sphere) {
    box_sphere(pa, a.half_extents, pb.position, b.radius, margin, out);
  } else if (a.kind == ShapeKind::sphere && b.kind == ShapeKind::box) {
    box_sphere(pb, b.half_extents, pa.position, a.radius, margin, out);
    out.normal = -out.normal;
  } else {
    box_box(pa, a.half_extents, pb, b.half_extents, margin, out);
  }
}

void collide_plane(const Shape& shape, const Pose& pose, Vec3 inward_normal, float offset,
                   float margin, Manifold& out) {
  out.count = 0;
  out.normal = -inward_normal;
  if (shape.kind == ShapeKind::sphere) {
    const float separation = dot(inward_normal, pose.position) - offset - shape.radius;
    if (separation < margin) {
      out.add(pose.position - inward_normal * (shape.radius + separation * 0.5f), separation);
    }
    return;
  }
  const Vec3 h = shape.half_extents;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 local{(corner & 1) != 0 ? h.x : -h.x, (corner & 2) != 0 ? h.y : -h.y,
                     (corner & 4) != 0 ? h.z : -h.z};
    const Vec3 p = pose.to_world(local);
    const float separation = dot(inward_normal, p) - offset;
    if (separation < margin) out.add(p - inward_normal * (separation * 0.5f), separation);
  }
}

}  // namespace shoal::world
