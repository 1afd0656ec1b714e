// SPDX-License-Identifier: MIT
#include "transport/hybrid_frames.hpp"

#include <algorithm>

namespace shoal::transport {
namespace {

template <class Unsigned>
void put(std::vector<std::uint8_t>& out, Unsigned value) {
  for (std::size_t i = 0; i < sizeof(Unsigned); ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// Reads little-endian integers off the front of a span; any read past the end fails for good.
struct Reader {
  std::span<const std::uint8_t> rest;
  bool ok = true;

  template <class Unsigned>
  Unsigned take() {
    if (rest.size() < sizeof(Unsigned)) {
      ok = false;
      return 0;
    }
    Unsigned value = 0;
    for (std::size_t i = 0; i < sizeof(Unsigned); ++i) value |= static_cast<Unsigned>(Unsigned{rest[i]} << (8 * i));
    rest = rest.subspan(sizeof(Unsigned));
    return value;
  }
};

}  // namespace

void encode_hybrid_hello(const HybridHello& hello, std::vector<std::uint8_t>& out) {
  out.clear();
  out.push_back(static_cast<std::uint8_t>(HybridFrameType::hello));
  out.push_back(hello.answer ? 1 : 0);
  put(out, hello.tag);
  put(out, hello.relay_slot);
  put(out, hello.direct_port);
  put(out, hello.public_endpoint.ipv4);
  put(out, hello.public_endpoint.port);
  const std::size_t host_size = std::min(hello.direct_host.size(), kMaxHybridHostSize);
  out.push_back(static_cast<std::uint8_t>(host_size));
  out.insert(out.end(), hello.direct_host.begin(), hello.direct_host.begin() + static_cast<std::ptrdiff_t>(host_size));
}

void encode_hybrid_close(std::vector<std::uint8_t>& out) {
  out.assign(1, static_cast<std::uint8_t>(HybridFrameType::close));
}

void encode_hybrid_sequenced(std::uint32_t seq, std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out) {
  out.assign(1, static_cast<std::uint8_t>(HybridFrameType::sequenced));
  put(out, seq);
  out.insert(out.end(), payload.begin(), payload.end());
}

void encode_hybrid_datagram(std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out) {
  out.assign(1, static_cast<std::uint8_t>(HybridFrameType::datagram));
  out.insert(out.end(), payload.begin(), payload.end());
}

void encode_hybrid_ack(std::uint32_t next_expected, std::vector<std::uint8_t>& out) {
  out.assign(1, static_cast<std::uint8_t>(HybridFrameType::ack));
  put(out, next_expected);
}

void encode_hybrid_punch(bool answer, std::vector<std::uint8_t>& out) {
  out.assign(1, static_cast<std::uint8_t>(HybridFrameType::punch));
  out.push_back(answer ? 1 : 0);
}

bool decode_hybrid(std::span<const std::uint8_t> bytes, HybridFrame& out) {
  Reader in{bytes};
  out.type = static_cast<HybridFrameType>(in.take<std::uint8_t>());
  out.payload = {};
  switch (out.type) {
    case HybridFrameType::hello: {
      const std::uint8_t answer = in.take<std::uint8_t>();
      out.hello.answer = answer == 1;
      out.hello.tag = in.take<std::uint64_t>();
      out.hello.relay_slot = in.take<std::uint16_t>();
      out.hello.direct_port = in.take<std::uint16_t>();
      out.hello.public_endpoint.ipv4 = in.take<std::uint32_t>();
      out.hello.public_endpoint.port = in.take<std::uint16_t>();
      const std::uint8_t host_size = in.take<std::uint8_t>();
      if (!in.ok || answer > 1 || in.rest.size() != host_size) return false;
      out.hello.direct_host.assign(in.rest.begin(), in.rest.end());
      return true;
    }
    case HybridFrameType::close: return in.ok && in.rest.empty();
    case HybridFrameType::sequenced:
      out.seq = in.take<std::uint32_t>();
      out.payload = in.rest;
      return in.ok;
    case HybridFrameType::datagram:
      out.payload = in.rest;
      return in.ok;
    case HybridFrameType::ack:
      out.seq = in.take<std::uint32_t>();
      return in.ok && in.rest.empty();
    case HybridFrameType::punch: {
      const std::uint8_t answer = in.take<std::uint8_t>();
      out.punch_answer = answer == 1;
      return in.ok && answer <= 1 && in.rest.empty();
    }
  }
  return false;
}

}  // namespace shoal::transport
