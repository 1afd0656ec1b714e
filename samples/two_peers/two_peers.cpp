// SPDX-License-Identifier: MIT
// shoal-two-peers: the smallest complete Shoal game, the README's Quickstart. Two players, one
// on each machine, push their balls through a shared row of crates; the host invites the
// joiner with a file. In a window (SDL2) the arrow keys push your ball. With --no-window, or
// without a display, it circles by itself for --seconds (10); then the program says how far
// the other player's ball got here, and exits 0 if it moved. two_peers.c is the same in C.
#define SDL_MAIN_HANDLED
#include <SDL.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <shoal/peer.hpp>
#include <shoal/reference_physics.hpp>
#include <shoal/security.hpp>
#include <shoal/version.hpp>

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "shoal-two-peers: %s\n", why.c_str());
  std::exit(2);
}

bool open_display() {  // SDL's video, unless all it has is an offscreen or dummy one
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");  // Ctrl-C ends the program, as without SDL
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return false;
  const std::string driver = SDL_GetCurrentVideoDriver();
  if (driver != "offscreen" && driver != "dummy") return true;
  SDL_Quit();
  return false;
}

// The window (or none), the player's stick, and what this peer saw of the other player's ball.
struct Screen {
  Screen(bool windowed, double run_seconds, shoal::ObjectId their_ball) : seconds(run_seconds), theirs(their_ball) {
    window = windowed && open_display() ? SDL_CreateWindow("shoal-two-peers", SDL_WINDOWPOS_CENTERED,
                                                           SDL_WINDOWPOS_CENTERED, 800, 600, 0)
                                        : nullptr;
    renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC) : nullptr;
    if (windowed && !renderer) std::printf("no display: running without a window for %g s\n", seconds);
  }
  bool open(shoal::Peer& peer) {  // false once the window is closed, or without one, the time up
    if (!renderer) peer.wait(5);   // no vsync to pace the loop: wait for traffic, 5 ms at most
    for (SDL_Event e; renderer && SDL_PollEvent(&e);) closed = closed || e.type == SDL_QUIT;
    return renderer ? !closed : static_cast<double>(SDL_GetTicks64()) < seconds * 1000;
  }
  shoal::Vec3 stick() const {  // the arrow keys, or without a window a circle
    const double t = static_cast<double>(SDL_GetTicks64()) / 1000;
    if (!renderer) return {static_cast<float>(std::cos(t)), 0, static_cast<float>(std::sin(t))};
    const Uint8* key = SDL_GetKeyboardState(nullptr);
    return {static_cast<float>(key[SDL_SCANCODE_RIGHT] - key[SDL_SCANCODE_LEFT]), 0,
            static_cast<float>(key[SDL_SCANCODE_DOWN] - key[SDL_SCANCODE_UP])};
  }
  void show(const shoal::Peer& peer) {  // every body from above, 20 pixels a metre
    if (!peer.in_match()) return;
    const shoal::Vec3 p = peer.state(theirs).position;
    moved = std::max(moved, std::hypot(p.x - (theirs == 1 ? -4.0f : 4.0f), p.z));
    if (!renderer) return;
    SDL_SetRenderDrawColor(renderer, 20, 24, 32, 255);
    SDL_RenderClear(renderer);
    for (shoal::ObjectId id : {1, 2, 100, 101, 102, 103, 104}) {
      const shoal::Vec3 v = peer.visual(id).position;
      const bool yours = peer.owner(id) == peer.id();  // green: simulated and sent by you
      SDL_SetRenderDrawColor(renderer, yours ? 80 : 240, yours ? 220 : 140, 90, 255);
      const SDL_Rect square{static_cast<int>(400 + 20 * v.x) - 9, static_cast<int>(300 + 20 * v.z) - 9, 18, 18};
      SDL_RenderFillRect(renderer, &square);
    }
    SDL_RenderPresent(renderer);
  }
  SDL_Window* window;
  SDL_Renderer* renderer;
  double seconds;
  shoal::ObjectId theirs;
  bool closed = false;
  float moved = 0;  // how far the other player's ball got from where it started, as seen here
};

void tell(const shoal::Event& e) {
  if (e.kind == shoal::EventKind::joined_match) std::printf("joined the match as peer %d\n", e.peer);
  if (e.kind == shoal::EventKind::peer_joined) std::printf("peer %d joined\n", e.peer);
  if (e.kind == shoal::EventKind::peer_left) std::printf("peer %d left\n", e.peer);
  if (e.kind == shoal::EventKind::join_failed) fail("could not join: " + e.reason);
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-two-peers")) return 0;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line at a time, also into a file
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 3 || (args[0] != "host" && args[0] != "join") || args[1].empty()) {
    fail("usage: shoal-two-peers host PORT FILE | join HOST:PORT FILE  [--no-window] [--seconds S]");
  }
  const auto seconds = std::find(args.begin(), args.end(), "--seconds");
  const bool windowed = std::find(args.begin(), args.end(), "--no-window") == args.end();
  Screen screen(windowed, seconds < args.end() - 1 ? std::atof(seconds[1].c_str()) : 10, args[0] == "host" ? 2 : 1);
  const std::size_t colon = args[1].rfind(':');
  // [quickstart]
  const bool hosting = args[0] == "host";
  shoal::TransportConfig transport;
  transport.bind_host = "0.0.0.0";  // every interface: the default, 127.0.0.1, is this machine only
  std::string invitation;           // the joiner's credentials, one line of text
  if (hosting) {
    transport.port = static_cast<std::uint16_t>(std::stoi(args[1]));
    shoal::SessionAuthority authority("two-peers");       // signs who may join this session
    transport.security.credentials = authority.invite();  // the host's own credentials
    invitation = authority.invite().to_text();
  } else {
    std::getline(std::ifstream(args[2]), invitation);
    const std::optional<shoal::Credentials> credentials = shoal::Credentials::from_text(invitation);
    if (!credentials) fail(args[2] + " holds no invitation: expected the file the host wrote");
    transport.security.credentials = *credentials;
  }
  shoal::ReferencePhysics physics({});  // the same world, built the same way, on every peer
  const auto at = [](float x, float y, float z) { shoal::ObjectState s; s.position = {x, y, z}; return s; };
  physics.add_sphere(1, 0.5f, 2.0f, at(-4, 0.5f, 0));  // the host's ball
  physics.add_sphere(2, 0.5f, 2.0f, at(4, 0.5f, 0));   // the joiner's
  shoal::ObjectId crate = 100;
  for (float z : {-4.0f, -2.0f, 0.0f, 2.0f, 4.0f}) physics.add_box(crate++, {0.4f, 0.4f, 0.4f}, 1, at(0, 0.4f, z));
  shoal::Peer peer({}, physics, shoal::make_enet_transport(transport));
  if (hosting) {
    peer.host();
    std::ofstream(args[2]) << invitation << '\n';  // give this file to the joiner, privately
    std::printf("hosting on port %d; %s invites the joiner\n", peer.address().port, args[2].c_str());
  } else {
    peer.join({args[1].substr(0, colon), static_cast<std::uint16_t>(std::stoi(args[1].substr(colon + 1)))});
  }
  peer.set_controlled(hosting ? 1 : 2);
  while (screen.open(peer)) {                  // once a frame, until the window closes
    peer.set_input({.axis = screen.stick()});  // the arrow keys push this player's ball
    peer.update();                             // receive, correct, step the frames due, send
    for (shoal::Event e; peer.poll_event(e);) tell(e);  // joined, left, join_failed...
    screen.show(peer);                         // each body where peer.visual(id) says
  }
  // [/quickstart]
  std::printf("the other player's ball moved up to %.1f m here; frame %d\n", static_cast<double>(screen.moved),
              peer.frame());
  peer.leave();
  if (screen.window) SDL_Quit();
  return screen.moved > 1 ? 0 : 1;
}
