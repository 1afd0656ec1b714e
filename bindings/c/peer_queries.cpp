// SPDX-License-Identifier: MIT
// What a game reads back from a shoal_peer: match status, object states and owners, the
// address others reach it at, statistics.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_peer_in_match(const shoal_peer* peer, int32_t* out_in_match) {
  return guarded(__func__, [&] {
    int32_t& out = require(out_in_match, "out_in_match");
    out = require(peer, "peer").peer->in_match() ? 1 : 0;
    return SHOAL_OK;
  });
}

int shoal_peer_join_progress(const shoal_peer* peer, shoal_join_progress* out_progress) {
  return guarded(__func__, [&] {
    shoal_join_progress& out = require(out_progress, "out_progress");
    const shoal::JoinProgress p = require(peer, "peer").peer->join_progress();
    out.step = static_cast<int32_t>(p.step);
    out.done = p.done;
    out.needed = p.needed;
    out.elapsed_ms = p.elapsed_ms;
    return SHOAL_OK;
  });
}

int shoal_peer_id(const shoal_peer* peer, uint16_t* out_id) {
  return guarded(__func__, [&] {
    uint16_t& out = require(out_id, "out_id");
    out = require(peer, "peer").peer->id();
    return SHOAL_OK;
  });
}

int shoal_peer_frame(const shoal_peer* peer, int32_t* out_frame) {
  return guarded(__func__, [&] {
    int32_t& out = require(out_frame, "out_frame");
    out = require(peer, "peer").peer->frame();
    return SHOAL_OK;
  });
}

int shoal_peer_peers(const shoal_peer* peer, uint16_t* out_ids, uint32_t capacity, uint32_t* out_count) {
  return guarded(__func__, [&] {
    uint32_t& count = require(out_count, "out_count");
    const shoal_peer& p = require(peer, "peer");
    if (capacity > 0) require(out_ids, "out_ids (with a capacity above 0)");
    const std::vector<shoal::PeerId> ids = p.peer->peers();
    std::copy_n(ids.begin(), std::min<std::size_t>(ids.size(), capacity), out_ids);
    count = static_cast<uint32_t>(ids.size());
    return SHOAL_OK;
  });
}

int shoal_peer_state(const shoal_peer* peer, uint32_t object, shoal_object_state* out_state) {
  return guarded(
      __func__,
      [&] {
        shoal_object_state& out = require(out_state, "out_state");
        out = shoal_c::to_c(require(peer, "peer").peer->state(object));
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_state_at(const shoal_peer* peer, uint32_t object, int32_t frame,
                        shoal_object_state* out_state) {
  return guarded(
      __func__,
      [&] {
        shoal_object_state& out = require(out_state, "out_state");
        const std::optional<shoal::ObjectState> state = require(peer, "peer").peer->state_at(object, frame);
        if (!state) {
          throw shoal_c::Error(SHOAL_ERROR_FRAME_NOT_HELD,
                               "frame " + std::to_string(frame) +
                                   " is not in the history: expected one of the last history_frames "
                                   "frames up to shoal_peer_frame");
        }
        out = shoal_c::to_c(*state);
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_visual(const shoal_peer* peer, uint32_t object, shoal_visual_state* out_visual) {
  return guarded(
      __func__,
      [&] {
        shoal_visual_state& out = require(out_visual, "out_visual");
        out = shoal_c::to_c(require(peer, "peer").peer->visual(object));
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_visuals(const shoal_peer* peer, shoal_visual_state* out_visuals, uint32_t capacity,
                       uint32_t* out_count) {
  return guarded(__func__, [&] {
    uint32_t& count = require(out_count, "out_count");
    const shoal_peer& p = require(peer, "peer");
    if (capacity > 0) require(out_visuals, "out_visuals (with a capacity above 0)");
    const std::size_t bodies = p.simulation->body_count();
    p.visuals.resize(std::min<std::size_t>(bodies, capacity));
    p.peer->visuals(p.visuals);
    for (std::size_t i = 0; i < p.visuals.size(); ++i) out_visuals[i] = shoal_c::to_c(p.visuals[i]);
    count = static_cast<uint32_t>(bodies);
    return SHOAL_OK;
  });
}

int shoal_peer_objects(const shoal_peer* peer, uint32_t* out_ids, uint32_t capacity, uint32_t* out_count) {
  return guarded(__func__, [&] {
    uint32_t& count = require(out_count, "out_count");
    const shoal_peer& p = require(peer, "peer");
    if (capacity > 0) require(out_ids, "out_ids (with a capacity above 0)");
    const std::size_t bodies = p.simulation->body_count();
    for (std::size_t b = 0; b < bodies && b < capacity; ++b) out_ids[b] = p.simulation->body_id(static_cast<shoal::BodyIndex>(b));
    count = static_cast<uint32_t>(bodies);
    return SHOAL_OK;
  });
}

int shoal_peer_owner(const shoal_peer* peer, uint32_t object, uint16_t* out_owner) {
  return guarded(
      __func__,
      [&] {
        uint16_t& out = require(out_owner, "out_owner");
        out = require(peer, "peer").peer->owner(object);
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_diagnose(const shoal_peer* peer, uint32_t object, int32_t frame, shoal_object_diagnosis* out_diagnosis) {
  return guarded(
      __func__,
      [&] {
        shoal_object_diagnosis& out = require(out_diagnosis, "out_diagnosis");
        out = shoal_c::to_c(require(peer, "peer").peer->diagnose(object, frame));
        return SHOAL_OK;
      },
      SHOAL_ERROR_UNKNOWN_OBJECT);
}

int shoal_peer_address(const shoal_peer* peer, shoal_address* out_address) {
  return guarded(__func__, [&] {
    shoal_address& out = require(out_address, "out_address");
    out = shoal_c::to_c(require(peer, "peer").peer->address(), "the peer's host");
    return SHOAL_OK;
  });
}

int shoal_peer_stats(const shoal_peer* peer, shoal_stats* out_stats) {
  return guarded(__func__, [&] {
    shoal_stats& out = require(out_stats, "out_stats");
    out = shoal_c::to_c(require(peer, "peer").peer->stats());
    return SHOAL_OK;
  });
}

int shoal_peer_game_stats(const shoal_peer* peer, shoal_game_stats* out_stats) {
  return guarded(__func__, [&] {
    shoal_game_stats& out = require(out_stats, "out_stats");
    const shoal::PeerStats stats = require(peer, "peer").peer->stats();
    out = shoal_game_stats{stats.objects_spawned,   stats.objects_removed,   stats.messages_sent,
                           stats.messages_received, stats.messages_queued,   stats.rest_repairs_requested,
                           stats.pace};
    return SHOAL_OK;
  });
}

int shoal_peer_drops(const shoal_peer* peer, uint64_t* out_counts, uint32_t count) {
  return guarded(__func__, [&] {
    const shoal_peer& p = require(peer, "peer");
    if (count > 0) require(out_counts, "out_counts (with a count above 0)");
    const shoal::DropCounters dropped = p.peer->stats().dropped;
    for (uint32_t r = 0; r < count; ++r) out_counts[r] = r < dropped.counts.size() ? dropped.counts[r] : 0;
    return SHOAL_OK;
  });
}

int shoal_peer_remote_stats(const shoal_peer* peer, uint32_t index, shoal_remote_stats* out_stats) {
  return guarded(__func__, [&] {
    shoal_remote_stats& out = require(out_stats, "out_stats");
    const shoal::PeerStats stats = require(peer, "peer").peer->stats();
    if (index >= stats.remotes.size()) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT,
                           "remote index " + std::to_string(index) +
                               " is out of range: expected less than shoal_stats.remote_count, which is " +
                               std::to_string(stats.remotes.size()));
    }
    out = shoal_c::to_c(stats.remotes[index]);
    return SHOAL_OK;
  });
}

}  // extern "C"
