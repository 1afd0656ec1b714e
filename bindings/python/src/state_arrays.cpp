// SPDX-License-Identifier: MIT
#include "state_arrays.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace shoal::python {
namespace {

using namespace pybind11::literals;

// Made once when the module loads, kept to the end of the process (never freed: the
// interpreter may be gone by the time static destructors run).
py::object* state_dtype = nullptr;
py::object* visual_dtype = nullptr;

py::object make_dtype(py::list names, py::list formats, py::list offsets, std::size_t itemsize) {
  py::dict spec("names"_a = names, "formats"_a = formats, "offsets"_a = offsets, "itemsize"_a = itemsize);
  return py::module_::import("numpy").attr("dtype")(spec);
}

py::tuple floats(int n) { return py::make_tuple("<f4", py::make_tuple(n)); }

}  // namespace

py::array state_array(std::vector<py::ssize_t> shape) {
  py::array array(py::dtype::from_args(*state_dtype), shape);
  std::memset(array.mutable_data(), 0, static_cast<std::size_t>(array.nbytes()));
  return array;
}

py::array visual_array(std::size_t count) {
  py::array array(py::dtype::from_args(*visual_dtype), std::vector<py::ssize_t>{static_cast<py::ssize_t>(count)});
  std::memset(array.mutable_data(), 0, static_cast<std::size_t>(array.nbytes()));
  return array;
}

StateRecord* state_records(py::array& array) { return static_cast<StateRecord*>(array.mutable_data()); }
VisualRecord* visual_records(py::array& array) { return static_cast<VisualRecord*>(array.mutable_data()); }

void fill(StateRecord& r, ObjectId id, const std::optional<ObjectState>& state) {
  r.id = id;
  if (!state) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (float* column : {r.position, r.linear_velocity, r.angular_velocity}) column[0] = column[1] = column[2] = nan;
    r.orientation[0] = r.orientation[1] = r.orientation[2] = r.orientation[3] = nan;
    r.at_rest = false;
    return;
  }
  const ObjectState& s = *state;
  r.position[0] = s.position.x, r.position[1] = s.position.y, r.position[2] = s.position.z;
  r.orientation[0] = s.orientation.w, r.orientation[1] = s.orientation.x;
  r.orientation[2] = s.orientation.y, r.orientation[3] = s.orientation.z;
  r.linear_velocity[0] = s.linear_velocity.x, r.linear_velocity[1] = s.linear_velocity.y;
  r.linear_velocity[2] = s.linear_velocity.z;
  r.angular_velocity[0] = s.angular_velocity.x, r.angular_velocity[1] = s.angular_velocity.y;
  r.angular_velocity[2] = s.angular_velocity.z;
  r.at_rest = s.at_rest;
}

void fill(VisualRecord& r, ObjectId id, const VisualState& s) {
  r.id = id;
  r.position[0] = s.position.x, r.position[1] = s.position.y, r.position[2] = s.position.z;
  r.orientation[0] = s.orientation.w, r.orientation[1] = s.orientation.x;
  r.orientation[2] = s.orientation.y, r.orientation[3] = s.orientation.z;
}

ObjectState state_of(const StateRecord& r) {
  ObjectState s;
  s.position = {r.position[0], r.position[1], r.position[2]};
  s.orientation = {r.orientation[0], r.orientation[1], r.orientation[2], r.orientation[3]};
  s.linear_velocity = {r.linear_velocity[0], r.linear_velocity[1], r.linear_velocity[2]};
  s.angular_velocity = {r.angular_velocity[0], r.angular_velocity[1], r.angular_velocity[2]};
  s.at_rest = r.at_rest;
  return s;
}

std::vector<ObjectId> ids_or(const py::object& ids, std::span<const ObjectId> fallback) {
  if (ids.is_none()) return {fallback.begin(), fallback.end()};
  const auto array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(ids);
  if (!array || array.ndim() != 1) throw py::type_error("ids: expected a sequence or 1-D array of object ids");
  std::vector<ObjectId> out(static_cast<std::size_t>(array.size()));
  const std::int64_t* data = array.data();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (data[i] < 0 || data[i] > std::numeric_limits<ObjectId>::max()) {
      throw std::invalid_argument("ids: " + std::to_string(data[i]) + " is no object id (expected 0..4294967295)");
    }
    out[i] = static_cast<ObjectId>(data[i]);
  }
  return out;
}

void bind_state_arrays(py::module_& m) {
  py::list names, formats, offsets;
  for (auto [name, format, offset] : {std::tuple{"id", py::object(py::str("<u4")), offsetof(StateRecord, id)},
                                      {"position", floats(3), offsetof(StateRecord, position)},
                                      {"orientation", floats(4), offsetof(StateRecord, orientation)},
                                      {"linear_velocity", floats(3), offsetof(StateRecord, linear_velocity)},
                                      {"angular_velocity", floats(3), offsetof(StateRecord, angular_velocity)},
                                      {"at_rest", py::str("?"), offsetof(StateRecord, at_rest)}}) {
    names.append(name);
    formats.append(format);
    offsets.append(offset);
  }
  state_dtype = new py::object(make_dtype(names, formats, offsets, sizeof(StateRecord)));
  py::list visual_names, visual_formats, visual_offsets;
  for (auto [name, format, offset] : {std::tuple{"id", py::object(py::str("<u4")), offsetof(VisualRecord, id)},
                                      {"position", floats(3), offsetof(VisualRecord, position)},
                                      {"orientation", floats(4), offsetof(VisualRecord, orientation)}}) {
    visual_names.append(name);
    visual_formats.append(format);
    visual_offsets.append(offset);
  }
  visual_dtype = new py::object(make_dtype(visual_names, visual_formats, visual_offsets, sizeof(VisualRecord)));
  m.attr("STATE_DTYPE") = *state_dtype;
  m.attr("VISUAL_DTYPE") = *visual_dtype;
}

}  // namespace shoal::python
