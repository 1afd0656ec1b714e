// SPDX-License-Identifier: MIT
// Secured links from C: session authorities, their credentials as text, and securing a transport.
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "boundary.hpp"
#include "handles.hpp"
#include "shoal/security.hpp"

using shoal_c::guarded;
using shoal_c::require;

struct shoal_authority {
  explicit shoal_authority(std::string session) : authority(std::move(session)) {}
  shoal::SessionAuthority authority;
};

extern "C" {

int shoal_authority_create(const char* session, shoal_authority** out_authority) {
  return guarded(__func__, [&] {
    shoal_authority*& out = require(out_authority, "out_authority");
    out = nullptr;
    require(session, "session");
    out = new shoal_authority(session);
    return SHOAL_OK;
  });
}

int shoal_authority_destroy(shoal_authority* authority) {
  delete authority;  // cannot throw
  return SHOAL_OK;
}

int shoal_authority_invite(const shoal_authority* authority, int64_t validity_s,
                           char out_credentials[SHOAL_CREDENTIALS_CAPACITY]) {
  return guarded(__func__, [&] {
    const shoal_authority& a = require(authority, "authority");
    require(out_credentials, "out_credentials");
    if (validity_s <= 0) throw std::invalid_argument("validity_s is " + std::to_string(validity_s) + ": expected > 0");
    const std::string text = a.authority.invite(std::chrono::seconds(validity_s)).to_text();
    if (text.size() >= SHOAL_CREDENTIALS_CAPACITY) throw std::logic_error("credentials outgrew SHOAL_CREDENTIALS_CAPACITY");
    std::memcpy(out_credentials, text.c_str(), text.size() + 1);
    return SHOAL_OK;
  });
}

int shoal_transport_secure(shoal_transport* transport, const char* credentials, uint32_t token_grace_ms) {
  return guarded(__func__, [&] {
    shoal_transport& t = require(transport, "transport");
    require(credentials, "credentials");
    const auto parsed = shoal::Credentials::from_text(credentials);
    if (!parsed) throw std::invalid_argument("credentials are not well-formed (from shoal_authority_invite)");
    // Checked here, before the transport moves into make_secure_transport: a refusal there
    // would destroy it, and the caller still owns the handle.
    if (token_grace_ms > 60'000) {
      throw std::invalid_argument("token_grace_ms is " + std::to_string(token_grace_ms) + ": expected 0..60000");
    }
    shoal::SecurityConfig security;
    security.credentials = *parsed;
    if (token_grace_ms != 0) security.token_grace_ms = token_grace_ms;
    t.transport = shoal::make_secure_transport(std::move(t.transport), security);
    return SHOAL_OK;
  });
}

}  // extern "C"
