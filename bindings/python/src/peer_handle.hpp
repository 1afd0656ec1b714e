// SPDX-License-Identifier: MIT
// shoal.Peer: a shoal::Peer that Python owns (built from a config, a simulation and a
// Transport), or one it borrows for a while (the peer a replay drives). A context manager:
// leaving the block leaves the match and closes the peer.
//
// A peer takes one call at a time, as in C++. The calls that release the GIL (update, wait,
// leave, close) hold the peer's lock meanwhile; a call from another thread during one of them
// raises StateError instead of racing it. Calls from inside one (a log hook, a Python
// simulation) on the same thread are allowed, as in C++.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "bind.hpp"
#include "shoal/peer.hpp"

namespace shoal::python {

class TransportHandle;

class PeerHandle {
 public:
  PeerHandle(const PeerConfig& config, py::object simulation, TransportHandle& transport);
  /// A peer a replay drives, readable until invalidate(); the calls that would change what it
  /// does (update, set_input, poll_event...) raise StateError.
  PeerHandle(Peer& replayed, std::vector<ObjectId> body_ids);
  ~PeerHandle();
  PeerHandle(const PeerHandle&) = delete;
  PeerHandle& operator=(const PeerHandle&) = delete;

  /// The peer, for a call that keeps the GIL: raises StateError when it is closed or busy in
  /// another thread's update. Hold the returned lock for the call.
  std::unique_lock<std::recursive_mutex> lock_for_call();
  /// For a call without the GIL: waits for the peer's lock (call with the GIL released).
  std::unique_lock<std::recursive_mutex> wait_for_call();
  /// The peer, checked open; only with a lock from above.
  Peer& peer() const;
  /// The same for a call that changes what the peer does: StateError for a replayed peer.
  Peer& peer_to_drive(const char* call) const;

  /// The simulation's fixed bodies (every body but the spawn slots), in its order.
  const std::vector<ObjectId>& body_ids() const { return body_ids_; }
  bool closed() const { return peer_ == nullptr; }
  /// Leaves the match (when in it) and frees the peer and its transport.
  void close();
  /// A borrowed peer's owner is done with it.
  void invalidate();

 private:
  std::unique_ptr<Peer> owned_;
  Peer* peer_ = nullptr;
  bool borrowed_ = false;
  py::object simulation_;  // kept alive while the peer uses it
  std::vector<ObjectId> body_ids_;
  std::recursive_mutex mutex_;
};

/// The fixed bodies of a simulation, in its order (spawn slots left out).
std::vector<ObjectId> fixed_body_ids(const Simulation& simulation);

}  // namespace shoal::python
