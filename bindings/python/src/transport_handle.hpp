// SPDX-License-Identifier: MIT
// shoal.Transport: a transport made in Python (ENet, the in-process network, a relay, a hybrid
// or a secured one) until a Peer takes it. A Peer owns its transport, as in C++: once given
// to one, the Python object is empty, and using it raises StateError saying so.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "shoal/relay.hpp"
#include "shoal/transport.hpp"

namespace shoal::python {

class TransportHandle {
 public:
  TransportHandle(std::unique_ptr<Transport> transport, std::string kind)
      : transport_(std::move(transport)), kind_(std::move(kind)) {}

  /// The transport, while this object still holds it.
  Transport& get() const {
    if (!transport_) throw std::logic_error("shoal.Transport (" + kind_ + "): " + gone());
    return *transport_;
  }
  /// Hands the transport over (to a Peer, or to a secured transport around it).
  std::unique_ptr<Transport> take(const std::string& taker) {
    get();
    taken_by_ = taker;
    return std::move(transport_);
  }
  void close() {
    if (transport_ && taken_by_.empty()) closed_ = true;
    transport_.reset();
  }
  bool open() const { return transport_ != nullptr; }
  const std::string& kind() const { return kind_; }
  std::string describe() const { return "shoal.Transport(" + kind_ + (open() ? "" : ", " + gone()) + ")"; }

 private:
  std::string gone() const {
    if (!taken_by_.empty()) return "given to " + taken_by_ + ", which owns it now";
    return closed_ ? "closed" : "empty";
  }
  std::unique_ptr<Transport> transport_;
  std::string kind_;
  std::string taken_by_;
  bool closed_ = false;
};

}  // namespace shoal::python
