// SPDX-License-Identifier: MIT
#include "wire/dismissal.hpp"

#include <algorithm>

namespace shoal::wire {
namespace {

void put_text(std::string_view text, std::vector<std::uint8_t>& out) {
  const std::size_t length = std::min(text.size(), kMaxDismissalReason);
  out.push_back(static_cast<std::uint8_t>(length & 0xFF));
  out.push_back(static_cast<std::uint8_t>(length >> 8));
  out.insert(out.end(), text.begin(), text.begin() + static_cast<std::ptrdiff_t>(length));
}

// The rest of `body` from `at`: a u16 length and exactly that many bytes.
DecodeStatus read_text(std::span<const std::uint8_t> body, std::size_t at, std::string& text) {
  if (body.size() < at + 2) return DropReason::truncated;
  const std::size_t length = body[at] | (std::size_t{body[at + 1]} << 8);
  if (length > kMaxDismissalReason) return DropReason::malformed;
  if (body.size() < at + 2 + length) return DropReason::truncated;
  if (body.size() > at + 2 + length) return DropReason::malformed;
  text.assign(body.begin() + static_cast<std::ptrdiff_t>(at + 2), body.end());
  return DecodeStatus::success();
}

}  // namespace

const char* to_string(DismissalCause cause) {
  switch (cause) {
    case DismissalCause::not_invited: return "not_invited";
    case DismissalCause::wrong_session: return "wrong_session";
    case DismissalCause::token_expired: return "token_expired";
    case DismissalCause::revoked: return "revoked";
    case DismissalCause::invitation_used: return "invitation_used";
    case DismissalCause::not_admitting: return "not_admitting";
    case DismissalCause::rejoin_refused: return "rejoin_refused";
  }
  return "unknown";
}

void encode(const Dismissal& dismissal, std::vector<std::uint8_t>& out) {
  write_header(MessageKind::dismissal, out);
  out.push_back(static_cast<std::uint8_t>(dismissal.cause));
  put_text(dismissal.reason, out);
}

DecodeStatus decode(std::span<const std::uint8_t> datagram, Dismissal& dismissal) {
  if (const DecodeStatus status = expect_header(datagram, MessageKind::dismissal); !status) return status;
  if (datagram.size() < kHeaderSize + 1) return DropReason::truncated;
  const std::uint8_t cause = datagram[kHeaderSize];
  if (cause < static_cast<std::uint8_t>(DismissalCause::not_invited) ||
      cause > static_cast<std::uint8_t>(DismissalCause::rejoin_refused)) {
    return DropReason::malformed;
  }
  dismissal.cause = static_cast<DismissalCause>(cause);
  return read_text(datagram, kHeaderSize + 1, dismissal.reason);
}

void encode(const LinkNotice& notice, std::vector<std::uint8_t>& out) {
  write_header(MessageKind::link_notice, out);
  out.push_back(static_cast<std::uint8_t>(notice.kind));
  if (notice.kind == LinkNoticeKind::identity) {
    out.push_back(notice.single_use ? 1 : 0);
    out.insert(out.end(), notice.key.begin(), notice.key.end());
  } else {
    put_text(notice.reason, out);
  }
}

DecodeStatus decode(std::span<const std::uint8_t> datagram, LinkNotice& notice) {
  if (const DecodeStatus status = expect_header(datagram, MessageKind::link_notice); !status) return status;
  if (datagram.size() < kHeaderSize + 1) return DropReason::truncated;
  switch (static_cast<LinkNoticeKind>(datagram[kHeaderSize])) {
    case LinkNoticeKind::identity: {
      constexpr std::size_t kSize = kHeaderSize + 1 + 1 + 32;
      if (datagram.size() < kSize) return DropReason::truncated;
      if (datagram.size() > kSize) return DropReason::malformed;
      const std::uint8_t flags = datagram[kHeaderSize + 1];
      if (flags > 1) return DropReason::malformed;
      notice.kind = LinkNoticeKind::identity;
      notice.single_use = flags == 1;
      std::copy_n(datagram.begin() + kHeaderSize + 2, notice.key.size(), notice.key.begin());
      notice.reason.clear();
      return DecodeStatus::success();
    }
    case LinkNoticeKind::revoked:
      notice.kind = LinkNoticeKind::revoked;
      notice.key = {};
      notice.single_use = false;
      return read_text(datagram, kHeaderSize + 1, notice.reason);
  }
  return DropReason::malformed;
}

}  // namespace shoal::wire
