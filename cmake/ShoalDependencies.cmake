# SPDX-License-Identifier: MIT
# Every dependency comes from Debian's packages (cmake/install-deps.sh installs them);
# nothing is downloaded at build time.
find_package(PkgConfig REQUIRED)
pkg_check_modules(ENET REQUIRED IMPORTED_TARGET GLOBAL libenet)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET GLOBAL libsodium)  # secure links (sdk/src/security)
find_package(cereal CONFIG REQUIRED)
find_package(fmt CONFIG REQUIRED)
if(SHOAL_BUILD_TESTS)
  find_package(doctest CONFIG REQUIRED)
endif()
