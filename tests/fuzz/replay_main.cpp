// SPDX-License-Identifier: MIT
// shoal-fuzz-replay TARGET PATH...: runs the fuzz target TARGET (fuzz_target.hpp) on every file
// under the given paths, as libFuzzer would run it on one input, and says how many it ran.
// The `fuzz: ...` tests run it on each target's corpus in tests/fuzz/corpus/, so an input
// that once crashed, or a path the fuzzer found, fails CI again if a change breaks it; no
// clang needed. Fails when a path holds no input at all: an empty replay would prove nothing.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz_target.hpp"
#include "shoal/version.hpp"

namespace {

std::map<std::string, shoal::fuzz::TargetFunction>& targets() {
  static std::map<std::string, shoal::fuzz::TargetFunction> all;
  return all;
}

std::vector<std::filesystem::path> inputs_under(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(path)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  } else if (std::filesystem::is_regular_file(path)) {
    files.push_back(path);
  }
  std::sort(files.begin(), files.end());  // the same order every run
  return files;
}

}  // namespace

bool shoal::fuzz::register_target(const char* name, TargetFunction function) {
  targets()[name] = function;
  return true;
}

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-fuzz-replay")) return 0;
  const auto target = argc >= 3 ? targets().find(argv[1]) : targets().end();
  if (target == targets().end()) {
    std::fprintf(stderr, "usage: shoal-fuzz-replay TARGET PATH...  (runs TARGET on every file under the paths)\n"
                         "targets:");
    for (const auto& [name, function] : targets()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    const std::vector<std::filesystem::path> files = inputs_under(argv[i]);
    if (files.empty()) {
      std::fprintf(stderr, "shoal-fuzz-replay: no input under '%s'\n", argv[i]);
      return 1;
    }
    std::size_t bytes = 0;
    for (const std::filesystem::path& file : files) {
      std::ifstream in(file, std::ios::binary);
      const std::vector<std::uint8_t> input{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      if (!in.is_open()) {
        std::fprintf(stderr, "shoal-fuzz-replay: cannot read '%s'\n", file.c_str());
        return 1;
      }
      bytes += input.size();
      target->second(input.data(), input.size());  // a crash or a failed check aborts here
    }
    std::printf("%s: %zu inputs (%zu bytes) from %s replayed, none crashed\n", target->first.c_str(), files.size(),
                bytes, argv[i]);
  }
  return 0;
}
