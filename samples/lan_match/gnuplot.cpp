// SPDX-License-Identifier: MIT
#include "gnuplot.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "process.hpp"

namespace lan_match {

void run_gnuplot(const std::string& script, const std::string& png_path) {
  const std::filesystem::path script_path = std::filesystem::temp_directory_path() /
      fmt::format("shoal-lan-match-plot-{}.gp", shoal::samples::current_process_id());
  {
    std::ofstream out(script_path, std::ios::binary);
    out << script;
    if (!out.flush()) throw std::runtime_error(fmt::format("cannot write the gnuplot script {}", script_path.string()));
  }
  struct Remove {
    std::filesystem::path path;
    ~Remove() {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  } remove_script{script_path};

  shoal::samples::ChildOptions launch;
  launch.search_path = true;
  std::optional<shoal::samples::ChildProcess> gnuplot;
  try {
    gnuplot.emplace(std::vector<std::string>{"gnuplot", script_path.string()}, launch);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: install gnuplot (Debian: apt-get install gnuplot-nox)", e.what()));
  }
  std::optional<shoal::samples::ExitStatus> status;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!(status = gnuplot->try_wait()) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // polling a child process, not syncing
  }
  if (!status) status = gnuplot->kill();
  if (status->killed || status->code != 0) {
    const std::string why = status->code == 127 ? "gnuplot could not be run: install it (Debian: apt-get install gnuplot-nox)"
                                                : "see its message above";
    throw std::runtime_error(fmt::format("gnuplot could not draw '{}' ({})", png_path, why));
  }
}

}  // namespace lan_match
