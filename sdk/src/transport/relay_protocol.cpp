// SPDX-License-Identifier: MIT
#include "transport/relay_protocol.hpp"

#include <algorithm>

namespace shoal::transport {
namespace {

constexpr std::uint8_t kMagic = 0xB7;
constexpr std::uint8_t kVersion = kRelayProtocolVersion;
// Crockford-like: no 0/O, 1/I/L, so a code read aloud or typed is unambiguous.
constexpr std::string_view kCodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out) { out_.clear(); }
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v) {
    u8(static_cast<std::uint8_t>(v));
    u8(static_cast<std::uint8_t>(v >> 8));
  }
  void u32(std::uint32_t v) {
    u16(static_cast<std::uint16_t>(v));
    u16(static_cast<std::uint16_t>(v >> 16));
  }
  void text(std::string_view s) {  // callers bound sizes to < 256
    u8(static_cast<std::uint8_t>(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }
  void endpoint(const Endpoint& e) {
    u32(e.ipv4);
    u16(e.port);
  }
  void bytes(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void key(const HopKey& k) { bytes(k); }
  void header(RelayKind kind) {
    u8(kMagic);
    u8(kVersion);
    u8(static_cast<std::uint8_t>(kind));
  }

 private:
  std::vector<std::uint8_t>& out_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  bool u8(std::uint8_t& v) {
    if (left() < 1) return fail(DropReason::truncated);
    v = bytes_[at_++];
    return true;
  }
  bool u16(std::uint16_t& v) {
    std::uint8_t lo = 0, hi = 0;
    if (!u8(lo) || !u8(hi)) return false;
    v = static_cast<std::uint16_t>(lo | (hi << 8));
    return true;
  }
  bool u32(std::uint32_t& v) {
    std::uint16_t lo = 0, hi = 0;
    if (!u16(lo) || !u16(hi)) return false;
    v = lo | (std::uint32_t{hi} << 16);
    return true;
  }
  bool text(std::string& s, std::size_t max) {
    std::uint8_t size = 0;
    if (!u8(size)) return false;
    if (size > max) return fail(DropReason::oversize);
    if (left() < size) return fail(DropReason::truncated);
    s.assign(reinterpret_cast<const char*>(bytes_.data() + at_), size);
    at_ += size;
    return true;
  }
  bool endpoint(Endpoint& e) { return u32(e.ipv4) && u16(e.port); }
  bool key(HopKey& k) {
    if (left() < k.size()) return fail(DropReason::truncated);
    std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(at_), k.size(), k.begin());
    at_ += k.size();
    return true;
  }
  std::span<const std::uint8_t> rest() {
    auto r = bytes_.subspan(at_);
    at_ = bytes_.size();
    return r;
  }
  bool finish() { return left() == 0 ? true : fail(DropReason::oversize); }
  std::size_t left() const { return bytes_.size() - at_; }
  bool fail(DropReason reason) {
    why = reason;
    return false;
  }
  DropReason why = DropReason::malformed;

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

bool valid_refusal(std::uint8_t r) { return r >= 1 && r <= 8; }

}  // namespace

std::string_view to_string(RefusalReason reason) {
  switch (reason) {
    case RefusalReason::bad_token: return "bad token";
    case RefusalReason::slot_taken: return "slot taken";
    case RefusalReason::no_such_session: return "no such session";
    case RefusalReason::relay_full: return "relay full";
    case RefusalReason::session_full: return "session full";
    case RefusalReason::code_collision: return "code collision";
    case RefusalReason::expelled: return "expelled from the session";
    case RefusalReason::version_mismatch: return "another relay protocol version";
  }
  return "unknown";
}

std::string session_code(std::string_view session) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;  // FNV-1a, then a final mix
  for (const char c : session) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 0x100000001B3ULL;
  }
  hash ^= hash >> 29;
  std::string code;
  for (std::size_t i = 0; i < kSessionCodeSize; ++i) {
    code.push_back(kCodeAlphabet[hash % kCodeAlphabet.size()]);
    hash /= kCodeAlphabet.size();
  }
  return code;
}

void encode_join(const JoinMessage& m, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::join);
  w.text(m.session.substr(0, kMaxSessionIdSize));
  w.text(m.code.substr(0, kSessionCodeSize));
  w.text(m.token.substr(0, kMaxTokenSize));
  w.u16(m.requested_slot);
  w.key(m.client_key);
}

void encode_forward(Slot to, std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::forward);
  w.u16(to);
  w.bytes(payload);
}

void encode_list_sessions(std::vector<std::uint8_t>& out) { Writer(out).header(RelayKind::list_sessions); }

void encode_joined(const JoinedMessage& m, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::joined);
  w.u16(m.slot);
  w.text(m.session);
  w.text(m.code);
  w.endpoint(m.your_public_endpoint);
  w.u16(static_cast<std::uint16_t>(m.members.size()));
  for (const RelayMember& member : m.members) {
    w.u16(member.slot);
    w.endpoint(member.public_endpoint);
  }
  w.key(m.relay_key);
}

void encode_refused(RefusalReason reason, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::refused);
  w.u8(static_cast<std::uint8_t>(reason));
}

void encode_deliver(Slot from, std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::deliver);
  w.u16(from);
  w.bytes(payload);
}

void encode_member_joined(const RelayMember& member, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::member_joined);
  w.u16(member.slot);
  w.endpoint(member.public_endpoint);
}

void encode_member_left(Slot slot, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::member_left);
  w.u16(slot);
}

void encode_session_list(std::span<const SessionInfo> sessions, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::session_list);
  const std::size_t count = std::min(sessions.size(), kMaxListedSessions);
  w.u16(static_cast<std::uint16_t>(count));
  for (std::size_t i = 0; i < count; ++i) {
    w.text(sessions[i].session);
    w.text(sessions[i].code);
    w.u16(sessions[i].members);
  }
}

void encode_sealed_header(std::vector<std::uint8_t>& out) { Writer(out).header(RelayKind::sealed); }

void encode_version_refusal(std::uint8_t client_version, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.header(RelayKind::refused);
  w.u8(static_cast<std::uint8_t>(RefusalReason::version_mismatch));
  w.u8(client_version);
}

std::uint8_t relay_version_of(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 2 && bytes[0] == kMagic ? bytes[1] : 0;
}

bool is_join_of_any_version(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 3 && bytes[0] == kMagic && bytes[2] == static_cast<std::uint8_t>(RelayKind::join);
}

namespace {

// A version refusal is read whatever its version byte: it is what tells a client of another
// version which version the relay speaks.
bool decode_version_refusal(std::span<const std::uint8_t> bytes, RelayMessage& out) {
  constexpr std::size_t kSize = 5;
  if (bytes.size() != kSize || bytes[0] != kMagic || bytes[2] != static_cast<std::uint8_t>(RelayKind::refused) ||
      bytes[3] != static_cast<std::uint8_t>(RefusalReason::version_mismatch)) {
    return false;
  }
  out.kind = RelayKind::refused;
  out.refusal = RefusalReason::version_mismatch;
  out.relay_version = bytes[1];
  out.client_version = bytes[4];
  return true;
}

}  // namespace

bool decode_relay(std::span<const std::uint8_t> bytes, RelayMessage& out, DropReason& why) {
  if (decode_version_refusal(bytes, out)) return true;
  Reader r(bytes);
  std::uint8_t magic = 0, version = 0, kind = 0;
  const auto failed = [&] {
    why = r.why;
    return false;
  };
  if (!r.u8(magic)) return failed();
  if (magic != kMagic) return (why = DropReason::bad_magic, false);
  if (!r.u8(version)) return failed();
  if (version != kVersion) return (why = DropReason::unsupported_version, false);
  if (!r.u8(kind)) return failed();
  out.kind = static_cast<RelayKind>(kind);
  bool ok = false;
  switch (out.kind) {
    case RelayKind::join:
      ok = r.text(out.join.session, kMaxSessionIdSize) && r.text(out.join.code, kSessionCodeSize) &&
           r.text(out.join.token, kMaxTokenSize) && r.u16(out.join.requested_slot) && r.key(out.join.client_key) &&
           r.finish();
      if (ok && out.join.session.empty() && out.join.code.empty()) r.why = DropReason::malformed, ok = false;
      if (ok && out.join.requested_slot == kBroadcastSlot) r.why = DropReason::malformed, ok = false;
      break;
    case RelayKind::forward:
    case RelayKind::deliver:
      ok = r.u16(out.slot);
      out.payload = r.rest();
      break;
    case RelayKind::sealed:
      out.payload = r.rest();
      ok = true;
      break;
    case RelayKind::list_sessions: ok = r.finish(); break;
    case RelayKind::joined: {
      std::uint16_t count = 0;
      ok = r.u16(out.joined.slot) && r.text(out.joined.session, kMaxSessionIdSize) &&
           r.text(out.joined.code, kSessionCodeSize) && r.endpoint(out.joined.your_public_endpoint) &&
           r.u16(count);
      if (ok && count > kMaxMembersPerSession) r.why = DropReason::oversize, ok = false;
      out.joined.members.clear();
      for (std::uint16_t i = 0; ok && i < count; ++i) {
        RelayMember m;
        ok = r.u16(m.slot) && r.endpoint(m.public_endpoint);
        out.joined.members.push_back(m);
      }
      ok = ok && r.key(out.joined.relay_key) && r.finish();
      break;
    }
    case RelayKind::refused: {
      std::uint8_t reason = 0;
      ok = r.u8(reason) && r.finish();
      // version_mismatch has its own layout, read above; without its version byte it is malformed.
      if (ok && (!valid_refusal(reason) || reason == static_cast<std::uint8_t>(RefusalReason::version_mismatch))) {
        r.why = DropReason::malformed, ok = false;
      }
      out.refusal = static_cast<RefusalReason>(reason);
      break;
    }
    case RelayKind::member_joined: ok = r.u16(out.slot) && r.endpoint(out.endpoint) && r.finish(); break;
    case RelayKind::member_left: ok = r.u16(out.slot) && r.finish(); break;
    case RelayKind::session_list: {
      std::uint16_t count = 0;
      ok = r.u16(count);
      if (ok && count > kMaxListedSessions) r.why = DropReason::oversize, ok = false;
      out.sessions.clear();
      for (std::uint16_t i = 0; ok && i < count; ++i) {
        SessionInfo s;
        ok = r.text(s.session, kMaxSessionIdSize) && r.text(s.code, kSessionCodeSize) && r.u16(s.members);
        out.sessions.push_back(std::move(s));
      }
      ok = ok && r.finish();
      break;
    }
    default: r.why = DropReason::unknown_kind; break;
  }
  if (!ok) return failed();
  return true;
}

void encode_link(LinkType type, std::uint32_t tag, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.u8(static_cast<std::uint8_t>(type));
  w.u32(tag);
}

void encode_link_seq(LinkType type, std::uint32_t tag, std::uint32_t seq, std::vector<std::uint8_t>& out) {
  Writer w(out);
  w.u8(static_cast<std::uint8_t>(type));
  w.u32(tag);
  w.u32(seq);
}

bool decode_link(std::span<const std::uint8_t> bytes, bool data_has_seq, LinkMessage& out) {
  Reader r(bytes);
  std::uint8_t type = 0;
  if (!r.u8(type) || type < 1 || type > 5 || !r.u32(out.tag)) return false;
  out.type = static_cast<LinkType>(type);
  out.seq = 0;
  out.payload = {};
  switch (out.type) {
    case LinkType::open:
    case LinkType::accept:
    case LinkType::close: return r.finish();
    case LinkType::ack: return r.u32(out.seq) && r.finish();
    case LinkType::data:
      if (data_has_seq && !r.u32(out.seq)) return false;
      out.payload = r.rest();
      return true;
  }
  return false;
}

}  // namespace shoal::transport
