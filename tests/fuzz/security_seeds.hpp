// SPDX-License-Identifier: MIT
// The seeds of the security layer's targets (hello, credentials, envelope, audit_disclosure),
// from the seed match (record_seeds.cpp), which runs secured with the fuzz session's keys
// (fuzz_keys.hpp): the hellos its links really opened with, as they crossed the network, and its
// real messages sealed again with the fuzz link's keys (the match's own link keys are drawn at
// random, and only a target that knows the keys reaches past an envelope).
#pragma once

#include <vector>

#include "seed_traffic.hpp"

namespace shoal::fuzz {

/// `clear`: what the peers' security layers handed up; `sealed`: what crossed the network.
NamedSeeds security_seeds(const std::vector<TappedMessage>& clear, const std::vector<TappedMessage>& sealed);

}  // namespace shoal::fuzz
