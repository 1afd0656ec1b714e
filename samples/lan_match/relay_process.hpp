// SPDX-License-Identifier: MIT
// --relay-restart-at S: the launcher runs the relayed match's shoal-relay itself (the one next
// to this program, on loopback: on the port --relay names, or any free one) so that it can
// SIGKILL it at S seconds and start it again on the same port; the peers' relay clients rejoin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "process.hpp"

namespace lan_match {

class RelayProcess {
 public:
  /// Starts `exe` on 127.0.0.1:port (0: any free port) and waits (at most 10 s) for its
  /// "serving on" line. Throws std::runtime_error if it does not come.
  RelayProcess(std::string exe, std::uint16_t port);
  ~RelayProcess();
  RelayProcess(const RelayProcess&) = delete;
  RelayProcess& operator=(const RelayProcess&) = delete;

  /// SIGKILL, then the same relay again on the same port (its sessions start empty).
  void restart();
  std::uint16_t port() const { return port_; }

 private:
  void start();
  void stop();

  std::string exe_;
  std::uint16_t port_;
  std::optional<shoal::samples::ChildProcess> process_;
};

/// The shoal-relay next to this program (the build puts them in one folder).
std::string sibling_relay_path();

}  // namespace lan_match
