// SPDX-License-Identifier: MIT
#include "shoal/drop_reason.hpp"

namespace shoal {

std::string_view to_string(DropReason reason) {
  switch (reason) {
    case DropReason::bad_magic: return "bad_magic";
    case DropReason::unsupported_version: return "unsupported_version";
    case DropReason::unknown_kind: return "unknown_kind";
    case DropReason::truncated: return "truncated";
    case DropReason::oversize: return "oversize";
    case DropReason::malformed: return "malformed";
    case DropReason::stale: return "stale";
    case DropReason::not_owner: return "not_owner";
    case DropReason::no_token: return "no_token";
    case DropReason::bad_token: return "bad_token";
    case DropReason::token_expired: return "token_expired";
    case DropReason::wrong_session: return "wrong_session";
    case DropReason::forged: return "forged";
    case DropReason::replayed: return "replayed";
    case DropReason::bad_spawn: return "bad_spawn";
    case DropReason::over_limit: return "over_limit";
    case DropReason::revoked: return "revoked";
    case DropReason::invitation_used: return "invitation_used";
    case DropReason::count: break;
  }
  return "unknown";
}

}  // namespace shoal
