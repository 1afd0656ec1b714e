// SPDX-License-Identifier: MIT
#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace lan_match {
namespace {

template <class Number>
Number parse_number(std::string_view flag, std::string_view text, Number low, Number high, const char* expected) {
  Number value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  const bool finite = [&] {
    if constexpr (std::is_floating_point_v<Number>) return std::isfinite(value);
    return true;
  }();
  if (text.empty() || error != std::errc{} || stop != end || !finite || value < low || value > high) {
    throw UsageError(fmt::format("{} '{}' is not valid: expected {}", flag, text, expected));
  }
  return value;
}

float fraction(std::string_view flag, std::string_view text) {
  return parse_number<float>(flag, text, 0.0f, 1.0f, "a fraction from 0 to 1 (0.05 = 5%)");
}

shoal::Address parse_host_port(std::string_view flag, std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    throw UsageError(fmt::format("{} '{}' is not valid: expected HOST:PORT", flag, text));
  }
  return {std::string(text.substr(0, colon)),
          parse_number<std::uint16_t>(flag, text.substr(colon + 1), 1, 65535, "HOST:PORT with a port from 1 to 65535")};
}

// "I@S": peer index 1..15 (the host, 0, announces the session and cannot be replaced), second.
PeerFault parse_fault(std::string_view flag, std::string_view text) {
  const std::size_t at = text.find('@');
  if (at == std::string_view::npos) {
    throw UsageError(fmt::format("{} '{}' is not valid: expected I@S (peer index @ seconds)", flag, text));
  }
  return {parse_number(flag, text.substr(0, at), 1, 15, "I@S with a peer index from 1 to 15 (not the host, 0)"),
          parse_number(flag, text.substr(at + 1), 0.0, 3600.0, "I@S with seconds from 0 to 3600")};
}

// --peer-command I=COMMAND: any peer, the host too; the command's words split at spaces.
std::pair<int, std::vector<std::string>> parse_peer_command(std::string_view flag, std::string_view text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    throw UsageError(fmt::format("{} '{}' is not valid: expected I=COMMAND (peer index = program and its first words)",
                                 flag, text));
  }
  std::vector<std::string> words;
  for (std::size_t at = equals + 1; at < text.size();) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) words.emplace_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (words.empty()) throw UsageError(fmt::format("{} '{}': expected a command after '='", flag, text));
  return {parse_number(flag, text.substr(0, equals), 0, 15, "I=COMMAND with a peer index from 0 to 15"), words};
}

}  // namespace

const char* usage_text() {
  return R"(usage: shoal-lan-match [flags]            launch a match of N peer processes and report
       shoal-lan-match --peer [flags]     run one peer (hosts, or finds a host by LAN discovery)
Every peer binds 127.0.0.1 (Shoal's default), so a match stays on this machine; to play
across a LAN, see shoal-two-peers (the README's Quickstart) or shoal-arena --host.

match:
  --peers N             peers, 1..16 (default 4)
  --objects K           shared objects, 1..2000 (default 200)
  --seconds S           seconds the bots play, 0.5..3600 (default 14)
  --settle-seconds Q    seconds the world then settles before the comparison (up to 3 s more
                        if some peer still sees an object moving), 0.5..600 (default 6)
  --seed X              seed of the bots and of the link conditioner (default 1)
  --physics ENGINE      every peer's physics: reference (default), bullet or box2d (Box2D plays
                        the arena seen from above)
  --projectiles RATE    each bot fires RATE projectiles a second, 1..30 (default 0: none), spawned
                        during play and removed after 2 s or at a wall; the report adds each
                        peer's spawned, removed and live objects, and the verdict the settled
                        live set (reference physics only; needs --settle-seconds 2 or more)
network (each direction of every link):
  --loss P              fraction of datagrams lost, 0..1 (0.05 = 5%)
  --latency-ms L        one-way latency, 0..2000
  --jitter-ms J         latency varies by +-J, 0..2000
  --duplicate P         fraction of datagrams delivered twice, 0..1
  --reorder P           fraction of datagrams held back behind later ones, 0..1
  --relay HOST:PORT     reach the peers through a shoal-relay instead of the LAN (the launch's
                        session name is the relay session id and its token)
output:
  --report FILE.json    the report as JSON (with --repeat: one line per match and a summary)
  --csv FILE.csv        one row per peer and second
  --plot FILE.png       bandwidth per peer and position divergence over time (needs gnuplot)
  --record DIR          every peer records itself to DIR/peer-I.shoalrec, for shoal-replay
repetition:
  --repeat N            run N matches, the seed advancing by one each time, quietly: one line
                        per match, then a summary (failure rate, join times); exit 0 only if
                        every match was consistent. With --record, only failing matches'
                        recordings are kept, in DIR/seed-S/
testing:
  --misreport-peer I    peer I reports its first body 1 cm off: a match that cannot be
                        consistent, to check what its report says
  --peer-command I=CMD  start peer I as CMD (split at spaces) with the peer flags, instead of
                        this program: e.g. I="wine64 build/windows-mingw/bin/shoal-lan-match.exe"
                        puts a Windows peer in a Linux match (repeatable)
faults (real processes; the report then judges the survivors and gives reowned_ms):
  --kill-peer I@S       SIGKILL peer I (1..15) S seconds after the launch (repeatable)
  --restart-peer I@S    start killed peer I again at S seconds: it joins anew (repeatable)
  --kick-peer I@S       kick and ban peer I at S seconds: the session's authority revokes its
                        invitation, every member closes its links to it and its objects pass on;
                        it then tries to come back with the same invitation until the match ends,
                        and the verdict needs each try refused and its objects owned again within
                        1 s (repeatable; not with --insecure)
  --relay-restart-at S  the launcher runs the match's shoal-relay itself (the one beside this
                        program, on loopback: on --relay 127.0.0.1:PORT's port, else any free
                        one) and SIGKILLs and restarts it on the same port at S seconds
  --peer-timeout-ms T   every peer's transport timeout (default 5000; 700 with --kill-peer)
  --rejoin-grace-ms G   how long a timed-out peer keeps its objects (default 5000; 0 with
                        --kill-peer)
  --soak MINUTES        a long match: 8 peers, 20% loss, 5% duplicated, 5% reordered, a peer
                        killed and restarted every minute (with the SDK's timeout and grace);
                        RSS, owned and live objects sampled
                        every 30 s (--csv, --plot); fails on lost objects, divergence that
                        lasts or memory that keeps growing after the warm-up
discovery:
  --session NAME        session name announced and sought (default shoal-lan-match)
  --discovery-port P    UDP port of the LAN announcements (default 47474)
  --loopback-discovery  announce on loopback only, not the LAN (the launcher's peers, which
                        all run on this machine, do)
security:
  --insecure            links in the clear, for comparison; by default every link is encrypted
                        and only peers the launcher invited join (a --peer reads its
                        credentials from the SHOAL_CREDENTIALS environment variable)
peer mode:
  --peer                run one peer; its progress and states go to stdout, one line each
  --host | --join       only host, or only join (default: look for a host for 2 s, else host)
  --index I             this peer's number among the launched ones (varies its link seed)
)";
}

ParsedOptions parse_options(int argc, const char* const* argv) {
  ParsedOptions parsed;
  Options& o = parsed.options;
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    std::string_view value;
    bool has_inline_value = false;
    if (const auto equals = flag.find('='); flag.starts_with("--") && equals != std::string_view::npos) {
      value = flag.substr(equals + 1);
      flag = flag.substr(0, equals);
      has_inline_value = true;
    }
    auto switch_flag = [&] {
      if (has_inline_value) throw UsageError(fmt::format("{} takes no value", flag));
    };
    auto next = [&]() -> std::string_view {
      if (has_inline_value) return value;
      if (i + 1 >= argc) throw UsageError(fmt::format("{} needs a value", flag));
      return argv[++i];
    };
    auto path = [&] {
      const std::string_view text = next();
      if (text.empty()) throw UsageError(fmt::format("{} needs a file name", flag));
      return std::string(text);
    };

    if (flag == "--help" || flag == "-h") {
      parsed.help = true;
    } else if (flag == "--peers") {
      o.peers = parse_number(flag, next(), 1, 16, "a whole number of peers from 1 to 16");
    } else if (flag == "--objects") {
      o.objects = parse_number(flag, next(), 1, 2000, "a whole number of objects from 1 to 2000");
    } else if (flag == "--seconds") {
      o.seconds = parse_number(flag, next(), 0.5, 3600.0, "seconds from 0.5 to 3600");
    } else if (flag == "--settle-seconds") {
      o.settle_seconds = parse_number(flag, next(), 0.5, 600.0, "seconds from 0.5 to 600");
    } else if (flag == "--seed") {
      o.seed = parse_number<std::uint64_t>(flag, next(), 0, UINT64_MAX, "a non-negative whole number");
    } else if (flag == "--physics") {
      const std::string_view engine = next();
      if (const std::string problem = shoal::samples::physics_problem(engine); !problem.empty()) {
        throw UsageError(fmt::format("--physics: {}", problem));
      }
      o.physics = *shoal::samples::physics_named(engine);
    } else if (flag == "--projectiles") {
      o.projectiles = parse_number(flag, next(), 0, 30, "projectiles a second per bot, a whole number from 0 to 30");
    } else if (flag == "--loss") {
      o.loss = fraction(flag, next());
    } else if (flag == "--duplicate") {
      o.duplicate = fraction(flag, next());
    } else if (flag == "--reorder") {
      o.reorder = fraction(flag, next());
    } else if (flag == "--latency-ms") {
      o.latency_ms = parse_number(flag, next(), 0.0f, 2000.0f, "milliseconds from 0 to 2000");
    } else if (flag == "--jitter-ms") {
      o.jitter_ms = parse_number(flag, next(), 0.0f, 2000.0f, "milliseconds from 0 to 2000");
    } else if (flag == "--relay") {
      o.relay = parse_host_port(flag, next());
    } else if (flag == "--report") {
      o.report_path = path();
    } else if (flag == "--csv") {
      o.csv_path = path();
    } else if (flag == "--plot") {
      o.plot_path = path();
    } else if (flag == "--record") {
      o.record_dir = path();
    } else if (flag == "--misreport-peer") {
      o.misreport_peer = parse_number(flag, next(), 0, 15, "a peer index from 0 to 15");
    } else if (flag == "--peer-command") {
      o.peer_commands.push_back(parse_peer_command(flag, next()));
    } else if (flag == "--kill-peer") {
      o.kills.push_back(parse_fault(flag, next()));
    } else if (flag == "--restart-peer") {
      o.restarts.push_back(parse_fault(flag, next()));
    } else if (flag == "--kick-peer") {
      o.kicks.push_back(parse_fault(flag, next()));
    } else if (flag == "--relay-restart-at") {
      o.relay_restart_at = parse_number(flag, next(), 0.0, 3600.0, "seconds from 0 to 3600");
    } else if (flag == "--peer-timeout-ms") {
      o.peer_timeout_ms = parse_number(flag, next(), 100, 60000, "milliseconds from 100 to 60000");
    } else if (flag == "--rejoin-grace-ms") {
      o.rejoin_grace_ms = parse_number(flag, next(), 0, 60000, "milliseconds from 0 to 60000");
    } else if (flag == "--soak") {
      o.soak_minutes = parse_number(flag, next(), 0.5, 1440.0, "minutes from 0.5 to 1440");
    } else if (flag == "--repeat") {
      o.repeat = parse_number(flag, next(), 1, 100000, "a whole number of matches from 1 to 100000");
    } else if (flag == "--session") {
      o.session = next();
      if (o.session.empty() || o.session.size() > 64) {
        throw UsageError(fmt::format("--session '{}' is not valid: expected 1 to 64 characters", o.session));
      }
    } else if (flag == "--discovery-port") {
      o.discovery_port = parse_number<std::uint16_t>(flag, next(), 1, 65535, "a UDP port from 1 to 65535");
    } else if (flag == "--loopback-discovery") {
      switch_flag();
      o.loopback_discovery = true;
    } else if (flag == "--insecure") {
      switch_flag();
      o.insecure = true;
    } else if (flag == "--peer") {
      switch_flag();
      o.peer_mode = true;
    } else if (flag == "--host") {
      switch_flag();
      o.role = PeerRole::host;
    } else if (flag == "--join") {
      switch_flag();
      o.role = PeerRole::join;
    } else if (flag == "--index") {
      o.index = parse_number(flag, next(), 0, 1023, "a whole number from 0 to 1023");
    } else {
      throw UsageError(fmt::format("unknown flag '{}': see --help for the flags", argv[i]));
    }
  }
  if (o.jitter_ms > o.latency_ms) {
    throw UsageError(fmt::format("--jitter-ms {} is larger than --latency-ms {}: expected jitter <= latency",
                                 o.jitter_ms, o.latency_ms));
  }
  if (o.loss >= 1) throw UsageError("--loss 1 loses every datagram: expected a fraction below 1");
  if (o.relay && o.peer_mode && o.role == PeerRole::host_or_join) {
    throw UsageError("--peer --relay cannot look for a host on the LAN: expected --host or --join");
  }
  if (o.repeat > 0 && (o.peer_mode || !o.csv_path.empty() || !o.plot_path.empty())) {
    throw UsageError("--repeat runs whole matches quietly: expected it without --peer, --csv and --plot");
  }
  for (const auto& [index, command] : o.peer_commands) {
    if (index >= o.peers) {
      throw UsageError(fmt::format("--peer-command {}=...: there is no peer {} in a match of {}", index, index, o.peers));
    }
  }
  for (const PeerFault& f : o.kills) {
    if (f.index >= o.peers) {
      throw UsageError(fmt::format("--kill-peer {}@{}: there is no peer {} in a match of {}", f.index, f.at_s, f.index, o.peers));
    }
  }
  for (const PeerFault& k : o.kicks) {
    if (k.index >= o.peers) {
      throw UsageError(fmt::format("--kick-peer {}@{}: there is no peer {} in a match of {}", k.index, k.at_s, k.index, o.peers));
    }
    if (std::any_of(o.kills.begin(), o.kills.end(), [&](const PeerFault& f) { return f.index == k.index; })) {
      throw UsageError(fmt::format("--kick-peer {}@{}: peer {} is killed too: expected one fault per peer", k.index,
                                   k.at_s, k.index));
    }
  }
  if (!o.kicks.empty() && o.insecure) {
    throw UsageError("--kick-peer revokes an invitation, which only secured links have: expected it without --insecure");
  }
  for (const PeerFault& r : o.restarts) {
    const bool killed_before = std::any_of(o.kills.begin(), o.kills.end(),
                                           [&](const PeerFault& k) { return k.index == r.index && k.at_s < r.at_s; });
    if (!killed_before) {
      throw UsageError(fmt::format("--restart-peer {}@{}: expected a --kill-peer {}@S with S before {}", r.index, r.at_s,
                                   r.index, r.at_s));
    }
  }
  if (o.relay_restart_at >= 0 && !o.peer_mode && o.relay && o.relay->host != "127.0.0.1" &&
      o.relay->host != "localhost") {
    throw UsageError("--relay-restart-at runs the relay here: expected --relay 127.0.0.1:PORT");
  }
  if (o.soak_minutes > 0 && (o.repeat > 0 || o.peer_mode || !o.kills.empty() || !o.kicks.empty())) {
    throw UsageError("--soak plans its own faults: expected it without --repeat, --peer, --kill-peer and --kick-peer");
  }
  if (o.projectiles > 0) {
    if (o.physics != shoal::samples::Physics::reference) {
      throw UsageError(fmt::format("--projectiles needs --physics reference: the {} adapter has no spawn slots yet",
                                   shoal::samples::name(o.physics)));
    }
    if (o.settle_seconds < 2) {
      throw UsageError(fmt::format("--projectiles with --settle-seconds {}: the projectiles' 2 s lifetime must pass "
                                   "while the world settles, expected --settle-seconds 2 or more", o.settle_seconds));
    }
    if (o.soak_minutes > 0) {
      throw UsageError("--projectiles cannot be soaked yet: expected it without --soak");
    }
  }
  if (o.role != PeerRole::host_or_join && !o.peer_mode) {
    throw UsageError("--host and --join choose the role of one peer: expected them with --peer");
  }
  return parsed;
}

// The soak keeps the SDK's timeout and grace: at 20% loss each way a 700 ms timeout takes live
// peers for dead, and with no grace their objects change hands while they still play.
bool has_faults(const Options& options) { return !options.kills.empty() && options.soak_minutes == 0; }

int peer_timeout_ms(const Options& options) {
  if (options.peer_timeout_ms > 0) return options.peer_timeout_ms;
  return has_faults(options) ? kFaultTimeoutMs : -1;
}

int rejoin_grace_ms(const Options& options) {
  if (options.rejoin_grace_ms >= 0) return options.rejoin_grace_ms;
  return has_faults(options) ? 0 : -1;
}

std::vector<std::string> peer_command(const Options& options, const std::string& self_path, int index) {
  for (const auto& [peer, command] : options.peer_commands) {
    if (peer == index) return command;
  }
  return {self_path};
}

shoal::LinkConditions link_conditions(const Options& options) {
  shoal::LinkConditions link;
  link.latency_ms = options.latency_ms;
  link.jitter_ms = options.jitter_ms;
  link.loss = options.loss;
  link.duplicate = options.duplicate;
  link.reorder = options.reorder;
  return link;
}

}  // namespace lan_match
