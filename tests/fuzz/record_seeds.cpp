// SPDX-License-Identifier: MIT
// shoal-fuzz-record-seeds DIR: writes the seed corpora of tests/fuzz (DIR/<target>/<name>).
// Peer traffic is recorded from a real in-process match in the fuzz world (fuzz_world.hpp):
// three peers on a lossy MemoryNetwork, bots pushing, so that handshakes, baselines, snapshots
// against baselines, acks with resets and ownership claims all appear. Its links are secured
// with the fuzz session's keys (fuzz_keys.hpp): the hellos they opened with, as they crossed the
// network, seed the hello target, and the peers' scripts carry their link notices. The relay,
// link, hybrid, discovery and envelope seeds are written by those protocols' own encoders around
// datagrams of that match (no relay runs in-process here). The same files every run, but for
// what the peers draw at random: rejoin secrets and the links' fresh keys.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

// The match harness is the sync tests' and checks a few things with doctest; here nothing is
// a test, so doctest's checks compile to nothing.
#define DOCTEST_CONFIG_DISABLE
#include <doctest/doctest.h>

#include "fuzz_keys.hpp"
#include "fuzz_world.hpp"
#include "peer_script.hpp"
#include "security_seeds.hpp"
#include "seed_traffic.hpp"
#include "shoal/security.hpp"
#include "shoal/version.hpp"
#include "peer/match_harness.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;
using namespace shoal::fuzz;

namespace {

constexpr double kMatchSeconds = 2.0;
constexpr std::size_t kPerKind = 3;           // control and header seeds per message kind
constexpr std::size_t kSnapshotRun = 12;      // datagrams per snapshot-sequence seed
constexpr std::size_t kSnapshotSeeds = 8;
constexpr std::size_t kScriptStart = 8192;  // bytes of the joiner's script kept as a short seed

using Bytes = std::vector<std::uint8_t>;

void write_file(const std::filesystem::path& path, const Bytes& bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

Bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

MessageKindOf kind_of(const Bytes& datagram) {
  wire::MessageKind kind{};
  if (!wire::read_header(datagram, kind)) return std::nullopt;
  return kind;
}

// Each kind's first kPerKind distinct datagrams, for the header and control targets.
void write_per_kind(const std::filesystem::path& dir, const std::vector<TappedMessage>& traffic, bool control_only) {
  std::map<wire::MessageKind, std::size_t> written;
  for (const TappedMessage& m : traffic) {
    const MessageKindOf kind = kind_of(m.bytes);
    if (!kind) continue;
    const bool control = *kind != wire::MessageKind::snapshot && *kind != wire::MessageKind::snapshot_ack;
    if (control_only && !control) continue;
    std::size_t& count = written[*kind];
    if (count == kPerKind) continue;
    write_file(dir / ("kind-" + std::to_string(static_cast<int>(*kind)) + "-" + std::to_string(count)), m.bytes);
    ++count;
  }
}

// Sequences of the snapshot target: what one peer received from one other on the state
// channel, in arrival order, as [user-byte count][u16 length, bytes]...
void write_snapshot_runs(const std::filesystem::path& dir, const std::vector<TappedMessage>& traffic) {
  std::map<std::pair<int, ConnectionId>, std::vector<const Bytes*>> streams;
  for (const TappedMessage& m : traffic) {
    const MessageKindOf kind = kind_of(m.bytes);
    if (kind == wire::MessageKind::snapshot || kind == wire::MessageKind::snapshot_ack) {
      streams[{m.receiver, m.connection}].push_back(&m.bytes);
    }
  }
  std::size_t seeds = 0;
  for (const auto& [link, datagrams] : streams) {
    // Two runs per link: the first datagrams (baselines being set up) and later ones (deltas).
    for (const std::size_t start : {std::size_t{0}, datagrams.size() / 2}) {
      if (seeds == kSnapshotSeeds || start >= datagrams.size()) break;
      Bytes seed{static_cast<std::uint8_t>(fuzz_arena().user_bytes)};
      for (std::size_t i = start; i < std::min(datagrams.size(), start + kSnapshotRun); ++i) {
        append_chunk(*datagrams[i], seed);
      }
      write_file(dir / ("run-" + std::to_string(seeds++)), seed);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-fuzz-record-seeds")) return 0;
  if (argc != 2 || argv[1][0] == '-') {  // --help, or a mistyped option, is not a folder
    std::fprintf(stderr, "usage: shoal-fuzz-record-seeds DIR  (writes DIR/<target>/ for every fuzz target)\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const std::filesystem::path recording = dir / "peer-1.shoalrec.tmp";
  std::filesystem::create_directories(dir);
  std::vector<TappedMessage> traffic, sealed_traffic;
  Bytes joiner_script, host_script;
  {
    // Peer 1 is the one under the `peer` target's microscope: its transport is scripted and
    // it records itself for the `recording` target.
    ScriptRecorder* joiner = nullptr;
    ScriptRecorder* host = nullptr;
    const test::TransportWrapper wrap = [&](int p, std::unique_ptr<Transport> inner) -> std::unique_ptr<Transport> {
      SecurityConfig security;
      security.credentials = fuzz_credentials(static_cast<std::uint8_t>(p + 1));
      auto secured = make_secure_transport(std::make_unique<TrafficTap>(std::move(inner), p, sealed_traffic), security);
      auto tapped = std::make_unique<TrafficTap>(std::move(secured), p, traffic);
      if (p > 1) return tapped;
      auto scripted = std::make_unique<ScriptRecorder>(std::move(tapped), p == 1 ? joiner_script : host_script,
                                                       /*joins=*/p == 1, p);
      (p == 1 ? joiner : host) = scripted.get();
      return scripted;
    };
    test::FakeMatch match(3, fuzz_arena(), fuzz_peer_config(), /*seed=*/7, /*joining_now=*/1, wrap);
    LinkConditions lossy;
    lossy.loss = 0.05f;  // so that resends, resets and retries are in the traffic too
    lossy.latency_ms = 20;
    match.network().set_conditions(lossy);
    const std::string world = kFuzzWorldName;
    match.players[1].peer->record(recording.string(), {reinterpret_cast<const std::uint8_t*>(world.data()), world.size()});
    match.join_late(1);
    match.join_late(2);
    match.enable_bots(11);
    std::int64_t last_ms = match.now_us() / 1000;
    match.run(kMatchSeconds, [&] {  // after each update: the scripts' update op follows its events
      const std::int64_t now_ms = match.now_us() / 1000;
      joiner->update(static_cast<int>(now_ms - last_ms));
      host->update(static_cast<int>(now_ms - last_ms));
      last_ms = now_ms;
      // Game messages, both ways of delivery, to the peer that records itself.
      for (std::size_t p : {std::size_t{0}, std::size_t{2}}) {
        Peer& peer = *match.players[p].peer;
        if (!peer.in_match() || peer.frame() % 20 != 0 || peer.peers().size() < 3) continue;
        const Bytes note{'s', 'c', 'o', 'r', 'e', static_cast<std::uint8_t>(peer.frame())};
        peer.send_message(kNoPeer, note, Delivery::reliable, peer.frame());
        peer.send_message(1, note, Delivery::unreliable);
      }
    });
    if (!match.all_in_match()) {
      std::fprintf(stderr, "shoal-fuzz-record-seeds: the match never formed\n");
      return 1;
    }
  }  // the peers are gone: the recording is complete

  write_per_kind(dir / "packet_header", traffic, false);
  write_per_kind(dir / "control_messages", traffic, true);
  write_snapshot_runs(dir / "snapshot", traffic);
  // The scripts whole, and cut short (the handshake alone): short inputs run faster.
  write_file(dir / "peer" / "joiner", joiner_script);
  write_file(dir / "peer" / "host", host_script);
  const auto start = static_cast<std::ptrdiff_t>(std::min<std::size_t>(joiner_script.size(), kScriptStart));
  write_file(dir / "peer" / "joiner-start", Bytes(joiner_script.begin(), joiner_script.begin() + start));
  write_file(dir / "recording" / "joiner", read_file(recording));
  std::filesystem::remove(recording);
  const Bytes* snapshot = nullptr;
  for (const TappedMessage& m : traffic) {
    if (kind_of(m.bytes) == wire::MessageKind::snapshot) snapshot = &m.bytes;
  }
  for (const auto& [target, seeds] : protocol_seeds(snapshot != nullptr ? *snapshot : Bytes{})) {
    for (const auto& [name, bytes] : seeds) write_file(dir / target / name, bytes);
  }
  for (const auto& [target, seeds] : security_seeds(traffic, sealed_traffic)) {
    for (const auto& [name, bytes] : seeds) write_file(dir / target / name, bytes);
  }
  std::printf("shoal-fuzz-record-seeds: %zu datagrams of a %.1f s match recorded into %s\n", traffic.size(),
              kMatchSeconds, dir.c_str());
  return 0;
}
