// SPDX-License-Identifier: MIT
// Recordings (wire/recording_codec.hpp, read by shoal::Replay): any bytes read record by record
// give a verdict with a reason, every record inside the input; a recording that reads whole, or
// up to where it is cut short (the fuzzer's length limit cuts the recorded seeds, as a crashed
// process cuts its file), is then replayed as shoal::Replay replays a file, on the fuzz world
// (fuzz_world.hpp), whose recorded seeds it matches. A damaged recording may be refused with the
// exceptions Replay documents, never crash it.
#include <sys/mman.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "fuzz_target.hpp"
#include "fuzz_world.hpp"
#include "shoal/recording.hpp"
#include "wire/recording_codec.hpp"

using namespace shoal;

namespace {

// How much of the recording replays: all of it when it reads whole, up to its last whole record
// when its last one is cut short, nothing (0) when a record is damaged. Checks each record
// against the input it came from.
std::size_t replayable(std::span<const std::uint8_t> bytes) {
  wire::RecordingReader reader(bytes);
  wire::RecordingHeader header;
  if (const wire::DecodeStatus status = reader.header(header); !status) {
    FUZZ_CHECK(status.reason() < DropReason::count, "a refused header names a reason");
    return 0;
  }
  wire::Record record;
  for (bool at_end = false;;) {
    const std::size_t before = reader.offset();
    if (const wire::DecodeStatus status = reader.next(record, at_end); !status) {
      FUZZ_CHECK(status.reason() < DropReason::count, "a refused record names a reason");
      return status.reason() == DropReason::truncated ? before : 0;
    }
    if (at_end) return bytes.size();
    FUZZ_CHECK(reader.offset() > before && reader.offset() <= bytes.size(), "a record is inside the recording");
    if (record.kind == wire::RecordKind::poll && record.event == TransportEventKind::message) {
      FUZZ_CHECK(record.payload.empty() || (record.payload.data() >= bytes.data() &&
                                            record.payload.data() + record.payload.size() <= bytes.data() + bytes.size()),
                 "a recorded datagram is a view into the recording");
    }
  }
}

// Replay takes a file: the input goes into an anonymous one in memory.
class MemoryFile {
 public:
  explicit MemoryFile(std::span<const std::uint8_t> bytes) : fd_(::memfd_create("shoal-fuzz-recording", MFD_CLOEXEC)) {
    FUZZ_CHECK(fd_ >= 0, "memfd_create works");
    for (std::size_t written = 0; written < bytes.size();) {
      const ssize_t n = ::write(fd_, bytes.data() + written, bytes.size() - written);
      FUZZ_CHECK(n > 0, "writing the recording to memory works");
      written += static_cast<std::size_t>(n);
    }
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace

SHOAL_FUZZ_TARGET(recording) {
  const std::span<const std::uint8_t> input(data, size);
  const std::size_t length = replayable(input);
  if (length == 0) return 0;
  const MemoryFile file(input.first(length));
  const std::unique_ptr<ReferencePhysics> world = fuzz::make_fuzz_world();
  try {
    const Replay replay(file.path());
    const ReplayReport report = replay.run(*world);
    FUZZ_CHECK(report.identical || !report.first_difference.empty(), "a replay that differs says where");
  } catch (const std::invalid_argument&) {
    // Another world, or a config no peer accepts: refused, as Replay documents.
  } catch (const std::runtime_error&) {
    // Not readable as a recording after all: refused, as Replay documents.
  }
  return 0;
}
