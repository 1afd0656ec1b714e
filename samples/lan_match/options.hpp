// SPDX-License-Identifier: MIT
// The command line of shoal-lan-match: one struct, one parser, one usage text.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "physics_choice.hpp"
#include "shoal/link_conditions.hpp"
#include "shoal/transport.hpp"

namespace lan_match {

/// A wrong flag or value; the message says what is wrong and what is expected.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class PeerRole { host_or_join, host, join };

/// --kill-peer I@S, --restart-peer I@S: something done to launched peer I, S seconds after the
/// launch (which is about match time: the host starts its match clock at once).
struct PeerFault {
  int index = 0;
  double at_s = 0;
};

/// The environment variable in which the launcher hands a peer process its credentials (as
/// text, shoal::Credentials::to_text): a command line is readable by every user of the machine.
inline constexpr const char* kCredentialsVariable = "SHOAL_CREDENTIALS";

struct Options {
  int peers = 4;                 ///< peers in the match (processes the launcher starts)
  int objects = 200;             ///< shared objects the bots push around
  double seconds = 14;           ///< how long the bots play
  double settle_seconds = 6;     ///< then how long the world settles before the comparison
  std::uint64_t seed = 1;        ///< bots and link conditioner
  shoal::samples::Physics physics = shoal::samples::Physics::reference;  ///< every peer's engine
  float loss = 0;                ///< per direction, fraction 0..1
  float latency_ms = 0;          ///< one way
  float jitter_ms = 0;
  float duplicate = 0;
  float reorder = 0;
  /// --projectiles RATE: each bot fires RATE short-lived projectiles a second (0: none; gun.hpp).
  int projectiles = 0;
  std::optional<shoal::Address> relay;  ///< play through this shoal-relay instead of the LAN
  std::string report_path, csv_path, plot_path;
  /// Each peer records itself to DIR/peer-I.shoalrec (shoal-replay plays one again); with
  /// --repeat, only failing matches' recordings are kept, in DIR/seed-S/.
  std::string record_dir;
  int repeat = 0;                ///< run this many matches, the seed advancing by one each time
  /// Testing the report: this peer says its first body is 1 cm from where it is (-1: none).
  int misreport_peer = -1;
  /// --peer-command I=COMMAND: peer I runs COMMAND (split at spaces) with the peer flags instead
  /// of this program, e.g. another system's build under an emulator (a Windows peer under wine).
  std::vector<std::pair<int, std::vector<std::string>>> peer_commands;
  std::vector<PeerFault> kills;     ///< SIGKILL these peers (the report then judges the survivors)
  std::vector<PeerFault> restarts;  ///< start these killed peers again: they join anew
  /// Soak: this many minutes of play with the soak's network and faults (soak.hpp); 0 = none.
  double soak_minutes = 0;
  /// With --relay on loopback: the launcher runs that relay and restarts it at S s (-1: never).
  double relay_restart_at = -1;
  /// Transport timeout and rejoin grace of every peer (-1: the SDK's defaults, or, with
  /// --kill-peer, a quick verdict: kFaultTimeoutMs and no grace, a killed process never returns).
  int peer_timeout_ms = -1;
  int rejoin_grace_ms = -1;
  std::string session = "shoal-lan-match";
  std::uint16_t discovery_port = 47474;
  bool loopback_discovery = false;  ///< announce on loopback only: every peer runs here
  /// --insecure: links in the clear (for comparison); else each peer process gets credentials
  /// from the launcher's session authority in its environment (kCredentialsVariable).
  bool insecure = false;

  // --peer: run one peer instead of launching a match.
  bool peer_mode = false;
  PeerRole role = PeerRole::host_or_join;
  int index = 0;                 ///< which of the launched peers (varies its link seed)
};

/// Throws UsageError. `--help` is reported by returning help = true.
struct ParsedOptions {
  Options options;
  bool help = false;
};
ParsedOptions parse_options(int argc, const char* const* argv);

const char* usage_text();

/// Timeouts of peers in a match where peers are killed: dead ones are noticed within this
/// (and ENet's ping interval, a quarter of it), and their objects handed over at once.
inline constexpr int kFaultTimeoutMs = 700;

/// Whether the user kills peers (--kill-peer, not the soak): they get the quick verdict.
bool has_faults(const Options& options);
/// The timeout and grace every peer of the match gets (see Options), -1 for the SDK's default.
int peer_timeout_ms(const Options& options);
int rejoin_grace_ms(const Options& options);

/// How peer `index` is started: this program (`self_path`), or its --peer-command.
std::vector<std::string> peer_command(const Options& options, const std::string& self_path, int index);

/// The impairments of one direction of every link, from the flags.
shoal::LinkConditions link_conditions(const Options& options);

}  // namespace lan_match
