// SPDX-License-Identifier: MIT
#include "transport/resumable_stream.hpp"

namespace shoal::transport {
namespace {

std::int32_t distance(std::uint32_t from, std::uint32_t to) { return static_cast<std::int32_t>(to - from); }

}  // namespace

std::uint32_t ResumableStream::push(std::span<const std::uint8_t> bytes) {
  unacked_.push_back({next_seq_, {bytes.begin(), bytes.end()}});
  unacked_bytes_ += bytes.size();
  return next_seq_++;
}

bool ResumableStream::acknowledge(std::uint32_t next_expected) {
  bool freed = false;
  // An ack from the future (hostile or corrupt) frees nothing it could not have received.
  if (distance(next_expected, next_seq_) < 0) return false;
  while (!unacked_.empty() && distance(unacked_.front().seq, next_expected) > 0) {
    unacked_bytes_ -= unacked_.front().bytes.size();
    unacked_.pop_front();
    freed = true;
  }
  return freed;
}

ResumableStream::Verdict ResumableStream::receive(std::uint32_t seq) {
  const std::int32_t ahead = distance(next_expected_, seq);
  if (ahead < 0) return Verdict::duplicate;
  if (ahead > 0) return Verdict::gap;
  ++next_expected_;
  return Verdict::deliver;
}

}  // namespace shoal::transport
