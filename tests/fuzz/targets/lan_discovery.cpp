// SPDX-License-Identifier: MIT
// LAN discovery announcements (transport/lan_discovery.hpp), as a LanSeeker decodes every
// datagram on the discovery port: a verdict with a reason for anything; an accepted
// announcement is announceable and re-encodes to the same bytes.
#include <algorithm>
#include <vector>

#include "fuzz_target.hpp"
#include "transport/lan_discovery.hpp"

using namespace shoal;
using namespace shoal::transport;

SHOAL_FUZZ_TARGET(lan_discovery) {
  const std::span<const std::uint8_t> datagram(data, size);
  const DecodedAnnouncement decoded = decode_announcement(datagram);
  if (!decoded.ok) {
    FUZZ_CHECK(decoded.reason < DropReason::count, "a rejected announcement names a reason");
    return 0;
  }
  const LanSession& s = decoded.session;
  FUZZ_CHECK(is_announceable(s.session, kMaxSessionNameLength) && is_announceable(s.address.host, kMaxAnnouncedHostLength) &&
                 s.address.port != 0,
             "an accepted announcement names a session and an address");
  const std::vector<std::uint8_t> again = encode_announcement(s);  // throws (a crash) if it would not fit
  FUZZ_CHECK(std::equal(datagram.begin(), datagram.end(), again.begin(), again.end()),
             "an accepted announcement re-encodes to the same bytes");
  return 0;
}
