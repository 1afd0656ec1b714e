// SPDX-License-Identifier: MIT
// Which Shoal this is: the library's version, and the versions of the two protocols it speaks.
// Two builds play together when their wire versions and snapshot encodings match (checked at
// join: a mismatch is refused with a message naming both sides); the library version says
// which API the game was written against (semantic versioning, CHANGELOG.md).
#pragma once

#include <string>
#include <string_view>

namespace shoal {

/// The library's version, "MAJOR.MINOR.PATCH": the CMake project version, shoal_version() in C
/// and the pkg-config version are this same number.
std::string_view version();

/// The version of the peer-to-peer wire protocol (sdk/src/wire/SPEC.md). Peers refuse to
/// play with a peer of another wire version.
int wire_version();

/// The version of the relay protocol (sdk/src/transport/RELAY_SPEC.md). A relay client and a
/// relay of different versions refuse each other.
int relay_protocol_version();

/// What every Shoal program prints for `--version`: "PROGRAM VERSION (wire W, relay R)".
std::string version_line(std::string_view program);

/// For a program's main(): when its only argument is `--version`, prints version_line(program)
/// to stdout and returns true (the program then exits with 0).
bool print_version_if_asked(int argc, const char* const* argv, std::string_view program);

}  // namespace shoal
