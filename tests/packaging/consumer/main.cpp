// SPDX-License-Identifier: MIT
// A game in miniature, built against an installed Shoal through its public headers only:
// the reference physics, a Peer on a real ENet transport, hosting a match for a few frames.
#include <cstdio>

#include <shoal/peer.hpp>
#include <shoal/reference_physics.hpp>
#include <shoal/security.hpp>

int main() {
  shoal::ReferencePhysics physics(shoal::ReferencePhysicsConfig{});
  shoal::ObjectState start;
  start.position = {0, 2, 0};
  physics.add_sphere(1, 0.5f, 1.0f, start);

  shoal::SessionAuthority authority("quickstart");  // the host invites every peer
  shoal::TransportConfig transport;  // 127.0.0.1, any free port
  transport.security.credentials = authority.invite();
  shoal::Peer peer(shoal::PeerConfig{}, physics, shoal::make_enet_transport(transport));
  peer.set_controlled(1);
  peer.host();
  std::int64_t now_us = 0;
  for (int i = 0; i < 30; ++i) peer.update_at(now_us += 16'667);

  const float height = peer.state(1).position.y;
  if (!peer.in_match() || peer.frame() < 25 || !(height < 2.0f)) {
    std::fprintf(stderr, "consumer: unexpected: in_match=%d frame=%d height=%f\n", peer.in_match(),
                 peer.frame(), static_cast<double>(height));
    return 1;
  }
  std::printf("consumer: hosted a match on %s, frame %d, ball falling at y=%.3f\n",
              shoal::to_string(peer.address()).c_str(), peer.frame(), static_cast<double>(height));
  return 0;
}
