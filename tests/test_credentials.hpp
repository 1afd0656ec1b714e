// SPDX-License-Identifier: MIT
// Credentials for the tests: one session authority per test process, so every transport a test
// makes can meet every other one with security on, as it is by default.
#pragma once

#include <string>

#include "shoal/relay.hpp"
#include "shoal/security.hpp"
#include "shoal/transport.hpp"

namespace shoal::test {

inline const SessionAuthority& test_authority() {
  static const SessionAuthority authority("shoal-tests");
  return authority;
}

/// Fresh credentials of the tests' session.
inline Credentials test_credentials() { return test_authority().invite(); }

/// `config` with the tests' credentials, unless it turns security off or has its own.
inline TransportConfig secured(TransportConfig config = {}) {
  if (config.security.enabled && config.security.credentials.empty()) config.security.credentials = test_credentials();
  return config;
}

}  // namespace shoal::test
