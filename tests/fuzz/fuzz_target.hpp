// SPDX-License-Identifier: MIT
// What every fuzz target is written with. A target is one function from bytes to nothing,
// declared with SHOAL_FUZZ_TARGET(name): built with SHOAL_FUZZ it is libFuzzer's entry point
// (LLVMFuzzerTestOneInput); in the normal build it joins the targets that shoal-fuzz-replay
// runs on every file of a corpus (the `fuzz: ...` tests). Both call the same function, so a
// corpus replayed by CI goes through exactly the decoding paths the fuzzer explored.
//
// A target feeds its input to a decoder the way the SDK does, then checks what must hold for
// any input (FUZZ_CHECK): a rejected input has a reason, an accepted one re-encodes to the same
// bytes, nothing decoded is NaN... A failed check aborts, which both the fuzzer and the replay
// report as a crash. Sanitizer reports (ASan, UBSan, leaks) end the run the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

namespace shoal::fuzz {

using TargetFunction = int (*)(const std::uint8_t* data, std::size_t size);

/// Makes a target known to shoal-fuzz-replay (the normal build); returns true.
bool register_target(const char* name, TargetFunction function);

[[noreturn]] inline void check_failed(const char* condition, const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz check failed: %s (%s)\n", file, line, what, condition);
  std::abort();
}

/// Takes bytes off the front of a fuzz input, to split one input into several datagrams or
/// choices. Past the end every read gives zeros or nothing: a target never reads out of bounds.
class InputCursor {
 public:
  InputCursor(const std::uint8_t* data, std::size_t size) : rest_(data, size) {}
  bool empty() const { return rest_.empty(); }
  std::size_t left() const { return rest_.size(); }
  std::uint8_t u8() {
    if (rest_.empty()) return 0;
    const std::uint8_t v = rest_.front();
    rest_ = rest_.subspan(1);
    return v;
  }
  std::uint16_t u16() {
    const std::uint8_t low = u8();
    return static_cast<std::uint16_t>(low | (u8() << 8));
  }
  /// Up to `size` bytes (fewer at the end of the input).
  std::span<const std::uint8_t> bytes(std::size_t size) {
    const std::span<const std::uint8_t> taken = rest_.first(size < rest_.size() ? size : rest_.size());
    rest_ = rest_.subspan(taken.size());
    return taken;
  }
  /// A length-prefixed chunk: u16 length, then that many bytes.
  std::span<const std::uint8_t> chunk() { return bytes(u16()); }

 private:
  std::span<const std::uint8_t> rest_;
};

}  // namespace shoal::fuzz

/// Aborts with a message when `condition` is false: a property every input must keep.
#define FUZZ_CHECK(condition, what) \
  ((condition) ? static_cast<void>(0) : ::shoal::fuzz::check_failed(#condition, what, __FILE__, __LINE__))

#if defined(SHOAL_FUZZ_LIBFUZZER)
#define SHOAL_FUZZ_REGISTER(name)                                                  \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    return shoal_fuzz_##name(data, size);                                          \
  }
#else
#define SHOAL_FUZZ_REGISTER(name) \
  [[maybe_unused]] static const bool shoal_fuzz_registered_##name = ::shoal::fuzz::register_target(#name, shoal_fuzz_##name);
#endif

/// Defines the target `name`: SHOAL_FUZZ_TARGET(snapshot) { ...use data and size...; return 0; }
#define SHOAL_FUZZ_TARGET(name)                                            \
  static int shoal_fuzz_##name(const std::uint8_t* data, std::size_t size); \
  SHOAL_FUZZ_REGISTER(name)                                                \
  static int shoal_fuzz_##name(const std::uint8_t* data, std::size_t size)
