// SPDX-License-Identifier: MIT
#include "diagrams.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace figures {
namespace {

std::string header(int width, int height) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      width, height);
}

std::string box(double x, double y, double w, double h, const char* fill, const std::string& label) {
  return fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#333\"/>"
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
      x, y, w, h, fill, x + w / 2, y + h / 2 + 4, label);
}

std::string text(double x, double y, const std::string& s, const char* anchor = "start") {
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\">{}</text>\n", x, y, anchor, s);
}

}  // namespace

std::string tick_svg(const OverrideSeen& seen, shoal::ObjectId object) {
  // A few history frames, the overridden one, the re-simulated ones (the middle elided when
  // there are many) and the next one to step.
  std::vector<shoal::Frame> frames;  // kNoFrame marks the elision
  for (shoal::Frame f = seen.owner_frame - 3; f <= seen.owner_frame + 4 && f <= seen.newest; ++f) frames.push_back(f);
  if (seen.newest - seen.owner_frame > 7) frames.push_back(shoal::kNoFrame);
  for (shoal::Frame f = std::max(seen.owner_frame + 5, seen.newest - 2); f <= seen.newest; ++f) frames.push_back(f);
  frames.push_back(seen.newest + 1);
  const double cell = 40, left = 20, top = 50;
  std::string svg = header(720, 330);
  svg += text(left, 24, fmt::format("One update of the joiner in a real run: the owner's frame {} of body {} "
                                    "differed, {} frames were re-simulated", seen.owner_frame, object, seen.depth));
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const shoal::Frame f = frames[i];
    const double x = left + cell * static_cast<double>(i);
    if (f == shoal::kNoFrame) {
      svg += text(x + cell / 2, top + 24, "...", "middle");
      continue;
    }
    const char* fill = f < seen.owner_frame ? "#dddddd" : f == seen.owner_frame ? "#e4572e"
                     : f <= seen.newest ? "#f3a712" : "#76b041";
    svg += box(x, top, cell - 2, 40, fill, std::to_string(f));
  }
  const double legend = top + 64;
  const struct { const char* fill; const char* what; } keys[] = {
      {"#dddddd", "frames already simulated (history)"},
      {"#e4572e", "owner frame N received: it differs, so it overrides this peer's frame N"},
      {"#f3a712", "catch-up: frames N+1 .. now re-simulated from the owner's state"},
      {"#76b041", "the frame due next, stepped once the catch-up is done"}};
  for (int k = 0; k < 4; ++k) {
    svg += box(left, legend + 22 * k, 14, 14, keys[k].fill, "");
    svg += text(left + 22, legend + 22 * k + 12, keys[k].what);
  }
  const char* phases[] = {"1 receive", "2 compare", "3 catch up", "4 step", "5 send", "6 smooth"};
  const double phase_top = legend + 4 * 22 + 36;
  svg += text(left, phase_top - 10, "Every update() does its work in this order (phase 2 decides the overrides):");
  for (int p = 0; p < 6; ++p) svg += box(left + 112 * p, phase_top, 104, 28, "#cfe2f3", phases[p]);
  return svg + "</svg>\n";
}

std::string scene_svg(const std::vector<BodyAtEnd>& bodies) {
  const double scale = 30, width = 640, height = 420;  // pixels per metre; origin at the centre
  std::string svg = header(static_cast<int>(width), static_cast<int>(height));
  svg += text(10, 20, "Where every body ended, as the joiner saw it: blue = the host owns it, orange = the joiner");
  for (const BodyAtEnd& b : bodies) {
    const double x = width / 2 + b.position.x * scale, y = height / 2 + b.position.z * scale;
    const char* fill = b.owner == 0 ? "#3b75af" : b.owner == 1 ? "#ef8636" : "#999999";
    if (b.ball) {
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"black\"/>\n", x, y, 0.5 * scale, fill);
    } else {
      svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#333\"/>\n",
                         x - 0.4 * scale, y - 0.4 * scale, 0.8 * scale, 0.8 * scale, fill);
    }
    svg += text(x, y + 4, std::to_string(b.id), "middle");
  }
  return svg + "</svg>\n";
}

}  // namespace figures
