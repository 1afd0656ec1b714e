// SPDX-License-Identifier: MIT
// libsodium must be initialised once per process before any other call; every entry point of
// the security layer calls this first.
#pragma once

namespace shoal::security {

/// Initialises libsodium once (thread-safe); throws std::runtime_error when it cannot.
void ensure_sodium();

}  // namespace shoal::security
