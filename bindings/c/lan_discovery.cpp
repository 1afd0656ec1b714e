// SPDX-License-Identifier: MIT
// LAN discovery from C: a host's announcer and a joiner's seeker (shoal/lan_discovery.hpp).
#include <optional>
#include <string>
#include <string_view>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"
#include "shoal/lan_discovery.hpp"

using shoal_c::guarded;
using shoal_c::require;

static_assert(SHOAL_LAN_SESSION_CAPACITY == shoal::kMaxSessionNameLength + 1,
              "a found session name always fits, NUL included");
static_assert(SHOAL_HOST_CAPACITY > shoal::kMaxAnnouncedHostLength, "a found host always fits");

// File-local overloads of convert.hpp's to_cpp/to_c, as in relay_transport.cpp.
namespace shoal_c {

static shoal::LanDiscoveryConfig to_cpp(const shoal_lan_config& c) {
  require_sized(&c, "config", "shoal_lan_config");
  shoal::LanDiscoveryConfig l;
  l.port = c.port;
  l.announce_interval_ms = c.announce_interval_ms;
  l.loopback_only = c.loopback_only != 0;
  return l;
}

static shoal_lan_config to_c(const shoal::LanDiscoveryConfig& l) {
  shoal_lan_config c{};
  c.struct_size = sizeof c;
  c.port = l.port;
  c.announce_interval_ms = l.announce_interval_ms;
  c.loopback_only = l.loopback_only ? 1 : 0;
  return c;
}

static shoal_lan_stats to_c(const shoal::LanDiscoveryStats& s) {
  shoal_lan_stats c{};
  c.sent = s.sent;
  c.received = s.received;
  c.other_sessions = s.other_sessions;
  c.dropped = s.dropped.total();
  return c;
}

}  // namespace shoal_c

namespace {

// The name a seeker looks for. One no announcement can carry would never be found: refused,
// so that a typo is a message rather than a silent wait.
std::string_view sought_session(const char* session) {
  const std::string_view name = &require(session, "session");
  if (name.empty() || name.size() > shoal::kMaxSessionNameLength) {
    throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT,
                         "session is " + std::to_string(name.size()) + " bytes: expected 1.." +
                             std::to_string(shoal::kMaxSessionNameLength) + ", as announced session names are");
  }
  return name;
}

// What poll and find report: *out_found, and the session when there is one (else zeroes).
int report(const std::optional<shoal::LanSession>& found, shoal_lan_session& out_session, int32_t& out_found) {
  shoal_lan_session c{};
  if (found) {
    shoal_c::to_c_array(found->session, c.session, "the announced session name");
    c.address = shoal_c::to_c(found->address, "the announced host");
    c.protocol_version = found->protocol_version;
  }
  out_session = c;
  out_found = found ? 1 : 0;
  return SHOAL_OK;
}

// The counters of an announcer or a seeker.
template <class Handle>
int lan_stats(const char* function, const Handle* handle, const char* name, shoal_lan_stats* out_stats) {
  return guarded(function, [&] {
    shoal_lan_stats& out = require(out_stats, "out_stats");
    out = shoal_c::to_c(require(handle, name).lan.stats());
    return SHOAL_OK;
  });
}

}  // namespace

extern "C" {

int shoal_lan_config_default(shoal_lan_config* config) {
  return guarded(__func__, [&] {
    require(config, "config") = shoal_c::to_c(shoal::LanDiscoveryConfig{});
    return SHOAL_OK;
  });
}

int shoal_lan_announcer_create(const shoal_lan_config* config, const char* session, const shoal_address* address,
                               shoal_lan_announcer** out_announcer) {
  return guarded(__func__, [&] {
    shoal_lan_announcer*& out = require(out_announcer, "out_announcer");
    out = nullptr;
    const shoal::LanDiscoveryConfig cpp = shoal_c::to_cpp(require(config, "config"));
    const std::string_view name = &require(session, "session");
    const shoal::Address where = shoal_c::to_cpp(require(address, "address"), "address.host");
    out = new shoal_lan_announcer{shoal::LanAnnouncer(cpp, name, where)};
    return SHOAL_OK;
  });
}

int shoal_lan_announcer_update(shoal_lan_announcer* announcer) {
  return guarded(__func__, [&] {
    require(announcer, "announcer").lan.update();
    return SHOAL_OK;
  });
}

int shoal_lan_announcer_stats(const shoal_lan_announcer* announcer, shoal_lan_stats* out_stats) {
  return lan_stats(__func__, announcer, "announcer", out_stats);
}

int shoal_lan_announcer_destroy(shoal_lan_announcer* announcer) {
  delete announcer;  // cannot throw: closing a socket does not
  return SHOAL_OK;
}

int shoal_lan_seeker_create(const shoal_lan_config* config, shoal_lan_seeker** out_seeker) {
  return guarded(__func__, [&] {
    shoal_lan_seeker*& out = require(out_seeker, "out_seeker");
    out = nullptr;
    const shoal::LanDiscoveryConfig cpp = shoal_c::to_cpp(require(config, "config"));
    out = new shoal_lan_seeker{shoal::LanSeeker(cpp)};
    return SHOAL_OK;
  });
}

int shoal_lan_seeker_poll(shoal_lan_seeker* seeker, const char* session, shoal_lan_session* out_session,
                          int32_t* out_found) {
  return guarded(__func__, [&] {
    int32_t& found = require(out_found, "out_found");
    found = 0;
    shoal_lan_session& out = require(out_session, "out_session");
    shoal_lan_seeker& s = require(seeker, "seeker");
    return report(s.lan.poll(sought_session(session)), out, found);
  });
}

int shoal_lan_seeker_find(shoal_lan_seeker* seeker, const char* session, int32_t timeout_ms,
                          shoal_lan_session* out_session, int32_t* out_found) {
  return guarded(__func__, [&] {
    int32_t& found = require(out_found, "out_found");
    found = 0;
    shoal_lan_session& out = require(out_session, "out_session");
    shoal_lan_seeker& s = require(seeker, "seeker");
    const std::string_view name = sought_session(session);
    return report(s.lan.find(name, shoal_c::require_timeout(timeout_ms)), out, found);
  });
}

int shoal_lan_seeker_stats(const shoal_lan_seeker* seeker, shoal_lan_stats* out_stats) {
  return lan_stats(__func__, seeker, "seeker", out_stats);
}

int shoal_lan_seeker_destroy(shoal_lan_seeker* seeker) {
  delete seeker;  // cannot throw: closing a socket does not
  return SHOAL_OK;
}

}  // extern "C"
