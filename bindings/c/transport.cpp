// SPDX-License-Identifier: MIT
// Transports from C: ENet endpoints and the in-process MemoryNetwork.
#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_link_conditions_default(shoal_link_conditions* conditions) {
  return guarded(__func__, [&] {
    require(conditions, "conditions") = shoal_c::to_c(shoal::LinkConditions{});
    return SHOAL_OK;
  });
}

int shoal_enet_config_default(shoal_enet_config* config) {
  return guarded(__func__, [&] {
    require(config, "config") = shoal_c::to_c(shoal::TransportConfig{});
    return SHOAL_OK;
  });
}

int shoal_transport_create_enet(const shoal_enet_config* config, shoal_transport** out_transport) {
  return guarded(__func__, [&] {
    shoal_transport*& out = require(out_transport, "out_transport");
    out = nullptr;
    const shoal::TransportConfig cpp = shoal_c::to_cpp(require(config, "config"));
    out = new shoal_transport{shoal::make_enet_transport(cpp)};
    return SHOAL_OK;
  });
}

int shoal_transport_destroy(shoal_transport* transport) {
  delete transport;  // cannot throw: the transports' destructors do not
  return SHOAL_OK;
}

int shoal_memory_network_create(uint64_t seed, shoal_memory_network** out_network) {
  return guarded(__func__, [&] {
    shoal_memory_network*& out = require(out_network, "out_network");
    out = nullptr;
    out = new shoal_memory_network(seed);
    return SHOAL_OK;
  });
}

int shoal_memory_network_destroy(shoal_memory_network* network) {
  delete network;  // endpoints share the network's state, so they stay valid
  return SHOAL_OK;
}

int shoal_memory_network_set_time_us(shoal_memory_network* network, int64_t now_us) {
  return guarded(__func__, [&] {
    require(network, "network").network.set_time_us(now_us);
    return SHOAL_OK;
  });
}

int shoal_memory_network_set_conditions(shoal_memory_network* network,
                                        const shoal_link_conditions* conditions) {
  return guarded(__func__, [&] {
    shoal_memory_network& net = require(network, "network");
    net.network.set_conditions(shoal_c::to_cpp(require(conditions, "conditions")));
    return SHOAL_OK;
  });
}

int shoal_memory_network_create_endpoint(shoal_memory_network* network, uint16_t port,
                                         uint32_t timeout_ms, shoal_transport** out_transport) {
  return guarded(__func__, [&] {
    shoal_transport*& out = require(out_transport, "out_transport");
    out = nullptr;
    shoal_memory_network& net = require(network, "network");
    out = new shoal_transport{net.network.create_endpoint(port, timeout_ms)};
    return SHOAL_OK;
  });
}

}  // extern "C"
