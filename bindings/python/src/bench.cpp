// SPDX-License-Identifier: MIT
// shoal._bench: the C++ side of the Python benchmark (bindings/python/bench). It replays a
// recording the way a C++ program would, timing each update() on the steady clock, so that
// the benchmark can set Python's cost of the same updates beside it, in the same process.
#include <chrono>

#include <pybind11/numpy.h>

#include "bind.hpp"
#include "shoal/recording.hpp"

namespace shoal::python {

using namespace pybind11::literals;

void bind_bench(py::module_& m) {
  m.doc() = "C++ reference loops for the benchmark (not part of the API).";
  m.def("replay_update_ns", [](const Replay& replay, Simulation& simulation) {
          std::vector<std::int64_t> times;
          ReplayReport report;
          {
            py::gil_scoped_release release;
            ReplaySession session(replay, simulation);
            while (session.next()) {
              const auto start = std::chrono::steady_clock::now();
              session.update();
              times.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
            }
            report = session.report();
          }
          if (!report.identical) throw std::runtime_error("the C++ replay differed: " + report.first_difference);
          return py::array_t<std::int64_t>(static_cast<py::ssize_t>(times.size()), times.data());
        },
        "replay"_a, "simulation"_a,
        "Replays the recording in C++ and returns each update()'s time in nanoseconds (an int64 array).");
}

}  // namespace shoal::python
