// SPDX-License-Identifier: MIT
// `shoal-lan-match --peer`: one peer of a match, in its own process with its own ENet host.
// It hosts (announcing the session on the LAN) or finds the host by LAN discovery and joins,
// lets its bot play, and writes its progress and its states to stdout (peer_report.hpp).
#pragma once

#include "options.hpp"

namespace lan_match {

/// Returns the process exit code: 0 when the peer played to the comparison frame and reported.
int run_peer(const Options& options);

}  // namespace lan_match
