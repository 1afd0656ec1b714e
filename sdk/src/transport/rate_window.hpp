// SPDX-License-Identifier: MIT
// The traffic of one link as it crosses the public socket ("on the wire"), counted and turned
// into rates over windows of about a second: what LinkStats reports for an ENet connection,
// whether ENet owns the socket or the conditioner sits in front of it.
#pragma once

#include <cstdint>

namespace shoal::transport {

/// Datagrams and UDP payload bytes per second, each way.
struct WireRates {
  float packets_out_per_s = 0;
  float packets_in_per_s = 0;
  float bytes_out_per_s = 0;
  float bytes_in_per_s = 0;
};

class RateWindow {
 public:
  /// Counts may be fractions: a direct ENet transport learns its sends per ENet call, not per
  /// datagram, and shares a call's datagrams among the connections it sent to.
  void sent(double packets, double bytes) {
    packets_out_ += packets;
    bytes_out_ += bytes;
  }
  void received(double bytes) {
    packets_in_ += 1;
    bytes_in_ += bytes;
  }
  /// Closes the window once it is a second old: its counts become the rates.
  void update(std::int64_t now_us) {
    if (start_us_ < 0) start_us_ = now_us;
    const std::int64_t elapsed_us = now_us - start_us_;
    if (elapsed_us < kWindowUs) return;
    const double per_us = 1e6 / static_cast<double>(elapsed_us);
    rates_ = {static_cast<float>(packets_out_ * per_us), static_cast<float>(packets_in_ * per_us),
              static_cast<float>(bytes_out_ * per_us), static_cast<float>(bytes_in_ * per_us)};
    packets_out_ = packets_in_ = bytes_out_ = bytes_in_ = 0;
    start_us_ = now_us;
  }
  /// The rates of the last complete window (zero until one is complete).
  const WireRates& rates() const { return rates_; }

 private:
  static constexpr std::int64_t kWindowUs = 1'000'000;
  std::int64_t start_us_ = -1;
  double packets_out_ = 0, packets_in_ = 0, bytes_out_ = 0, bytes_in_ = 0;
  WireRates rates_;
};

}  // namespace shoal::transport
