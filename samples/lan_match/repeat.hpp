// SPDX-License-Identifier: MIT
// `shoal-lan-match --repeat N`: N matches one after another, the seed advancing by one each time,
// a line per match and a summary (failure rate, join times). A failure that depends on timing
// shows as a rate; with --record, the recordings of each failing match are kept to replay.
#pragma once

#include "options.hpp"

namespace lan_match {

/// Runs options.repeat matches from options.seed on; returns 0 only if every one was consistent.
int run_repeated(const Options& options, const char* self_path);

/// One match, printed in full; with --record its recordings go to options.record_dir.
int run_single(const Options& options, const char* self_path);

}  // namespace lan_match
