// SPDX-License-Identifier: MIT
// Small value types for 3D state: vectors and unit quaternions.
// Only what the SDK itself needs; games convert to and from their engine's types.
#pragma once

#include <cmath>

namespace shoal {

/// A 3D vector (metres, m/s or rad/s as the field says).
struct Vec3 {
  float x = 0;  ///< first component
  float y = 0;  ///< second component (up, in Shoal's worlds)
  float z = 0;  ///< third component

  /// sum
  constexpr Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
  /// difference
  constexpr Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
  /// negation
  constexpr Vec3 operator-() const { return {-x, -y, -z}; }
  /// scaled by s
  constexpr Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
  /// divided by s
  constexpr Vec3 operator/(float s) const { return {x / s, y / s, z / s}; }
  /// adds o
  constexpr Vec3& operator+=(Vec3 o) { x += o.x; y += o.y; z += o.z; return *this; }
  /// subtracts o
  constexpr Vec3& operator-=(Vec3 o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  /// scales by s
  constexpr Vec3& operator*=(float s) { x *= s; y *= s; z *= s; return *this; }
  constexpr bool operator==(const Vec3&) const = default;  ///< compares every component exactly
};

constexpr Vec3 operator*(float s, Vec3 v) { return v * s; }
constexpr float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
constexpr float length_squared(Vec3 v) { return dot(v, v); }
inline float length(Vec3 v) { return std::sqrt(dot(v, v)); }
inline float distance(Vec3 a, Vec3 b) { return length(a - b); }
inline Vec3 normalized(Vec3 v) {
  const float len = length(v);
  return len > 0 ? v / len : Vec3{};
}
constexpr Vec3 lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

/// Unit quaternion (w + xi + yj + zk) for orientation.
struct Quat {
  float w = 1;  ///< real part
  float x = 0;  ///< i component
  float y = 0;  ///< j component
  float z = 0;  ///< k component

  constexpr bool operator==(const Quat&) const = default;  ///< compares every component exactly
};

constexpr Quat operator*(Quat a, Quat b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
          a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
constexpr Quat conjugate(Quat q) { return {q.w, -q.x, -q.y, -q.z}; }
constexpr float dot(Quat a, Quat b) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
inline Quat normalized(Quat q) {
  const float len = std::sqrt(dot(q, q));
  return len > 0 ? Quat{q.w / len, q.x / len, q.y / len, q.z / len} : Quat{};
}
inline Quat axis_angle(Vec3 axis, float angle) {
  const Vec3 a = normalized(axis) * std::sin(angle * 0.5f);
  return {std::cos(angle * 0.5f), a.x, a.y, a.z};
}
/// Rotates v by q.
constexpr Vec3 rotate(Quat q, Vec3 v) {
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.0f;
  return v + t * q.w + cross(u, t);
}
/// Angle in radians between two orientations (0..pi), treating q and -q as the same.
/// atan2 of the relative rotation's parts stays accurate for nearly equal orientations,
/// where acos of a dot product close to 1 loses everything to rounding.
inline float angle_between(Quat a, Quat b) {
  const Quat r = conjugate(a) * b;
  const float s = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z);
  return 2.0f * std::atan2(s, std::fabs(r.w));
}
/// Spherical interpolation along the shorter arc.
inline Quat slerp(Quat a, Quat b, float t) {
  float d = dot(a, b);
  if (d < 0) { b = {-b.w, -b.x, -b.y, -b.z}; d = -d; }
  if (d > 0.9995f) {  // nearly equal: normalised lerp avoids dividing by sin(~0)
    return normalized(Quat{a.w + (b.w - a.w) * t, a.x + (b.x - a.x) * t,
                           a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t});
  }
  const float theta = std::acos(d);
  const float s = std::sin(theta);
  const float wa = std::sin((1 - t) * theta) / s;
  const float wb = std::sin(t * theta) / s;
  return {wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z};
}
/// Advances q by angular velocity w (rad/s) over dt seconds.
inline Quat integrate(Quat q, Vec3 w, float dt) {
  const Quat spin{0, w.x, w.y, w.z};
  const Quat d = spin * q;
  const float h = 0.5f * dt;
  return normalized(Quat{q.w + d.w * h, q.x + d.x * h, q.y + d.y * h, q.z + d.z * h});
}

}  // namespace shoal
