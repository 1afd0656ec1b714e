// SPDX-License-Identifier: MIT
// Bit packing. One serialize function per message, templated on the stream, both writes and
// reads (and measures) it, so the two directions cannot drift apart:
//
//   template <class Stream> bool serialize(Stream& s, Thing& t) {
//     return serialize_uint(s, t.count, 0, 100) && serialize_bool(s, t.flag);
//   }
//
// A writer into a datagram never fails (callers check sizes with a BitMeasurer first, or let
// it grow; a WordWriter, of fixed size, refuses what does not fit); a reader fails cleanly,
// remembering why, when the bits run out (truncated) or a value is outside its range
// (malformed). Bits are packed least significant first into little-endian bytes; the last
// byte is padded with zero bits.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "shoal/drop_reason.hpp"

namespace shoal::wire {

/// The low `count` bits set, for count 0..63.
constexpr std::uint64_t low_mask(int count) { return (std::uint64_t{1} << count) - 1; }

/// A value's bytes in little-endian order, as the wire packs them (and back: it is its own
/// inverse). Nothing to do on little-endian machines.
constexpr std::uint64_t little_endian(std::uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) {
    return v;
  } else {
    std::uint64_t swapped = 0;
    for (int i = 0; i < 8; ++i) swapped |= ((v >> (8 * i)) & 0xff) << (8 * (7 - i));
    return swapped;
  }
}

class BitWriter {
 public:
  static constexpr bool writing = true;
  static constexpr bool reading = false;

  /// Appends to `out` (which may already hold a byte-aligned header). The bytes are complete
  /// once finish() has run (the destructor runs it); nothing may be written after it.
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out), end_(out.size()) {
    out_.resize(end_ + kRoom);
  }
  ~BitWriter() { finish(); }
  BitWriter(const BitWriter&) = delete;
  BitWriter& operator=(const BitWriter&) = delete;

  /// Writes the low `count` bits (0..32) of value. They gather in a 64-bit word, which goes
  /// out four bytes at a time into room made ahead: no vector call per field.
  bool bits(std::uint32_t& value, int count) {
    pending_ |= (value & low_mask(count)) << pending_bits_;
    pending_bits_ += count;
    bit_ += static_cast<std::size_t>(count);
    if (pending_bits_ >= 32) {
      if (out_.size() - end_ < sizeof(std::uint32_t)) out_.resize(out_.size() + kRoom);
      const std::uint64_t word = little_endian(pending_);  // its low four bytes first
      std::memcpy(out_.data() + end_, &word, sizeof(std::uint32_t));
      end_ += sizeof(std::uint32_t);
      pending_ >>= 32;
      pending_bits_ -= 32;
    }
    return true;
  }
  bool fail(DropReason) { return false; }  // writers are given valid values
  std::size_t bits_used() const { return bit_; }
  /// Writes the first `count` bits of `words` (a WordWriter's), as bits() would have written
  /// them one field at a time.
  void append(std::span<const std::uint64_t> words, std::size_t count) {
    for (std::size_t done = 0; done < count; done += 32) {
      auto chunk = static_cast<std::uint32_t>(words[done / 64] >> (done % 64));
      bits(chunk, static_cast<int>(std::min<std::size_t>(32, count - done)));
    }
  }

  /// Writes out the last partial bytes (zero-padded) and cuts `out` to what was written.
  void finish() {
    if (finished_) return;
    finished_ = true;
    const std::size_t tail = static_cast<std::size_t>(pending_bits_ + 7) / 8;
    out_.resize(end_ + tail);
    const std::uint64_t rest = little_endian(pending_);
    std::memcpy(out_.data() + end_, &rest, tail);
  }

 private:
  // A datagram's worth: encoding one seldom grows the vector again.
  static constexpr std::size_t kRoom = 1280;

  std::vector<std::uint8_t>& out_;
  std::size_t end_;  // bytes of out_ written so far (it holds room beyond them)
  std::uint64_t pending_ = 0;
  int pending_bits_ = 0;  // 0..31 between calls
  std::size_t bit_ = 0;
  bool finished_ = false;
};

class BitReader {
 public:
  static constexpr bool writing = false;
  static constexpr bool reading = true;

  explicit BitReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  /// Reads `count` bits (0..32).
  [[gnu::always_inline]] bool bits(std::uint32_t& value, int count) {
    std::uint64_t wide = 0;
    if (!wide_bits(wide, count)) return false;
    value = static_cast<std::uint32_t>(wide);
    return true;
  }
  /// Reads `count` bits (0..57) at once: one 8-byte load holds the at most eight bytes they
  /// span, except in a message's last 7 bytes, which are read one by one.
  [[gnu::always_inline]] bool wide_bits(std::uint64_t& value, int count) {
    if (static_cast<std::size_t>(count) > bytes_.size() * 8 - bit_) return fail(DropReason::truncated);
    const std::size_t first = bit_ / 8;
    const int shift = static_cast<int>(bit_ % 8);
    std::uint64_t window = 0;
    if (bytes_.size() - first >= sizeof window) {
      std::memcpy(&window, bytes_.data() + first, sizeof window);
      window = little_endian(window);
    } else {
      for (std::size_t i = first; i < bytes_.size(); ++i) window |= std::uint64_t{bytes_[i]} << (8 * (i - first));
    }
    value = (window >> shift) & low_mask(count);
    bit_ += static_cast<std::size_t>(count);
    return true;
  }
  bool fail(DropReason reason) {
    if (ok_) reason_ = reason;
    ok_ = false;
    return false;
  }
  std::size_t remaining_bits() const { return bytes_.size() * 8 - bit_; }
  /// The reason of the first failure (meaningful only after one).
  DropReason reason() const { return reason_; }
  bool ok() const { return ok_; }

  /// At the end of a message: only zero padding may remain, within the last byte.
  bool finish() {
    if (!ok_) return false;
    const std::size_t total = bytes_.size() * 8;
    if (total - bit_ >= 8) return fail(DropReason::malformed);  // trailing bytes
    std::uint32_t padding = 0;
    const int rest = static_cast<int>(total - bit_);
    return bits(padding, rest) && (padding == 0 || fail(DropReason::malformed));
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t bit_ = 0;
  bool ok_ = true;
  DropReason reason_ = DropReason::count;
};

/// Writes into a fixed array of words, least significant bit first, for bits written once and
/// appended to several datagrams (BitWriter::append). Fails, writing nothing more, when the
/// array is full.
class WordWriter {
 public:
  static constexpr bool writing = true;
  static constexpr bool reading = false;

  explicit WordWriter(std::span<std::uint64_t> words) : words_(words) {}

  bool bits(std::uint32_t& value, int count) {
    if (bit_ + static_cast<std::size_t>(count) > words_.size() * 64) return false;
    const std::uint64_t v = value & low_mask(count);
    const std::size_t word = bit_ / 64;
    const std::size_t shift = bit_ % 64;
    // A word is assigned when its first bit is written, so the array needs no clearing.
    words_[word] = shift == 0 ? v : words_[word] | (v << shift);
    if (shift + static_cast<std::size_t>(count) > 64 && word + 1 < words_.size()) {
      words_[word + 1] = v >> (64 - shift);
    }
    bit_ += static_cast<std::size_t>(count);
    return true;
  }
  bool fail(DropReason) { return false; }
  std::size_t bits_used() const { return bit_; }

 private:
  std::span<std::uint64_t> words_;
  std::size_t bit_ = 0;
};

/// Counts the bits a serialize function would write, without writing.
class BitMeasurer {
 public:
  static constexpr bool writing = true;
  static constexpr bool reading = false;

  bool bits(std::uint32_t&, int count) {
    bits_ += static_cast<std::size_t>(count);
    return true;
  }
  bool fail(DropReason) { return false; }
  std::size_t bits_used() const { return bits_; }

 private:
  std::size_t bits_ = 0;
};

/// Bits needed for values 0..max.
constexpr int bits_for(std::uint32_t max) { return max == 0 ? 0 : std::bit_width(max); }

// --- field helpers, the same for every stream ---
// Every field of every record goes through them, so they are always inlined: a reader's range
// checks then fold into its caller's code (as calls they took a third of a snapshot's decoding).

/// An unsigned value in [min, max]; a reader rejects values outside it as malformed.
template <class Stream, class T>
[[gnu::always_inline]] inline bool serialize_uint(Stream& s, T& value, std::uint32_t min, std::uint32_t max) {
  std::uint32_t offset = 0;
  if constexpr (Stream::writing) {
    const auto wide = static_cast<std::int64_t>(value);
    if (wide < min || wide > max) return s.fail(DropReason::malformed);  // would not fit
    offset = static_cast<std::uint32_t>(wide - min);
  }
  if (!s.bits(offset, bits_for(max - min))) return false;
  if constexpr (Stream::reading) {
    if (offset > max - min) return s.fail(DropReason::malformed);
    value = static_cast<T>(offset + min);
  }
  return true;
}

/// A signed value in [min, max].
template <class Stream>
[[gnu::always_inline]] inline bool serialize_int(Stream& s, std::int32_t& value, std::int32_t min, std::int32_t max) {
  std::uint32_t offset = 0;
  if constexpr (Stream::writing) {
    if (value < min || value > max) return s.fail(DropReason::malformed);  // would not fit
    offset = static_cast<std::uint32_t>(static_cast<std::int64_t>(value) - min);
  }
  if (!s.bits(offset, bits_for(static_cast<std::uint32_t>(static_cast<std::int64_t>(max) - min)))) return false;
  if constexpr (Stream::reading) {
    if (offset > static_cast<std::uint32_t>(max - min)) return s.fail(DropReason::malformed);
    value = static_cast<std::int32_t>(static_cast<std::int64_t>(min) + offset);
  }
  return true;
}

template <class Stream>
[[gnu::always_inline]] inline bool serialize_bool(Stream& s, bool& value) {
  std::uint32_t bit = value ? 1 : 0;
  if (!s.bits(bit, 1)) return false;
  if constexpr (Stream::reading) value = bit != 0;
  return true;
}

/// Full 32 bits; a reader rejects NaN and infinities as malformed.
template <class Stream>
[[gnu::always_inline]] inline bool serialize_float(Stream& s, float& value) {
  std::uint32_t raw = 0;
  if constexpr (Stream::writing) raw = std::bit_cast<std::uint32_t>(value);
  if (!s.bits(raw, 32)) return false;
  if constexpr (Stream::reading) {
    value = std::bit_cast<float>(raw);
    if (!std::isfinite(value)) return s.fail(DropReason::malformed);
  }
  return true;
}

}  // namespace shoal::wire
