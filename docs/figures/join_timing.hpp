// SPDX-License-Identifier: MIT
// How long each step of a real join takes on loopback, directly over ENet and through an
// in-process relay: the relay guide's figure.
#pragma once

#include <array>
#include <cstdint>

namespace figures {

/// Milliseconds at which the joiner entered each step: connecting, meshing, syncing,
/// baselines, joined (-1: never reached within the bound).
using StepTimes = std::array<double, 5>;

StepTimes time_direct_join();
StepTimes time_relayed_join();

}  // namespace figures
