// SPDX-License-Identifier: MIT
// shoal_peer from C: its config, creation and the calls a game makes every render frame.
// What a game reads back from a peer (states, owners, statistics) is in peer_queries.cpp.
#include <memory>
#include <string>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

namespace shoal_c {
namespace {

/// Creates the peer on `simulation` (`callbacks` when that is a game's simulation, else
/// NULL). The transport is taken first, so that every way out, failures included, destroys it
/// exactly once: the caller never has to wonder who owns it.
int create_peer(const shoal_peer_config* config, shoal::Simulation* simulation, bool* driving_peer,
                CallbackSimulation* callbacks, const char* what, shoal_transport* transport,
                shoal_peer** out_peer) {
  const std::unique_ptr<shoal_transport> owned(transport);
  shoal_peer*& out = require(out_peer, "out_peer");
  out = nullptr;
  const shoal::PeerConfig cpp = to_cpp(require(config, "config"));
  shoal::Simulation& sim = require(simulation, what);
  require(transport, "transport");
  refuse_if_driving(*driving_peer, (std::string("the ") + what +
                                    " already drives a peer: expected one peer per " + what).c_str());
  if (callbacks != nullptr) callbacks->fix_body_count();
  try {
    auto peer = std::make_unique<shoal::Peer>(cpp, sim, std::move(owned->transport));
    out = new shoal_peer(std::move(peer), sim, *driving_peer, callbacks);
  } catch (...) {
    if (callbacks != nullptr) callbacks->release_body_count();
    throw;
  }
  return SHOAL_OK;
}

}  // namespace
}  // namespace shoal_c

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_peer_config_default(shoal_peer_config* config) {
  return guarded(__func__, [&] {
    require(config, "config") = shoal_c::to_c(shoal::PeerConfig{});
    return SHOAL_OK;
  });
}

int shoal_smoothing_rule_default(shoal_smoothing_rule* rule) {
  return guarded(__func__, [&] {
    require(rule, "rule") = shoal_c::to_c(shoal::SmoothingRule{});
    return SHOAL_OK;
  });
}

int shoal_peer_create_with_world(const shoal_peer_config* config, shoal_world* world,
                                 shoal_transport* transport, shoal_peer** out_peer) {
  return guarded(__func__, [&] {
    if (world == nullptr) {  // still takes the transport, as documented
      return shoal_c::create_peer(config, nullptr, nullptr, nullptr, "world", transport, out_peer);
    }
    return shoal_c::create_peer(config, &world->physics, &world->driving_peer, nullptr, "world",
                                transport, out_peer);
  });
}

int shoal_peer_create_with_simulation(const shoal_peer_config* config, shoal_simulation* simulation,
                                      shoal_transport* transport, shoal_peer** out_peer) {
  return guarded(__func__, [&] {
    if (simulation == nullptr) {
      return shoal_c::create_peer(config, nullptr, nullptr, nullptr, "simulation", transport, out_peer);
    }
    return shoal_c::create_peer(config, &simulation->simulation, &simulation->driving_peer,
                                &simulation->simulation, "simulation", transport, out_peer);
  });
}

int shoal_peer_destroy(shoal_peer* peer) {
  delete peer;  // cannot throw: Peer's destructor does not
  return SHOAL_OK;
}

int shoal_peer_host(shoal_peer* peer) {
  return guarded(__func__, [&] {
    require(peer, "peer").peer->host();
    return SHOAL_OK;
  });
}

int shoal_peer_record(shoal_peer* peer, const char* path, const uint8_t* world, size_t world_size) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    const char* file = &require(path, "path");
    if (world == nullptr && world_size > 0) {
      throw shoal_c::Error(SHOAL_ERROR_NULL_ARGUMENT, "world is NULL but world_size is " + std::to_string(world_size));
    }
    try {
      p.peer->record(file, {world, world == nullptr ? 0 : world_size});
    } catch (const std::logic_error&) {
      throw;
    } catch (const std::runtime_error& e) {  // the file, not the network
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, e.what());
    }
    return SHOAL_OK;
  });
}

int shoal_peer_join(shoal_peer* peer, const char* host, uint16_t port) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    p.peer->join(shoal::Address{&require(host, "host"), port});
    return SHOAL_OK;
  });
}

int shoal_peer_leave(shoal_peer* peer) {
  return guarded(__func__, [&] {
    require(peer, "peer").peer->leave();
    return SHOAL_OK;
  });
}

int shoal_peer_set_controlled(shoal_peer* peer, uint32_t object) {
  return guarded(
      __func__,
      [&] {
        require(peer, "peer").peer->set_controlled(object);
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_set_input(shoal_peer* peer, const shoal_input* input) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    const shoal::Input given = shoal_c::to_cpp(require(input, "input"));
    shoal::Input next = p.input;  // the game's bytes stay (shoal_peer_set_input_bytes)
    next.axis = given.axis;
    next.buttons = given.buttons;
    p.peer->set_input(next);
    p.input = next;
    return SHOAL_OK;
  });
}

int shoal_peer_update(shoal_peer* peer) {
  return guarded(__func__, [&] {
    require(peer, "peer").peer->update();
    return SHOAL_OK;
  });
}

int shoal_peer_update_at(shoal_peer* peer, int64_t now_us) {
  return guarded(__func__, [&] {
    require(peer, "peer").peer->update_at(now_us);
    return SHOAL_OK;
  });
}

int shoal_peer_wait(shoal_peer* peer, int32_t timeout_ms) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    p.peer->wait(shoal_c::require_timeout(timeout_ms));
    return SHOAL_OK;
  });
}

int shoal_peer_poll_event(shoal_peer* peer, shoal_event* out_event) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    shoal_event& out = require(out_event, "out_event");
    shoal::Event event;
    if (!p.peer->poll_event(event)) return 0;
    out = shoal_c::to_c(event);
    p.last_event_reason = std::move(event.reason);
    p.last_event_is_message = event.kind == shoal::EventKind::message;
    p.last_event_reliable = event.reliable;
    p.last_event_bytes = std::move(event.bytes);
    return 1;
  });
}

const char* shoal_peer_event_reason(const shoal_peer* peer) {
  return peer == nullptr ? "" : peer->last_event_reason.c_str();
}

int shoal_peer_set_conditions(shoal_peer* peer, const shoal_conditioner* conditions) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    p.peer->set_conditions(shoal_c::to_cpp(require(conditions, "conditions")));
    return SHOAL_OK;
  });
}

}  // extern "C"
