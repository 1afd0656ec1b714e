// SPDX-License-Identifier: MIT
// Checks that an arena screenshot is a real picture: not blank, the ImGui overlay present, and
// every peer's owner colour drawn. Exit codes say which check failed, so a test can expect one.
#include <imgui.h>
#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "palette.hpp"
#include "shoal/version.hpp"

namespace {

enum Exit { ok = 0, unusable = 1, blank = 3, no_overlay = 4, owners_missing = 5 };

constexpr double kMinLuminanceStddev = 10;  // a uniform picture has 0
constexpr long kMinOverlayPixels = 1500;    // the overlay's title bar alone has ~6000
constexpr long kMinOwnerPixels = 400;       // a ball is ~500; the overlay's legend swatch ~200
constexpr int kTolerance = 3;               // per channel

struct Image {
  int width = 0, height = 0;
  std::unique_ptr<unsigned char, decltype(&stbi_image_free)> rgb{nullptr, &stbi_image_free};
  const unsigned char* at(long i) const { return rgb.get() + i * 3; }
  long pixels() const { return static_cast<long>(width) * height; }
};

arena::Rgb to_rgb(const ImVec4& c) {
  const auto channel = [](float v) { return static_cast<std::uint8_t>(std::lround(v * 255)); };
  return {channel(c.x), channel(c.y), channel(c.z)};
}

bool close(const unsigned char* p, arena::Rgb c) {
  return std::abs(p[0] - c.r) <= kTolerance && std::abs(p[1] - c.g) <= kTolerance &&
         std::abs(p[2] - c.b) <= kTolerance;
}

long count(const Image& image, arena::Rgb colour) {
  long n = 0;
  for (long i = 0; i < image.pixels(); ++i) n += close(image.at(i), colour) ? 1 : 0;
  return n;
}

double luminance_stddev(const Image& image) {
  double sum = 0, sum_squares = 0;
  for (long i = 0; i < image.pixels(); ++i) {
    const unsigned char* p = image.at(i);
    const double y = 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
    sum += y;
    sum_squares += y * y;
  }
  const double mean = sum / static_cast<double>(image.pixels());
  return std::sqrt(std::max(0.0, sum_squares / static_cast<double>(image.pixels()) - mean * mean));
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-arena-check-screenshot")) return 0;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SCREENSHOT.png OWNERS (peers whose colour must show)\n", argv[0]);
    return unusable;
  }
  const int owners = std::atoi(argv[2]);
  Image image;
  int channels = 0;
  image.rgb.reset(stbi_load(argv[1], &image.width, &image.height, &channels, 3));
  if (!image.rgb || image.width < 640 || image.height < 480) {
    std::fprintf(stderr, "%s: not a picture of at least 640x480 (%s)\n", argv[1],
                 image.rgb ? "too small" : stbi_failure_reason());
    return unusable;
  }

  const double stddev = luminance_stddev(image);
  std::printf("%dx%d, luminance standard deviation %.1f (floor %.1f)\n", image.width, image.height,
              stddev, kMinLuminanceStddev);
  if (stddev < kMinLuminanceStddev) return blank;

  // The overlay's title bar has the active title colour of ImGui's dark style, which the
  // arena's own palette must not use (else this check would prove nothing).
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  const arena::Rgb title = to_rgb(style.Colors[ImGuiCol_TitleBgActive]);
  for (arena::Rgb c : arena::kOwnerColours) {
    const unsigned char p[3] = {c.r, c.g, c.b};
    if (close(p, title)) {
      std::fprintf(stderr, "an owner colour equals ImGui's title colour: the check is void\n");
      return unusable;
    }
  }
  const long overlay = count(image, title);
  std::printf("overlay title-bar pixels %ld (floor %ld)\n", overlay, kMinOverlayPixels);
  if (overlay < kMinOverlayPixels) return no_overlay;

  for (int peer = 0; peer < owners; ++peer) {
    const long n = count(image, arena::owner_colour(static_cast<shoal::PeerId>(peer)));
    std::printf("peer %d colour pixels %ld (floor %ld)\n", peer, n, kMinOwnerPixels);
    if (n < kMinOwnerPixels) return owners_missing;
  }
  return ok;
}
