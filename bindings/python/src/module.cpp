// SPDX-License-Identifier: MIT
// The extension module shoal._shoal, which the package shoal (shoal/__init__.py) re-exports.
// Each part of the C++ API is bound in a file of its own; the order below binds the types a
// part names before the part.
#include "bind.hpp"

PYBIND11_MODULE(_shoal, m) {
  using namespace shoal::python;
  m.doc() = "Shoal: peer-to-peer physics networking (the C++ SDK's API, from Python).";
  bind_errors(m);
  bind_values(m);
  bind_configs(m);
  bind_events(m);
  bind_transports(m);
  bind_relay(m);
  bind_simulations(m);
  bind_state_arrays(m);
  bind_peer(m);
  bind_recording(m);
  bind_discovery(m);
  py::module_ bench = m.def_submodule("_bench");
  bind_bench(bench);
}
