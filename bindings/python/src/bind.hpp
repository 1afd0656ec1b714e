// SPDX-License-Identifier: MIT
// What every file of the module shares: one bind_* function per part of the API (module.cpp
// calls them in order, so that a part finds the types it names already bound), and Struct, which
// binds a plain C++ struct as a Python class with keyword arguments and the C++ defaults.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "shoal/math.hpp"

namespace shoal::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_values(py::module_& m);
void bind_configs(py::module_& m);
void bind_events(py::module_& m);
void bind_transports(py::module_& m);
void bind_relay(py::module_& m);
void bind_simulations(py::module_& m);
void bind_state_arrays(py::module_& m);
void bind_peer(py::module_& m);
void bind_recording(py::module_& m);
void bind_discovery(py::module_& m);
void bind_bench(py::module_& m);

/// A Vec3 or Quat from Python: one already, or any sequence of 3 (4) numbers; ValueError naming
/// `where` otherwise.
Vec3 vec3_of(const py::handle& value, const std::string& where);
Quat quat_of(const py::handle& value, const std::string& where);

/// Binds struct T as a Python class whose constructor takes any of its fields as keyword
/// arguments (the others keep the C++ defaults), with a repr listing every field, == where T
/// has it, and copy.copy/deepcopy. A keyword that names no field is a TypeError naming the
/// fields there are.
template <class T>
class Struct {
 public:
  Struct(py::handle scope, const char* name, const char* doc)
      : class_(scope, name, doc), fields_(std::make_shared<std::vector<std::string>>()) {}
  Struct(const Struct&) = delete;
  Struct& operator=(const Struct&) = delete;

  ~Struct() {
    auto fields = fields_;
    const std::string type_name = py::str(class_.attr("__name__"));
    class_.def(py::init([fields, type_name](const py::kwargs& kwargs) {
                 T value{};
                 py::object self = py::cast(&value, py::return_value_policy::reference);
                 for (const auto& [key, item] : kwargs) {
                   const std::string name = py::str(key);
                   if (std::find(fields->begin(), fields->end(), name) == fields->end()) {
                     std::string known;
                     for (const std::string& f : *fields) known += (known.empty() ? "" : ", ") + f;
                     throw py::type_error(type_name + "() has no field '" + name + "': expected some of " + known);
                   }
                   py::setattr(self, name.c_str(), item);
                 }
                 return value;
               }),
               "Takes any of the fields as keyword arguments; the others keep their defaults.");
    class_.def("__repr__", [fields, type_name](py::handle self) {
      std::string text = type_name + "(";
      for (std::size_t i = 0; i < fields->size(); ++i) {
        text += (i == 0 ? "" : ", ") + (*fields)[i] + "=" + std::string(py::repr(self.attr((*fields)[i].c_str())));
      }
      return text + ")";
    });
    class_.def("__copy__", [](const T& value) { return T(value); });
    class_.def("__deepcopy__", [](const T& value, py::handle) { return T(value); }, py::arg("memo"));
    if constexpr (std::equality_comparable<T>) {
      class_.def("__eq__", [](const T& a, const T& b) { return a == b; }, py::is_operator());
      class_.attr("__hash__") = py::none();
    }
  }

  /// A field Python reads and writes (vectors and quaternions from any sequence of numbers).
  template <class M>
  Struct& field(const char* name, M T::*member, const char* doc) {
    if constexpr (std::is_same_v<M, Vec3> || std::is_same_v<M, Quat>) {
      const std::string where = std::string(py::str(class_.attr("__name__"))) + "." + name;
      class_.def_property(
          name, [member](T& value) -> M& { return value.*member; },
          [member, where](T& value, const py::handle& given) {
            if constexpr (std::is_same_v<M, Vec3>) {
              value.*member = vec3_of(given, where);
            } else {
              value.*member = quat_of(given, where);
            }
          },
          py::return_value_policy::reference_internal, doc);
    } else {
      class_.def_readwrite(name, member, doc);
    }
    fields_->push_back(name);
    return *this;
  }
  /// A field with its own getter and setter (conversions the default caster lacks).
  template <class Get, class Set>
  Struct& property(const char* name, Get&& get, Set&& set, const char* doc) {
    class_.def_property(name, std::forward<Get>(get), std::forward<Set>(set), doc);
    fields_->push_back(name);
    return *this;
  }
  py::class_<T>& cls() { return class_; }

 private:
  py::class_<T> class_;
  std::shared_ptr<std::vector<std::string>> fields_;
};

/// Binds a read-only result struct (statistics, events' parts): fields readable, a repr
/// listing them, == where T has it.
template <class T>
class Record {
 public:
  Record(py::handle scope, const char* name, const char* doc)
      : class_(scope, name, doc), fields_(std::make_shared<std::vector<std::string>>()) {}
  Record(const Record&) = delete;
  Record& operator=(const Record&) = delete;
  ~Record() {
    auto fields = fields_;
    const std::string type_name = py::str(class_.attr("__name__"));
    if (!custom_repr_) class_.def("__repr__", [fields, type_name](py::handle self) {
      std::string text = type_name + "(";
      for (std::size_t i = 0; i < fields->size(); ++i) {
        text += (i == 0 ? "" : ", ") + (*fields)[i] + "=" + std::string(py::repr(self.attr((*fields)[i].c_str())));
      }
      return text + ")";
    });
    if constexpr (std::equality_comparable<T>) {
      class_.def("__eq__", [](const T& a, const T& b) { return a == b; }, py::is_operator());
      class_.attr("__hash__") = py::none();
    }
  }
  template <class M>
  Record& field(const char* name, M T::*member, const char* doc) {
    class_.def_readonly(name, member, doc);
    fields_->push_back(name);
    return *this;
  }
  template <class Get>
  Record& property(const char* name, Get&& get, const char* doc) {
    class_.def_property_readonly(name, std::forward<Get>(get), doc);
    fields_->push_back(name);
    return *this;
  }
  /// A repr of its own instead of every field's.
  template <class Repr>
  Record& repr(Repr&& repr) {
    class_.def("__repr__", std::forward<Repr>(repr));
    custom_repr_ = true;
    return *this;
  }
  py::class_<T>& cls() { return class_; }

 private:
  py::class_<T> class_;
  std::shared_ptr<std::vector<std::string>> fields_;
  bool custom_repr_ = false;
};

/// Bytes from Python (bytes, bytearray, memoryview) as a vector; TypeError for anything else.
std::vector<std::uint8_t> bytes_of(const py::handle& data);

}  // namespace shoal::python
