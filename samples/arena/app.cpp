// SPDX-License-Identifier: MIT
#include "app.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "screenshot.hpp"
#include "shoal/security.hpp"

namespace arena {
namespace {

constexpr SDL_Color kBackground{18, 20, 24, 255};

[[noreturn]] void sdl_failed(const char* what) {
  throw std::runtime_error(std::string(what) + ": " + SDL_GetError());
}

// The match's security: a host (or a local match) is its own session authority and invites its
// bots and, printed once, the windows that --join it; a joiner reads its invitation from the
// environment, where no other user of the machine can see it.
shoal::SecurityConfig arena_security(const Options& options) {
  shoal::SecurityConfig security;
  security.enabled = !options.insecure;
  if (options.insecure) return security;
  if (options.join) {
    const char* text = std::getenv("SHOAL_CREDENTIALS");
    const auto credentials = text == nullptr ? std::nullopt : shoal::Credentials::from_text(text);
    if (!credentials) {
      throw std::runtime_error("--join needs the host's invitation in SHOAL_CREDENTIALS (the host prints it), "
                               "or --insecure on every window");
    }
    security.credentials = *credentials;
    return security;
  }
  const shoal::SessionAuthority authority("shoal-arena");
  security.credentials = authority.invite();
  if (options.lan_host) {
    std::printf("shoal-arena: to join, run: SHOAL_CREDENTIALS=%s shoal-arena --join <this machine>:%u\n",
                authority.invite().to_text().c_str(), static_cast<unsigned>(options.port));
  }
  return security;
}

double seconds_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

App::SdlVideo::SdlVideo() {
  if (SDL_Init(SDL_INIT_VIDEO) != 0) sdl_failed("cannot start SDL video");
}
App::SdlVideo::~SdlVideo() { SDL_Quit(); }

App::App(const Options& options) : options_(options), layout_(arena_layout(options.objects)) {
  window_.reset(SDL_CreateWindow("shoal-arena", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 options.width, options.height, SDL_WINDOW_SHOWN));
  if (!window_) sdl_failed("cannot open the window");
  renderer_.reset(SDL_CreateRenderer(window_.get(), -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC));
  if (!renderer_) renderer_.reset(SDL_CreateRenderer(window_.get(), -1, SDL_RENDERER_SOFTWARE));
  if (!renderer_) sdl_failed("cannot create a renderer");
  scene_.emplace(renderer_.get());

  controls_.loss = options.loss;
  controls_.latency_ms = options.latency_ms;
  controls_.jitter_ms = options.jitter_ms;
  controls_.scene.raw_state = options.raw_state;
  controls_.seed = options.seed;
  shoal::TransportConfig transport;
  // A LAN match listens on every interface; a match against bots stays on loopback.
  transport.bind_host = options.lan_host || options.join ? "0.0.0.0" : "127.0.0.1";
  transport.port = options.port;
  transport.conditioner = conditions_of(controls_);
  transport.security = arena_security(options);
  player_ = make_player(layout_, transport, options.physics);

  shoal::Address host{"127.0.0.1", player_.peer->address().port};
  if (options.join) {
    host = *options.join;
    player_.peer->join(host);
    where_ = "match hosted at " + shoal::to_string(host);
  } else {
    player_.peer->host();
    where_ = options.lan_host
                 ? "hosting on port " + std::to_string(host.port) + ": others --join <this machine>:" +
                       std::to_string(host.port)
                 : "local match on " + shoal::to_string(host);
  }
  if (options.bots > 0) bots_.emplace(options.bots, layout_, transport, host, options.seed, options.physics);
  if (options.overlay) overlay_ = std::make_unique<Overlay>(window_.get(), renderer_.get());
}

void App::run() {
  const double frame_s = 1.0 / 60;
  double deadline = seconds_now();
  for (int frame = 1;; ++frame) {
    if (!handle_window_events()) return;
    handle_events(player_);
    if (player_.ball && player_.peer->in_match()) {
      const shoal::Input input = keyboard_input();
      player_.peer->set_input(input);
      if (shoal::length_squared(input.axis) > 0) aim_ = input.axis;
    }
    player_.peer->update();
    player_.gun.expire(*player_.peer, *player_.world);
    if (player_.ball && fire_held()) player_.gun.fire(*player_.peer, *player_.world, *player_.ball, aim_);
    if (bots_) bots_->update();
    const double now = seconds_now();
    if (history_.due(now)) history_.sample(player_.peer->stats(), now);

    render_frame();
    if (frame == options_.frames) {
      if (!options_.screenshot.empty()) save_screenshot(renderer_.get(), options_.screenshot);
      const shoal::PeerStats stats = player_.peer->stats();
      std::printf("shoal-arena: after %d frames: spawned %llu, removed %llu, live %zu (objects spawned during play, "
                  "everyone's)\n",
                  frame, static_cast<unsigned long long>(stats.objects_spawned),
                  static_cast<unsigned long long>(stats.objects_removed), player_.peer->spawned_objects().size());
      return;
    }
    SDL_RenderPresent(renderer_.get());

    // Paces the loop at 60 Hz when the renderer has no vsync (software, Xvfb); the peers run
    // their frames by the steady clock either way.
    deadline += frame_s;
    const double wait_s = deadline - seconds_now();
    if (wait_s > 0) {
      SDL_Delay(static_cast<Uint32>(wait_s * 1000));
    } else if (wait_s < -frame_s) {
      deadline = seconds_now();  // far behind: do not rush to catch up
    }
  }
}

bool App::handle_window_events() {
  for (SDL_Event event; SDL_PollEvent(&event);) {
    if (overlay_) overlay_->process(event);
    if (event.type == SDL_QUIT) return false;
    if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE) return false;
  }
  return true;
}

shoal::Input App::keyboard_input() const {
  shoal::Input input;
  if (overlay_ && overlay_->wants_keyboard()) return input;
  const Uint8* keys = SDL_GetKeyboardState(nullptr);
  const auto held = [keys](SDL_Scancode a, SDL_Scancode b) { return keys[a] || keys[b] ? 1.0f : 0.0f; };
  // Screen right is +x, screen down is +z on the ground (the plane's y on Box2D's).
  shoal::Vec3 ground;
  ground.x = held(SDL_SCANCODE_D, SDL_SCANCODE_RIGHT) - held(SDL_SCANCODE_A, SDL_SCANCODE_LEFT);
  ground.z = held(SDL_SCANCODE_S, SDL_SCANCODE_DOWN) - held(SDL_SCANCODE_W, SDL_SCANCODE_UP);
  input.axis = player_.world->to_world(shoal::normalized(ground));
  return input;
}

bool App::fire_held() const {
  if (overlay_ && overlay_->wants_keyboard()) return false;
  const Uint8* keys = SDL_GetKeyboardState(nullptr);
  // The left button fires only over the arena, not while it works the overlay's sliders.
  const bool mouse = (SDL_GetMouseState(nullptr, nullptr) & SDL_BUTTON(SDL_BUTTON_LEFT)) != 0 &&
                     !(overlay_ && overlay_->wants_mouse());
  return keys[SDL_SCANCODE_F] || keys[SDL_SCANCODE_SPACE] || mouse;
}

void App::render_frame() {
  SDL_Renderer* r = renderer_.get();
  SDL_SetRenderDrawColor(r, kBackground.r, kBackground.g, kBackground.b, kBackground.a);
  SDL_RenderClear(r);
  int width = 0, height = 0;
  SDL_GetRendererOutputSize(r, &width, &height);
  const int left = overlay_ ? Overlay::kWidth : 10;
  const SDL_Rect viewport{left, 10, width - left - 10, height - 20};
  scene_->draw(player_, layout_, viewport, controls_.scene);
  if (overlay_) {
    overlay_->build(player_, history_, where_, controls_);
    overlay_->render();
  }
}

}  // namespace arena
