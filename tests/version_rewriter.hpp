// SPDX-License-Identifier: MIT
// Another wire version, played by a transport that rewrites the version byte of everything its
// peer sends: on the wire, that peer is a build of that version (tests of the version refusal).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "wire/packet_header.hpp"

namespace shoal::test {

class VersionRewriter : public ForwardingTransport {
 public:
  VersionRewriter(std::unique_ptr<Transport> inner, std::uint8_t version)
      : ForwardingTransport(std::move(inner)), version_(version) {}
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override {
    std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
    if (copy.size() >= wire::kHeaderSize && copy[0] == 'S' && copy[1] == 'H') copy[2] = version_;
    return inner().send(connection, channel, copy);
  }

 private:
  std::uint8_t version_;
};

}  // namespace shoal::test
