// SPDX-License-Identifier: MIT
// LAN discovery in one process on loopback: the announcement codec and its rejections, and
// announcer/seeker over real sockets. The multi-process and namespace cases are scripts.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "transport/lan_discovery.hpp"

using namespace shoal;

namespace {

constexpr std::uint16_t kTestPort = 47483;

LanSession example() { return {"arena-7", {"192.168.1.20", 40000}, protocol_version()}; }

// Sends raw bytes to the discovery port on loopback, as a hostile or foreign sender would.
void send_raw(std::span<const std::uint8_t> bytes, std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
  ::close(fd);
}

// Polls the seeker, announcing meanwhile, until `done` or 3 s / 3000 rounds pass.
template <class Done>
bool poll_until(LanSeeker& seeker, LanAnnouncer* announcer, std::string_view session, Done&& done,
                std::optional<LanSession>& found) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  for (int round = 0; round < 3000 && std::chrono::steady_clock::now() < deadline; ++round) {
    if (announcer != nullptr) announcer->update();
    if (auto heard = seeker.find(session, 1)) found = heard;  // waits about 1 ms at most
    if (done()) return true;
  }
  return done();
}

}  // namespace

TEST_CASE("an announcement decodes to what was encoded") {
  const std::vector<std::uint8_t> bytes = transport::encode_announcement(example());
  const auto decoded = transport::decode_announcement(bytes);
  REQUIRE(decoded.ok);
  CHECK(decoded.session.session == "arena-7");
  CHECK(decoded.session.address == Address{"192.168.1.20", 40000});
  CHECK(decoded.session.protocol_version == protocol_version());
}

TEST_CASE("every truncation, a trailing byte, another version and garbage are rejected with a reason") {
  const std::vector<std::uint8_t> bytes = transport::encode_announcement(example());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const auto decoded = transport::decode_announcement({bytes.data(), size});
    CHECK_FALSE(decoded.ok);
    CHECK((decoded.reason == DropReason::truncated || decoded.reason == DropReason::bad_magic));
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  CHECK(transport::decode_announcement(longer).reason == DropReason::malformed);

  std::vector<std::uint8_t> other_version = bytes;
  other_version[4] = static_cast<std::uint8_t>(protocol_version() + 1);
  CHECK(transport::decode_announcement(other_version).reason == DropReason::unsupported_version);

  const std::vector<std::uint8_t> garbage = {'G', 'E', 'T', ' ', '/', 0xFF};
  CHECK(transport::decode_announcement(garbage).reason == DropReason::bad_magic);
  CHECK(transport::decode_announcement(std::vector<std::uint8_t>(600, 'S')).reason == DropReason::oversize);

  std::vector<std::uint8_t> zero_port = bytes;
  zero_port[5] = zero_port[6] = 0;
  CHECK(transport::decode_announcement(zero_port).reason == DropReason::malformed);

  std::vector<std::uint8_t> control_character = bytes;
  control_character.back() = '\n';  // last byte of the session name
  CHECK(transport::decode_announcement(control_character).reason == DropReason::malformed);
}

TEST_CASE("bad discovery settings throw and say what is expected") {
  CHECK_THROWS_WITH_AS(LanSeeker(LanDiscoveryConfig{0, 250}), doctest::Contains("1..65535"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(LanAnnouncer(LanDiscoveryConfig{kTestPort, 5}, "s", {"127.0.0.1", 1}),
                       doctest::Contains("10..10000"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(LanAnnouncer({}, "", {"127.0.0.1", 1}), doctest::Contains("1..64 printable"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(LanAnnouncer({}, std::string(65, 'x'), {"127.0.0.1", 1}),
                       doctest::Contains("1..64 printable"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(LanAnnouncer({}, "s", {"127.0.0.1", 0}), doctest::Contains("port 1..65535"),
                       std::invalid_argument);
}

TEST_CASE("a loopback-only announcer sends one datagram per announcement, to loopback") {
  LanAnnouncer announcer({kTestPort + 3, 20, true}, "loopback-only", {"127.0.0.1", 40003});
  announcer.update();  // the first call announces at once
  CHECK(announcer.stats().sent == 1);
}

TEST_CASE("two seekers on one port both hear an announcer on loopback") {
  const LanDiscoveryConfig config{kTestPort, 20, true};
  const std::string session = "two-seekers-" + std::to_string(::getpid());
  LanSeeker first(config), second(config);
  LanAnnouncer announcer(config, session, {"127.0.0.1", 40001});
  std::optional<LanSession> heard_first, heard_second;
  CHECK(poll_until(first, &announcer, session, [&] { return heard_first.has_value(); }, heard_first));
  CHECK(poll_until(second, &announcer, session, [&] { return heard_second.has_value(); }, heard_second));
  REQUIRE(heard_first);
  REQUIRE(heard_second);
  CHECK(heard_first->address == Address{"127.0.0.1", 40001});
  CHECK(heard_second->address == Address{"127.0.0.1", 40001});
  CHECK(announcer.stats().sent > 0);
}

TEST_CASE("a seeker counts garbage, other versions and other sessions, and still finds its own") {
  const std::uint16_t port = kTestPort + 1;
  const std::string session = "mine-" + std::to_string(::getpid());
  LanSeeker seeker({port, 250});
  const std::vector<std::uint8_t> garbage = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<std::uint8_t> other_version = transport::encode_announcement({session, {"127.0.0.1", 9}, 0});
  other_version[4] = static_cast<std::uint8_t>(protocol_version() + 1);
  std::vector<std::uint8_t> truncated =
      transport::encode_announcement({session, {"127.0.0.1", 9}, protocol_version()});
  truncated.resize(truncated.size() - 3);
  const std::vector<std::uint8_t> other_session =
      transport::encode_announcement({"someone-else", {"127.0.0.1", 9}, protocol_version()});
  for (const auto* bytes : std::initializer_list<const std::vector<std::uint8_t>*>{
           &garbage, &other_version, &truncated, &other_session}) {
    send_raw(*bytes, port);
  }

  auto unmatched = [&] { return seeker.stats().dropped.total() + seeker.stats().other_sessions; };
  std::optional<LanSession> found;
  CHECK(poll_until(seeker, nullptr, session, [&] { return unmatched() == 4; }, found));
  CHECK_FALSE(found);
  CHECK(seeker.stats().dropped[DropReason::bad_magic] == 1);
  CHECK(seeker.stats().dropped[DropReason::unsupported_version] == 1);
  CHECK(seeker.stats().dropped[DropReason::truncated] == 1);
  CHECK(seeker.stats().other_sessions == 1);

  // An announcement of 0.0.0.0 names the sender's address.
  send_raw(transport::encode_announcement({session, {"0.0.0.0", 40002}, protocol_version()}), port);
  CHECK(poll_until(seeker, nullptr, session, [&] { return found.has_value(); }, found));
  REQUIRE(found);
  CHECK(found->address == Address{"127.0.0.1", 40002});
}

TEST_CASE("find gives up after its timeout when nobody announces") {
  LanSeeker seeker({kTestPort + 2, 250});
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(seeker.find("nobody-" + std::to_string(::getpid()), 200));
  const auto waited = std::chrono::steady_clock::now() - start;
  CHECK(waited >= std::chrono::milliseconds(190));
  CHECK(waited < std::chrono::seconds(3));
  // Short waits are whole too, not cut at the last millisecond's fraction.
  const auto short_start = std::chrono::steady_clock::now();
  CHECK_FALSE(seeker.find("nobody-" + std::to_string(::getpid()), 5));
  CHECK(std::chrono::steady_clock::now() - short_start >= std::chrono::milliseconds(5));
}
