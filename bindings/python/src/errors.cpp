// SPDX-License-Identifier: MIT
// Shoal's exceptions in Python. Every one carries Shoal's own message (what() of the C++
// exception), which names the field, value or call that was wrong and what was expected:
//   std::invalid_argument -> shoal.InvalidArgument (also a ValueError)
//   std::logic_error      -> shoal.StateError (also a RuntimeError): a call at the wrong time
//   std::runtime_error    -> shoal.OperationError (also a RuntimeError): a socket, a file, a limit
// and all three are shoal.Error.
#include <stdexcept>

#include "bind.hpp"

namespace shoal::python {
namespace {

PyObject* new_exception(py::module_& m, const char* name, const char* doc, py::tuple bases) {
  const std::string qualified = std::string("shoal.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

PyObject* invalid_argument = nullptr;
PyObject* state_error = nullptr;
PyObject* operation_error = nullptr;

}  // namespace

void bind_errors(py::module_& m) {
  PyObject* error = new_exception(m, "Error", "Base of every error Shoal raises; the message is Shoal's own.",
                                  py::make_tuple(py::handle(PyExc_Exception)));
  invalid_argument = new_exception(m, "InvalidArgument",
      "A wrong argument or config value: the message names the field, the value and what is expected.",
      py::make_tuple(py::handle(error), py::handle(PyExc_ValueError)));
  state_error = new_exception(m, "StateError",
      "A call at the wrong time (before the match, after it, on an object another peer owns, on a closed peer).",
      py::make_tuple(py::handle(error), py::handle(PyExc_RuntimeError)));
  operation_error = new_exception(m, "OperationError",
      "Something outside failed: a port that cannot be bound, a file that cannot be read or written, a limit reached.",
      py::make_tuple(py::handle(error), py::handle(PyExc_RuntimeError)));
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's own (TypeError, ...): its translator sets them
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(invalid_argument, e.what());
    } catch (const std::logic_error& e) {
      PyErr_SetString(state_error, e.what());
    } catch (const std::runtime_error& e) {
      PyErr_SetString(operation_error, e.what());
    }
  });
}

std::vector<std::uint8_t> bytes_of(const py::handle& data) {
  if (!PyObject_CheckBuffer(data.ptr()) || PyUnicode_Check(data.ptr())) {
    throw py::type_error("expected bytes, bytearray or memoryview, got " + std::string(py::str(data.get_type().attr("__name__"))));
  }
  const py::buffer_info info = py::reinterpret_borrow<py::buffer>(data).request();
  const auto* begin = static_cast<const std::uint8_t*>(info.ptr);
  return {begin, begin + info.size * info.itemsize};
}

}  // namespace shoal::python
