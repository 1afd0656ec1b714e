// SPDX-License-Identifier: MIT
#include "security/sodium.hpp"

#include <sodium.h>

#include <stdexcept>

namespace shoal::security {

void ensure_sodium() {
  // sodium_init is itself safe to call repeatedly and from several threads; a static makes
  // the check once.
  static const int result = sodium_init();
  if (result < 0) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace shoal::security
