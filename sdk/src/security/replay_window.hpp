// SPDX-License-Identifier: MIT
// Which sequence numbers of one channel of one link have been accepted (wire/SPEC.md,
// "Envelope"): each is accepted once, and one kSize or more behind the newest is refused as too
// old to tell. A slot per sequence modulo kSize holds the last sequence accepted there.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace shoal::security {

class ReplayWindow {
 public:
  static constexpr std::size_t kSize = 256;

  ReplayWindow() { slots_.fill(kEmpty); }

  /// Whether `sequence` would be new (not accepted before, not too old).
  bool fresh(std::uint32_t sequence) const {
    if (any_ && std::uint64_t{sequence} + kSize <= newest_) return false;
    return slots_[sequence % kSize] != sequence;
  }
  /// Records `sequence` as accepted; call only for a fresh one that authenticated.
  void accept(std::uint32_t sequence) {
    slots_[sequence % kSize] = sequence;
    if (!any_ || sequence > newest_) newest_ = sequence;
    any_ = true;
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  // no u32 sequence equals it
  std::array<std::uint64_t, kSize> slots_{};
  std::uint64_t newest_ = 0;
  bool any_ = false;
};

}  // namespace shoal::security
