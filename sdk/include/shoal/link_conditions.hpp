// SPDX-License-Identifier: MIT
// Settings of the seeded link conditioner: the bad network Shoal simulates on demand.
#pragma once

#include <cstdint>

namespace shoal {

/// Impairments applied to one direction of a link. Fractions are 0..1.
struct LinkConditions {
  float latency_ms = 0;  ///< one-way delay added to every datagram
  float jitter_ms = 0;     ///< uniform +- around latency
  float loss = 0;          ///< fraction of datagrams dropped
  float duplicate = 0;     ///< fraction of datagrams delivered twice
  float reorder = 0;       ///< fraction of datagrams held back behind later ones
  std::uint64_t bandwidth_bytes_per_s = 0;  ///< 0 = unlimited
  std::uint32_t queue_limit_bytes = 64 * 1024;  ///< over the cap, the queue drops past this

  bool operator==(const LinkConditions&) const = default;  ///< compares every field
};

/// The simulated network of one endpoint, both directions (a transport's conditioner).
struct ConditionerConfig {
  LinkConditions outbound;  ///< what this endpoint sends
  LinkConditions inbound;   ///< what this endpoint receives
  std::uint64_t seed = 1;   ///< the same seed replays the same impairments

  bool operator==(const ConditionerConfig&) const = default;  ///< compares every field
};

}  // namespace shoal
