// SPDX-License-Identifier: MIT
// Objects spawned during play from C (since version 12): spawn, remove, the live set, a live
// object's spawn bytes; the game's own input bytes; the reference physics' spawn shapes and
// slots.
#include <algorithm>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

using shoal_c::guarded;
using shoal_c::require;

static_assert(SHOAL_MAX_SPAWN_BYTES == shoal::kMaxSpawnBytes);
static_assert(SHOAL_MAX_INPUT_BYTES == shoal::kMaxInputBytes);

namespace {

// `size` bytes at `bytes`, which may be NULL only when size is 0.
std::span<const std::uint8_t> byte_span(const uint8_t* bytes, uint32_t size, const char* name) {
  if (size == 0) return {};
  return {&require(bytes, name), size};
}

constexpr const char* kShapeWhileDriving =
    "the world already drives a peer: expected spawn shapes and slots before creating the peer";

}  // namespace

extern "C" {

int shoal_world_set_spawn_sphere(shoal_world* world, uint16_t type, float radius, float mass) {
  return guarded(__func__, [&] {
    shoal_world& w = require(world, "world");
    shoal_c::refuse_if_driving(w.driving_peer, kShapeWhileDriving);
    w.physics.set_spawn_sphere(type, radius, mass);
    return SHOAL_OK;
  });
}

int shoal_world_set_spawn_box(shoal_world* world, uint16_t type, float half_x, float half_y, float half_z,
                              float mass) {
  return guarded(__func__, [&] {
    shoal_world& w = require(world, "world");
    shoal_c::refuse_if_driving(w.driving_peer, kShapeWhileDriving);
    w.physics.set_spawn_box(type, {half_x, half_y, half_z}, mass);
    return SHOAL_OK;
  });
}

int shoal_world_add_spawn_slots(shoal_world* world, uint32_t count) {
  return guarded(__func__, [&] {
    shoal_world& w = require(world, "world");
    shoal_c::refuse_if_driving(w.driving_peer, kShapeWhileDriving);
    w.physics.add_spawn_slots(count);
    return SHOAL_OK;
  });
}

int shoal_peer_set_input_bytes(shoal_peer* peer, const uint8_t* bytes, uint32_t size) {
  return guarded(__func__, [&] {
    shoal_peer& p = require(peer, "peer");
    if (size > SHOAL_MAX_INPUT_BYTES) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, "size is " + std::to_string(size) +
                                                             ": expected at most input_bytes of the config (" +
                                                             std::to_string(SHOAL_MAX_INPUT_BYTES) + " at most)");
    }
    const std::span<const std::uint8_t> given = byte_span(bytes, size, "bytes (with a size above 0)");
    shoal::Input next = p.input;
    next.bytes = {};
    std::ranges::copy(given, next.bytes.begin());
    p.peer->set_input(next);  // throws past SnapshotConfig::input_bytes
    p.input = next;
    return SHOAL_OK;
  });
}

int shoal_peer_spawn(shoal_peer* peer, uint16_t type, const shoal_object_state* state, const uint8_t* bytes,
                     uint32_t size, uint32_t* out_object) {
  return guarded(__func__, [&] {
    uint32_t& out = require(out_object, "out_object");
    shoal_peer& p = require(peer, "peer");
    const shoal::ObjectState s = shoal_c::to_cpp(require(state, "state"));
    const std::span<const std::uint8_t> given = byte_span(bytes, size, "bytes (with a size above 0)");
    try {
      out = p.peer->spawn(type, s, given);
    } catch (const std::runtime_error& e) {  // past a limit: not now, no network matter
      throw shoal_c::Error(SHOAL_ERROR_INVALID_STATE, e.what());
    }
    return SHOAL_OK;
  });
}

int shoal_peer_remove(shoal_peer* peer, uint32_t object) {
  return guarded(
      __func__,
      [&] {
        require(peer, "peer").peer->remove(object);
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_spawned_objects(const shoal_peer* peer, uint32_t* out_ids, uint32_t capacity, uint32_t* out_count) {
  return guarded(__func__, [&] {
    uint32_t& count = require(out_count, "out_count");
    const shoal_peer& p = require(peer, "peer");
    if (capacity > 0) require(out_ids, "out_ids (with a capacity above 0)");
    const std::vector<shoal::ObjectId> ids = p.peer->spawned_objects();
    std::copy_n(ids.begin(), std::min<std::size_t>(ids.size(), capacity), out_ids);
    count = static_cast<uint32_t>(ids.size());
    return SHOAL_OK;
  });
}

int shoal_peer_spawned_object(const shoal_peer* peer, uint32_t object, shoal_spawned_object* out_object) {
  return guarded(__func__, [&] {
    shoal_spawned_object& out = require(out_object, "out_object");
    const std::optional<shoal::SpawnedObject> o = require(peer, "peer").peer->spawned_object(object);
    if (!o) {
      throw shoal_c::Error(SHOAL_ERROR_UNKNOWN_OBJECT,
                           "object " + std::to_string(object) + " is no live spawned object: expected an id of "
                                                                "shoal_peer_spawned_objects");
    }
    out = shoal_spawned_object{};
    out.object = o->id;
    out.type = o->type;
    out.spawner = o->spawner;
    out.owner = o->owner;
    out.frame = o->frame;
    out.byte_count = o->byte_count;
    std::ranges::copy(o->spawn_bytes(), out.bytes);
    return SHOAL_OK;
  });
}

}  // extern "C"
