// SPDX-License-Identifier: MIT
#include "options.hpp"

#include <charconv>
#include <cstring>
#include <string_view>

namespace arena {
namespace {

template <class T>
T number(std::string_view flag, std::string_view text, T low, T high) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value < low || value > high) {
    throw UsageError(std::string(flag) + " expects a number from " + std::to_string(low) +
                     " to " + std::to_string(high) + ", got '" + std::string(text) + "'");
  }
  return value;
}

shoal::Address host_and_port(std::string_view text) {
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    throw UsageError("--join expects HOST:PORT, got '" + std::string(text) + "'");
  }
  shoal::Address address;
  address.host = std::string(text.substr(0, colon));
  address.port = number<std::uint16_t>("--join's port", text.substr(colon + 1), 1, 65535);
  return address;
}

}  // namespace

const char* usage() {
  return "usage: shoal-arena [--host [--port P] | --join HOST:PORT] [--bots N] [--objects K]\n"
         "                   [--seed S] [--physics ENGINE] [--loss P] [--latency-ms L] [--jitter-ms J]\n"
         "                   [--width W] [--height H] [--no-overlay] [--raw-state] [--insecure]\n"
         "                   [--frames N [--screenshot FILE.png]]\n"
         "  Play one peer with WASD or the arrow keys against N bots (separate peers in this\n"
         "  process, on loopback ENet). --host listens on every interface (port 40000 unless\n"
         "  --port) so arena windows on the LAN can --join; all windows of a match need the same\n"
         "  --objects. --loss is a fraction (0.05 = 5%); latency and jitter apply to each\n"
         "  direction of every link of the player's peer and can be changed in the overlay.\n"
         "  --frames N exits after N frames; with --screenshot it saves the last one first.\n"
         "  --raw-state starts with the simulation state outlined beside the smoothed one.\n"
         "  --physics reference (default), bullet or box2d: every window of a match needs the\n"
         "  same; Box2D plays the arena seen from above, on its plane.\n"
         "  Links are encrypted and only invited peers join: --host prints the invitation that\n"
         "  --join reads from the SHOAL_CREDENTIALS environment variable. --insecure turns this\n"
         "  off (on every window of the match), for comparison.\n";
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool port_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) throw UsageError(std::string(flag) + " needs a value");
      return argv[++i];
    };
    if (flag == "--help" || flag == "-h") o.help = true;
    else if (flag == "--host") o.lan_host = true;
    else if (flag == "--join") o.join = host_and_port(value());
    else if (flag == "--port") { o.port = number<std::uint16_t>(flag, value(), 1, 65535); port_given = true; }
    else if (flag == "--bots") o.bots = number(flag, value(), 0, 7);
    else if (flag == "--objects") o.objects = number(flag, value(), 0, 300);
    else if (flag == "--seed") o.seed = number<std::uint64_t>(flag, value(), 0, UINT64_MAX);
    else if (flag == "--physics") {
      const std::string_view engine = value();
      if (const std::string problem = shoal::samples::physics_problem(engine); !problem.empty()) {
        throw UsageError("--physics: " + problem);
      }
      o.physics = *shoal::samples::physics_named(engine);
    }
    else if (flag == "--loss") o.loss = number(flag, value(), 0.0f, 0.9f);
    else if (flag == "--latency-ms") o.latency_ms = number(flag, value(), 0.0f, 1000.0f);
    else if (flag == "--jitter-ms") o.jitter_ms = number(flag, value(), 0.0f, 500.0f);
    else if (flag == "--width") o.width = number(flag, value(), 640, 7680);
    else if (flag == "--height") o.height = number(flag, value(), 480, 4320);
    else if (flag == "--no-overlay") o.overlay = false;
    else if (flag == "--raw-state") o.raw_state = true;
    else if (flag == "--insecure") o.insecure = true;
    else if (flag == "--frames") o.frames = number(flag, value(), 1, 1'000'000);
    else if (flag == "--screenshot") {
      o.screenshot = std::string(value());
      if (o.screenshot.empty()) throw UsageError("--screenshot expects a file name");
    } else {
      throw UsageError("unknown flag '" + std::string(flag) + "'");
    }
  }
  if (o.lan_host && o.join) throw UsageError("--host and --join exclude each other");
  if (port_given && !o.lan_host) throw UsageError("--port only goes with --host");
  if (o.lan_host && !port_given) o.port = kDefaultPort;
  if (!o.screenshot.empty() && o.frames == 0) {
    throw UsageError("--screenshot needs --frames N (the frame to save)");
  }
  return o;
}

}  // namespace arena
