// Transports through a relay from C: relay-only and hybrid (direct where possible).
#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"
#include "shoal/relay.hpp"

using shoal_c::guarded;
using shoal_c::require;

// File-local overloads of convert.hpp's to_cpp/to_c (static, and in shoal_c itself so that
// qualified calls find them beside the others).
namespace shoal_c {

static shoal::Address to_cpp(const shoal_address& a, const char* field) {
  return {from_c_array(a.host, field), a.port};
}

static shoal_address to_c(const shoal::Address& a, const char* field) {
  shoal_address c{};
  to_c_array(a.host, c.host, field);
  c.port = a.port;
  return c;
}

static shoal::RelayClientConfig to_cpp(const shoal_relay_config& c) {
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

int shoal_hybrid_config_default(shoal_hybrid_config* config) {
  return guarded(__func__, [&] {
    const shoal::HybridConfig defaults;
    shoal_hybrid_config& c = require(config, "config");
    c = shoal_hybrid_config{};
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
    const shoal_hybrid_config& c = require(config, "config");
    shoal::HybridConfig cpp;
    cpp.relay = shoal_c::to_cpp(c.relay);
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
