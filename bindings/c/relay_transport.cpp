// SPDX-License-Identifier: MIT
// Transports through a relay from C: relay-only and hybrid (direct where possible).
#include <algorithm>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"
#include "shoal/relay.hpp"

using shoal_c::guarded;
using shoal_c::require;

// File-local overloads of convert.hpp's to_cpp/to_c (static, and in shoal_c itself so that
// qualified calls find them beside the others).
namespace shoal_c {

static shoal::RelayClientConfig to_cpp(const shoal_relay_config& c) {
  require_sized(&c, "config", "shoal_relay_config");
  shoal::RelayClientConfig r;
  r.relay = to_cpp(c.relay, "shoal_relay_config.relay.host");
  r.session = from_c_array(c.session, "shoal_relay_config.session");
  r.code = from_c_array(c.code, "shoal_relay_config.code");
  r.token = from_c_array(c.token, "shoal_relay_config.token");
  r.slot = c.slot;
  r.local = shoal_c::to_cpp(c.local);
  r.resume_timeout_ms = c.resume_timeout_ms;
  r.relay_timeout_ms = c.relay_timeout_ms;
  return r;
}

static shoal_relay_config to_c(const shoal::RelayClientConfig& r) {
  shoal_relay_config c{};
  c.struct_size = sizeof c;
  c.relay = to_c(r.relay, "shoal::RelayClientConfig::relay");
  to_c_array(r.session, c.session, "shoal::RelayClientConfig::session");
  to_c_array(r.code, c.code, "shoal::RelayClientConfig::code");
  to_c_array(r.token, c.token, "shoal::RelayClientConfig::token");
  c.slot = r.slot;
  c.local = shoal_c::to_c(r.local);
  c.resume_timeout_ms = r.resume_timeout_ms;
  c.relay_timeout_ms = r.relay_timeout_ms;
  return c;
}

}  // namespace shoal_c

extern "C" {

int shoal_relay_config_default(shoal_relay_config* config) {
  return guarded(__func__, [&] {
    require(config, "config") = shoal_c::to_c(shoal::RelayClientConfig{});
    return SHOAL_OK;
  });
}

int shoal_transport_create_relay(const shoal_relay_config* config, shoal_transport** out_transport) {
  return guarded(__func__, [&] {
    shoal_transport*& out = require(out_transport, "out_transport");
    out = nullptr;
    const shoal::RelayClientConfig cpp = shoal_c::to_cpp(require(config, "config"));
    out = new shoal_transport{shoal::make_relay_transport(cpp)};
    return SHOAL_OK;
  });
}

int shoal_relay_session_code(const char* session, char out_code[SHOAL_RELAY_ID_CAPACITY]) {
  return guarded(__func__, [&] {
    const std::string code = shoal::relay_session_code(&require(session, "session"));
    char* out = &require(out_code, "out_code");  // the array decays: SHOAL_RELAY_ID_CAPACITY bytes
    static_assert(SHOAL_RELAY_ID_CAPACITY > 6, "codes are 6 characters");
    code.copy(out, SHOAL_RELAY_ID_CAPACITY - 1);
    out[std::min<std::size_t>(code.size(), SHOAL_RELAY_ID_CAPACITY - 1)] = '\0';
    return SHOAL_OK;
  });
}

int shoal_relay_list_sessions(const shoal_address* relay, int32_t timeout_ms, shoal_relay_session* out_sessions,
                              uint32_t capacity, uint32_t* out_count) {
  return guarded(__func__, [&] {
    std::uint32_t& count = require(out_count, "out_count");
    count = 0;
    if (capacity > 0) require(out_sessions, "out_sessions");
    const std::vector<shoal::RelaySessionInfo> sessions = shoal::list_relay_sessions(
        shoal_c::to_cpp(require(relay, "relay"), "relay.host"), timeout_ms);
    for (std::size_t i = 0; i < sessions.size() && i < capacity; ++i) {
      shoal_relay_session& out = out_sessions[i];
      out = shoal_relay_session{};
      shoal_c::to_c_array(sessions[i].session, out.session, "a relay's session id");
      shoal_c::to_c_array(sessions[i].code, out.code, "a relay's session code");
      out.members = static_cast<std::uint32_t>(sessions[i].members);
    }
    count = static_cast<std::uint32_t>(sessions.size());
    return SHOAL_OK;
  });
}

int shoal_hybrid_config_default(shoal_hybrid_config* config) {
  return guarded(__func__, [&] {
    const shoal::HybridConfig defaults;
    shoal_hybrid_config& c = require(config, "config");
    c = shoal_hybrid_config{};
    c.struct_size = sizeof c;
    c.relay = shoal_c::to_c(defaults.relay);
    c.direct = shoal_c::to_c(defaults.direct);
    c.direct_timeout_ms = defaults.direct_timeout_ms;
    c.direct_retry_ms = defaults.direct_retry_ms;
    return SHOAL_OK;
  });
}

int shoal_transport_create_hybrid(const shoal_hybrid_config* config, shoal_transport** out_transport) {
  return guarded(__func__, [&] {
    shoal_transport*& out = require(out_transport, "out_transport");
    out = nullptr;
    const shoal_hybrid_config& c = shoal_c::require_sized(config, "config", "shoal_hybrid_config");
    shoal::HybridConfig cpp;
    // The relay link shares the direct socket, secured by `direct`: relay.local is unused, so
    // its security settings (credentials or the clear) are not asked for.
    shoal_relay_config relay = c.relay;
    relay.local.insecure = 1;
    cpp.relay = shoal_c::to_cpp(relay);
    cpp.direct = shoal_c::to_cpp(c.direct);
    cpp.direct_timeout_ms = c.direct_timeout_ms;
    cpp.direct_retry_ms = c.direct_retry_ms;
    out = new shoal_transport{shoal::make_hybrid_transport(cpp)};
    return SHOAL_OK;
  });
}

int shoal_hybrid_address(const shoal_address* direct, uint16_t relay_slot, shoal_address* out_address) {
  return guarded(__func__, [&] {
    shoal_address& out = require(out_address, "out_address");
    const shoal::Address address =
        shoal::hybrid_address(shoal_c::to_cpp(require(direct, "direct"), "direct.host"), relay_slot);
    out = shoal_c::to_c(address, "the hybrid address");
    return SHOAL_OK;
  });
}

}  // extern "C"
