// SPDX-License-Identifier: MIT
// Little-endian byte writing and bounded reading for the security layer's formats
// (wire/SPEC.md, "Secured links").
// A Reader never reads past its span: a short read fails and stays failed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace shoal::security {

inline void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_bytes(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  /// The next n bytes, or an empty span (and failed()) when fewer are left.
  std::span<const std::uint8_t> take(std::size_t n) {
    if (failed_ || bytes_.size() - at_ < n) {
      failed_ = true;
      return {};
    }
    const auto taken = bytes_.subspan(at_, n);
    at_ += n;
    return taken;
  }
  std::uint8_t u8() {
    const auto b = take(1);
    return b.empty() ? 0 : b[0];
  }
  std::uint64_t u64() {
    const auto b = take(8);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < b.size(); ++i) v |= std::uint64_t{b[i]} << (8 * i);
    return v;
  }
  template <std::size_t N>
  void copy_to(std::array<std::uint8_t, N>& out) {
    const auto b = take(N);
    if (!b.empty()) std::memcpy(out.data(), b.data(), N);
  }
  bool failed() const { return failed_; }
  std::size_t left() const { return failed_ ? 0 : bytes_.size() - at_; }
  /// Everything read so far (for a signature over a prefix).
  std::span<const std::uint8_t> consumed() const { return bytes_.first(at_); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

}  // namespace shoal::security
