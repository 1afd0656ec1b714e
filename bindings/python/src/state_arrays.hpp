// SPDX-License-Identifier: MIT
// Many objects' states as one numpy array: a structured array with a record per object, so a
// Python program reads every body's position, orientation and velocity with one call and slices
// columns (states["position"] is an (N, 3) float32 view) with no loop over bodies.
//   STATE_DTYPE:  id u4, position 3f4, orientation 4f4 (w, x, y, z), linear_velocity 3f4,
//                 angular_velocity 3f4, at_rest bool (60 bytes, padding zeroed)
//   VISUAL_DTYPE: id u4, position 3f4, orientation 4f4 (32 bytes)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <pybind11/numpy.h>

#include "bind.hpp"
#include "shoal/smoothing.hpp"
#include "shoal/state.hpp"

namespace shoal::python {

struct StateRecord {
  std::uint32_t id;
  float position[3];
  float orientation[4];
  float linear_velocity[3];
  float angular_velocity[3];
  bool at_rest;
  std::uint8_t padding[3];
};
static_assert(sizeof(StateRecord) == 60);

struct VisualRecord {
  std::uint32_t id;
  float position[3];
  float orientation[4];
};
static_assert(sizeof(VisualRecord) == 32);

/// A zeroed array of `shape` StateRecords (one or two dimensions).
py::array state_array(std::vector<py::ssize_t> shape);
py::array visual_array(std::size_t count);
/// The records of an array made by state_array / visual_array.
StateRecord* state_records(py::array& array);
VisualRecord* visual_records(py::array& array);

/// One record: the object's state, or NaN everywhere (at_rest False) for a state not known.
void fill(StateRecord& record, ObjectId id, const std::optional<ObjectState>& state);
void fill(VisualRecord& record, ObjectId id, const VisualState& state);

/// Object ids from Python: any sequence or array of integers (converted to uint32), or None for
/// `fallback`.
std::vector<ObjectId> ids_or(const py::object& ids, std::span<const ObjectId> fallback);

/// The state of record `i` (the inverse of fill), for arrays given back by Python.
ObjectState state_of(const StateRecord& record);

}  // namespace shoal::python
