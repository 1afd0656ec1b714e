# SPDX-License-Identifier: MIT
# Where Shoal's dependencies come from. Every build names them the same way: shoal_dep::enet,
# shoal_dep::sodium, fmt::fmt, cereal::cereal, doctest::doctest (and doctest_DIR for its CMake
# helpers).
#   - By default, from the system's packages (Debian: cmake/install-deps.sh match installs them);
#     nothing is downloaded at build time.
#   - With SHOAL_DEPENDENCIES_FROM_SOURCE (on by default for a Windows target, where no package
#     exists): built from source trees, cmake/ShoalSourceDependencies.cmake.
if(CMAKE_SYSTEM_NAME STREQUAL "Windows")
  set(shoal_from_source_default ON)
else()
  set(shoal_from_source_default OFF)
endif()
option(SHOAL_DEPENDENCIES_FROM_SOURCE
  "Build ENet, libsodium and fmt from source trees (SHOAL_<NAME>_SOURCE_DIR, else their pinned releases downloaded)"
  ${shoal_from_source_default})

find_package(PkgConfig)  # also the optional engines' and the arena's (without it they are left out)
if(SHOAL_DEPENDENCIES_FROM_SOURCE)
  include(ShoalSourceDependencies)
  return()
endif()

if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: it finds ENet and libsodium (Debian: apt-get install pkg-config, "
                      "or bash cmake/install-deps.sh match), or build them from source: -DSHOAL_DEPENDENCIES_FROM_SOURCE=ON")
endif()
pkg_check_modules(ENET REQUIRED IMPORTED_TARGET GLOBAL libenet)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET GLOBAL libsodium)  # secure links (sdk/src/security)
add_library(shoal_dep::enet ALIAS PkgConfig::ENET)
add_library(shoal_dep::sodium ALIAS PkgConfig::SODIUM)
find_package(cereal CONFIG REQUIRED)
find_package(fmt CONFIG REQUIRED)
if(SHOAL_BUILD_TESTS)
  find_package(doctest CONFIG REQUIRED)
endif()
