// SPDX-License-Identifier: MIT
#include "security/secured_transport.hpp"
#include "shoal/security.hpp"

namespace shoal {

std::unique_ptr<Transport> make_secure_transport(std::unique_ptr<Transport> inner, const SecurityConfig& security) {
  if (!security.enabled) return inner;
  return std::make_unique<security::SecuredTransport<Transport>>(std::move(inner), security);
}

}  // namespace shoal
