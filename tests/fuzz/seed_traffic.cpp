// SPDX-License-Identifier: MIT
#include "seed_traffic.hpp"

#include "relay_script.hpp"
#include "transport/hybrid_frames.hpp"
#include "transport/lan_discovery.hpp"
#include "transport/relay_protocol.hpp"

namespace shoal::fuzz {

bool TrafficTap::poll(TransportEvent& event) {
  if (!inner().poll(event)) return false;
  if (event.kind == TransportEventKind::message) {
    out_.push_back({receiver_, event.connection, {event.payload.begin(), event.payload.end()}});
  }
  return true;
}

void append_chunk(std::span<const std::uint8_t> bytes, std::vector<std::uint8_t>& out) {
  const std::size_t size = std::min<std::size_t>(bytes.size(), 0xFFFF);
  out.push_back(static_cast<std::uint8_t>(size & 0xFF));
  out.push_back(static_cast<std::uint8_t>(size >> 8));
  out.insert(out.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
}

namespace {

using Bytes = std::vector<std::uint8_t>;
using namespace transport;

constexpr std::uint32_t kLoopback = 0x7F000001;

std::map<std::string, Bytes> relay_seeds(std::span<const std::uint8_t> link_data) {
  std::map<std::string, Bytes> seeds;
  Bytes out;
  HopKey key{};
  key.fill(0x4B);
  encode_join({"shoal-lan-match-1", "", "shoal-lan-match-1", kNoSlot, key}, out);
  seeds["join"] = out;
  encode_join({"", session_code("shoal-lan-match-1"), "token", 1, key}, out);
  seeds["join-by-code"] = out;
  encode_forward(1, link_data, out);
  seeds["forward"] = out;
  encode_forward(kBroadcastSlot, link_data, out);
  seeds["forward-all"] = out;
  encode_list_sessions(out);
  seeds["list"] = out;
  encode_joined({2, "shoal-lan-match-1", session_code("shoal-lan-match-1"), {kLoopback, 40001},
                 {{1, {kLoopback, 40000}}, {3, {kLoopback, 40002}}}, key},
                out);
  seeds["joined"] = out;
  // A sealed message: its envelope is opaque to the decoder, which only frames it.
  encode_sealed_header(out);
  out.insert(out.end(), link_data.begin(), link_data.end());
  seeds["sealed"] = out;
  encode_refused(RefusalReason::session_full, out);
  seeds["refused"] = out;
  encode_deliver(3, link_data, out);
  seeds["deliver"] = out;
  encode_member_joined({4, {kLoopback, 40003}}, out);
  seeds["member-joined"] = out;
  encode_member_left(4, out);
  seeds["member-left"] = out;
  const std::vector<SessionInfo> sessions = {{"shoal-lan-match-1", session_code("shoal-lan-match-1"), 3},
                                             {"arena", session_code("arena"), 1}};
  encode_session_list(sessions, out);
  seeds["session-list"] = out;
  return seeds;
}

// relay_link input: a byte saying whether data carries a sequence number, then the message.
std::map<std::string, Bytes> link_seeds(std::span<const std::uint8_t> payload) {
  std::map<std::string, Bytes> seeds;
  auto seed = [&](const char* name, bool with_seq, const Bytes& message) {
    Bytes bytes{static_cast<std::uint8_t>(with_seq ? 1 : 0)};
    bytes.insert(bytes.end(), message.begin(), message.end());
    seeds[name] = bytes;
  };
  Bytes out;
  encode_link(LinkType::open, 0x5EED0001, out);
  seed("open", false, out);
  encode_link(LinkType::accept, 0x5EED0001, out);
  seed("accept", false, out);
  encode_link(LinkType::close, 0x5EED0001, out);
  seed("close", true, out);
  encode_link_seq(LinkType::ack, 0x5EED0001, 17, out);
  seed("ack", true, out);
  encode_link(LinkType::data, 0x5EED0001, out);
  out.insert(out.end(), payload.begin(), payload.end());
  seed("data", false, out);
  encode_link_seq(LinkType::data, 0x5EED0001, 16, out);
  out.insert(out.end(), payload.begin(), payload.end());
  seed("data-seq", true, out);
  return seeds;
}

std::map<std::string, Bytes> hybrid_seeds(std::span<const std::uint8_t> payload) {
  std::map<std::string, Bytes> seeds;
  Bytes out;
  HybridHello hello;
  hello.tag = 0x0123456789ABCDEFull;
  hello.relay_slot = 2;
  hello.direct_port = 40001;
  hello.direct_host = "192.168.1.20";
  hello.public_endpoint = {0xC0A80114, 40001};
  encode_hybrid_hello(hello, out);
  seeds["hello"] = out;
  hello.answer = true;
  hello.public_endpoint = {};
  encode_hybrid_hello(hello, out);
  seeds["hello-answer"] = out;
  encode_hybrid_close(out);
  seeds["close"] = out;
  encode_hybrid_sequenced(5, payload, out);
  seeds["sequenced"] = out;
  encode_hybrid_datagram(payload, out);
  seeds["datagram"] = out;
  encode_hybrid_ack(6, out);
  seeds["ack"] = out;
  encode_hybrid_punch(false, out);
  seeds["punch"] = out;
  encode_hybrid_punch(true, out);
  seeds["punch-answer"] = out;
  return seeds;
}

// Scripts of the relay_client target (relay_script.hpp): a client joins, a member opens a link
// to it, data flows both ways with acks, the link closes; forgeries in the clear; a relay lost
// and joined again; a relay of another version.
std::map<std::string, Bytes> relay_client_seeds(std::span<const std::uint8_t> payload) {
  const auto chunk = [](Bytes& out, std::span<const std::uint8_t> bytes) { append_chunk(bytes, out); };
  const auto update = [](Bytes& out, std::uint8_t ms) {
    put_op(out, RelayOp::update);
    out.push_back(ms);
  };
  const auto joined = [&](Bytes& out, Slot slot, std::initializer_list<Slot> members) {
    put_op(out, RelayOp::connected);
    update(out, 5);
    put_op(out, RelayOp::joined);
    put_u16(out, slot);
    out.push_back(static_cast<std::uint8_t>(members.size()));
    for (const Slot m : members) put_u16(out, m);
    update(out, 5);
  };
  const auto link_frame = [&](Bytes& out, std::uint8_t link, Slot from, Channel channel, LinkType type,
                              std::uint32_t seq, std::span<const std::uint8_t> bytes) {
    put_op(out, RelayOp::link_frame);
    out.push_back(link);
    put_u16(out, from);
    out.push_back(static_cast<std::uint8_t>(channel));
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint8_t>(type) - 1));
    put_u32(out, seq);
    chunk(out, bytes);
  };
  std::map<std::string, Bytes> seeds;
  Bytes out, message;

  // A member (slot 3) opens a link to this client (slot 2), which it then uses both ways.
  joined(out, 2, {1, 3});
  encode_link(LinkType::open, 0x5EED0001, message);
  Bytes deliver;
  encode_deliver(3, message, deliver);
  put_op(out, RelayOp::sealed);
  out.push_back(static_cast<std::uint8_t>(Channel::control));
  chunk(out, deliver);
  update(out, 16);
  link_frame(out, 0, 3, Channel::control, LinkType::data, 0, payload);
  link_frame(out, 0, 3, Channel::state, LinkType::data, 0, payload);
  update(out, 16);
  put_op(out, RelayOp::send);
  out.push_back(0);
  out.push_back(static_cast<std::uint8_t>(Channel::control));
  chunk(out, payload);
  link_frame(out, 0, 3, Channel::control, LinkType::ack, 1, {});
  update(out, 16);
  link_frame(out, 0, 3, Channel::control, LinkType::close, 0, {});
  update(out, 16);
  seeds["accepted-link"] = out;

  // This client opens a link to slot 1, which accepts it; then the path forges a close in the
  // clear, and the relay is lost and joined again.
  out.clear();
  joined(out, 2, {1});
  put_op(out, RelayOp::open_link);
  put_u16(out, 1);
  update(out, 16);
  link_frame(out, 0, 1, Channel::control, LinkType::accept, 0, {});
  update(out, 16);
  encode_link(LinkType::close, 0x5EED0001, message);
  encode_deliver(1, message, deliver);
  put_op(out, RelayOp::raw);
  out.push_back(static_cast<std::uint8_t>(Channel::control));
  chunk(out, deliver);
  update(out, 250);
  put_op(out, RelayOp::lost);
  update(out, 250);
  joined(out, 2, {1});
  update(out, 250);
  seeds["opened-link"] = out;

  // The members come and go, sealed.
  out.clear();
  joined(out, 5, {});
  encode_member_joined({7, {kLoopback, 40007}}, message);
  put_op(out, RelayOp::sealed);
  out.push_back(static_cast<std::uint8_t>(Channel::control));
  chunk(out, message);
  encode_member_left(7, message);
  put_op(out, RelayOp::sealed);
  out.push_back(static_cast<std::uint8_t>(Channel::control));
  chunk(out, message);
  update(out, 100);
  seeds["members"] = out;

  // A relay of another version, and one that refuses.
  out.clear();
  put_op(out, RelayOp::connected);
  update(out, 5);
  encode_version_refusal(kRelayProtocolVersion, message);
  message[1] = static_cast<std::uint8_t>(kRelayProtocolVersion + 1);
  put_op(out, RelayOp::raw);
  out.push_back(0);
  chunk(out, message);
  update(out, 5);
  seeds["version-refusal"] = out;
  out.clear();
  put_op(out, RelayOp::connected);
  update(out, 5);
  encode_refused(RefusalReason::session_full, message);
  put_op(out, RelayOp::raw);
  out.push_back(0);
  chunk(out, message);
  update(out, 5);
  seeds["refused"] = out;
  return seeds;
}

std::map<std::string, Bytes> discovery_seeds() {
  return {{"loopback", encode_announcement({"shoal-lan-match", {"127.0.0.1", 40000}, wire::kProtocolVersion})},
          {"any-address", encode_announcement({"arena", {"0.0.0.0", 45000}, wire::kProtocolVersion})}};
}

}  // namespace

NamedSeeds protocol_seeds(std::span<const std::uint8_t> payload) {
  Bytes link_data;
  encode_link(LinkType::data, 0x5EED0001, link_data);
  link_data.insert(link_data.end(), payload.begin(), payload.end());
  return {{"relay_protocol", relay_seeds(link_data)},
          {"relay_client", relay_client_seeds(payload)},
          {"relay_link", link_seeds(payload)},
          {"hybrid_frames", hybrid_seeds(payload)},
          {"lan_discovery", discovery_seeds()}};
}

}  // namespace shoal::fuzz
