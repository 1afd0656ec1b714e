// SPDX-License-Identifier: MIT
// A conditioning UDP proxy: the one piece that puts LinkConditioners on a real link, used by
// the ENet transport (in front of its ENet host) and by shoal-netsim (in front of any server).
//
//   remote R  <--UDP-->  public socket  ==  pipe socket for R  <--UDP-->  inner endpoint
//
// Datagrams from R reach the public socket, pass R's inbound conditioner and leave R's pipe
// socket for the inner endpoint; the inner endpoint answers the pipe, which passes R's
// outbound conditioner and leaves the public socket for R. The inner endpoint thus sees one
// distinct local address per remote, and each remote sees only the public address.
//
// Hole punching: punch() sends a few small datagrams straight from the public socket, so a
// NAT in front of us opens a mapping towards that endpoint. They start with a byte pair ENet
// never sends here (its "compressed" header flag; no compressor is configured), are counted
// and dropped on arrival before any pipe or conditioner, and never reach the inner endpoint.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "shoal/link_conditions.hpp"
#include "transport/link_conditioner.hpp"
#include "transport/udp_socket.hpp"

namespace shoal::transport {

struct RelayConfig {
  Endpoint public_bind;  ///< where remotes send to
  Endpoint inner;        ///< where pipes forward to (ENet's own port, or netsim's target)
  Endpoint pipe_bind;    ///< where pipe sockets bind (port 0: one ephemeral port each)
  std::size_t max_pipes = 64;
  ConditionerConfig conditions;
};

/// Traffic through one pipe as it crosses the public socket ("on the wire"), per second.
struct PipeRates {
  float packets_out_per_s = 0;
  float packets_in_per_s = 0;
  float bytes_out_per_s = 0;
  float bytes_in_per_s = 0;
};

struct RelayCounters {
  std::uint64_t dropped_unknown_source = 0;  ///< at a pipe, from anyone but the inner endpoint
  std::uint64_t dropped_pipe_limit = 0;      ///< from a new remote while max_pipes are open
  std::uint64_t punches_sent = 0;            ///< punch datagrams sent
  std::uint64_t punches_received = 0;        ///< punch datagrams received (and dropped)
};

inline constexpr std::size_t kPunchDatagramSize = 12;
inline constexpr std::size_t kPunchesPerCall = 3;

class ConditionedRelay {
 public:
  /// Throws std::runtime_error when a socket cannot be bound.
  explicit ConditionedRelay(const RelayConfig& config);
  ~ConditionedRelay();
  ConditionedRelay(const ConditionedRelay&) = delete;
  ConditionedRelay& operator=(const ConditionedRelay&) = delete;

  const Endpoint& public_endpoint() const;

  /// The local endpoint that stands for `remote` towards the inner endpoint, opening its pipe
  /// if needed; nullopt when max_pipes are already open.
  std::optional<Endpoint> pipe_for(const Endpoint& remote);
  /// The real remote behind a pipe's local endpoint, if that is one of our pipes.
  std::optional<Endpoint> remote_behind(const Endpoint& pipe_local) const;

  /// Applies to every pipe, present and future, from now on, except those of the remotes
  /// given their own conditions with set_conditions_for.
  void set_conditions(const ConditionerConfig& conditions);
  /// Conditions for the pipe of one remote only, present or future, from now on.
  void set_conditions_for(const Endpoint& remote, const ConditionerConfig& conditions);

  /// Sends kPunchesPerCall punch datagrams from the public socket to `remote`, unconditioned
  /// (they exist to open NAT mappings, not to carry anything).
  void punch(const Endpoint& remote);

  /// Moves every waiting datagram into its conditioner and sends every one that is due. Time
  /// is the steady clock, read as each datagram is taken in.
  void pump();
  /// When pump next has a datagram to release; INT64_MAX when none is queued.
  std::int64_t next_release_us() const;
  /// Blocks up to timeout_ms until one of the relay's sockets (or `extra`, unless kNoSocket)
  /// is readable or a conditioned datagram falls due.
  void wait(int timeout_ms, transport::platform::SocketHandle extra) const;

  PipeRates rates(const Endpoint& remote) const;
  /// Both conditioners of one remote's pipe: outbound (towards it), inbound (from it).
  const LinkConditioner::Counters* outbound_counters(const Endpoint& remote) const;
  const LinkConditioner::Counters* inbound_counters(const Endpoint& remote) const;
  const RelayCounters& counters() const { return counters_; }
  std::size_t pipe_count() const { return pipes_.size(); }

 private:
  struct Pipe;
  Pipe* open_pipe(const Endpoint& remote);
  void update_rates(Pipe& pipe, std::int64_t now_us);
  void read_ready();  // every datagram in the sockets pump_waits_ found readable

  RelayConfig config_;
  UdpSocket public_socket_;
  std::vector<std::unique_ptr<Pipe>> pipes_;  ///< in opening order: gives each its seed stream
  std::unordered_map<Endpoint, Pipe*, EndpointHash> by_remote_;
  std::unordered_map<std::uint16_t, Pipe*> by_pipe_port_;
  std::unordered_map<Endpoint, ConditionerConfig, EndpointHash> own_conditions_;  ///< set_conditions_for
  std::vector<std::uint8_t> datagram_;  ///< one release buffer, reused
  mutable std::vector<transport::platform::WaitEntry> waits_;  ///< reused by wait
  std::vector<transport::platform::WaitEntry> pump_waits_;  ///< pump's: the public socket, then each pipe's in opening order
  RelayCounters counters_;
};

}  // namespace shoal::transport
