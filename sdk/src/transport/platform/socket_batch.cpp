// SPDX-License-Identifier: MIT
// receive_many() for both sides: one receive_from() per slot. A side with a batch call
// (recvmmsg on Linux) replaces this with one system call per batch.
#include "transport/platform/socket.hpp"

namespace shoal::transport::platform {

std::size_t receive_many(SocketHandle socket, std::span<ReceiveSlot> slots) {
  std::size_t filled = 0;
  for (ReceiveSlot& slot : slots) {
    const std::optional<Received> received = receive_from(socket, slot.buffer);
    if (!received) break;
    slot.received = *received;
    ++filled;
  }
  return filled;
}

}  // namespace shoal::transport::platform
