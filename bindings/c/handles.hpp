// SPDX-License-Identifier: MIT
// What the opaque handles of shoal.h are: small structs around the C++ objects, plus the
// bookkeeping that turns the C++ API's lifetime rules into errors instead of dangling pointers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "callback_simulation.hpp"
#include "shoal/lan_discovery.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "shoal/shoal.h"
#include "shoal/transport.hpp"

// A world or simulation drives at most one peer (two peers stepping one world would each see
// the other's frames), and it must outlive that peer: `driving_peer` enforces both.
struct shoal_world {
  explicit shoal_world(const shoal::ReferencePhysicsConfig& config) : physics(config) {}
  shoal::ReferencePhysics physics;
  bool driving_peer = false;
};

struct shoal_simulation {
  explicit shoal_simulation(const shoal_simulation_callbacks& callbacks) : simulation(callbacks) {}
  shoal_c::CallbackSimulation simulation;
  bool driving_peer = false;
};

struct shoal_transport {
  std::unique_ptr<shoal::Transport> transport;
};

struct shoal_memory_network {
  explicit shoal_memory_network(std::uint64_t seed) : network(seed) {}
  shoal::MemoryNetwork network;
};

// LAN discovery: the member has one name in both, so that one template serves their stats.
struct shoal_lan_announcer {
  shoal::LanAnnouncer lan;
};

struct shoal_lan_seeker {
  shoal::LanSeeker lan;
};

struct shoal_peer {
  shoal_peer(std::unique_ptr<shoal::Peer> p, const shoal::Simulation& s, bool& driving, shoal_c::CallbackSimulation* c)
      : peer(std::move(p)), simulation(&s), driving_flag(&driving), callbacks(c) {
    driving = true;
  }
  ~shoal_peer() {
    peer.reset();  // the peer first: it may still touch its simulation while going
    *driving_flag = false;
    if (callbacks != nullptr) callbacks->release_body_count();
  }
  shoal_peer(const shoal_peer&) = delete;
  shoal_peer& operator=(const shoal_peer&) = delete;

  std::unique_ptr<shoal::Peer> peer;
  const shoal::Simulation* simulation;        // its bodies' ids, for shoal_peer_objects
  mutable std::vector<shoal::VisualState> visuals;  // shoal_peer_visuals' scratch, reused: no allocation per frame
  bool* driving_flag;                         // the world's or simulation's driving_peer
  shoal_c::CallbackSimulation* callbacks;     // the game's simulation, NULL on a world
  std::string last_event_reason;              // the last polled event's, for shoal_peer_event_reason
  bool last_event_is_message = false;         // ... and for shoal_peer_event_message
  bool last_event_reliable = false;
  std::vector<std::uint8_t> last_event_bytes;
  shoal::Input input;                         // the input set so far: axis and buttons, and the game's bytes
};

namespace shoal_c {

/// Throws Error(SHOAL_ERROR_INVALID_STATE, message) when a world or simulation drives a peer.
void refuse_if_driving(bool driving_peer, const char* message);

}  // namespace shoal_c
