# SPDX-License-Identifier: MIT
# Dependencies built from source trees, for platforms without packages of them (Windows).
# Each has a pinned release. SHOAL_<NAME>_SOURCE_DIR names a local tree of it (an unpacked
# release, or a checkout of its tag) for offline builds; left empty, FetchContent downloads the
# release and checks its SHA256. Upgrading one means changing its URL and hash together.
#   ENet 1.3.17      its own CMakeLists.txt
#   libsodium 1.0.18 its own configure and make, cross-compiling with --host (the release and
#                    its tag ship the generated configure, so autotools are not needed; its
#                    configure knows which CPU features and system calls each target has, which a
#                    list of sources here would have to restate and keep up to date)
#   fmt 9.1.0        its own CMakeLists.txt
#   cereal 1.3.2, doctest 2.4.9: header-only; the build machine's installed copy when it has one
#                    (Debian's libcereal-dev, doctest-dev: the same headers on every platform),
#                    else a tree or the download as above.
# These versions are the ones Debian bookworm packages, so a Linux and a Windows peer run the
# same ENet protocol and the same libsodium.
include(FetchContent)
include(ExternalProject)

# shoal_source_dependency(NAME URL SHA256 MARKER): declares NAME; MARKER is a file every tree of
# it has, to catch a SHOAL_<NAME>_SOURCE_DIR that points elsewhere.
macro(shoal_source_dependency name url sha256 marker)
  string(TOUPPER ${name} shoal_upper)
  set(SHOAL_${shoal_upper}_SOURCE_DIR "" CACHE PATH "Local source tree of ${name} (${url}); empty: download it")
  if(SHOAL_${shoal_upper}_SOURCE_DIR)
    if(NOT EXISTS "${SHOAL_${shoal_upper}_SOURCE_DIR}/${marker}")
      message(FATAL_ERROR "SHOAL_${shoal_upper}_SOURCE_DIR is '${SHOAL_${shoal_upper}_SOURCE_DIR}', which has no "
                          "${marker}: expected the source tree of ${url} (unpacked, or its tag checked out)")
    endif()
    # FetchContent's own override: the tree is used as it is, nothing is downloaded.
    set(FETCHCONTENT_SOURCE_DIR_${shoal_upper} "${SHOAL_${shoal_upper}_SOURCE_DIR}")
    message(STATUS "${name}: from ${SHOAL_${shoal_upper}_SOURCE_DIR}")
  else()
    message(STATUS "${name}: downloading ${url} (or set SHOAL_${shoal_upper}_SOURCE_DIR to a local tree)")
  endif()
  # SYSTEM: their headers' warnings are theirs (Shoal's own code builds with -Werror).
  FetchContent_Declare(${name} URL ${url} URL_HASH SHA256=${sha256} DOWNLOAD_EXTRACT_TIMESTAMP ON SYSTEM)
endmacro()

# ENet: a static library; its CMakeLists.txt gives its headers to its own sources only.
shoal_source_dependency(enet http://enet.bespin.org/download/enet-1.3.17.tar.gz
  a38f0f194555d558533b8b15c0c478e946310022d0ec7b34334e19e4574dcedc include/enet/enet.h)
FetchContent_MakeAvailable(enet)
target_include_directories(enet SYSTEM INTERFACE ${enet_SOURCE_DIR}/include)
set_target_properties(enet PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(shoal_dep::enet ALIAS enet)

# fmt: its static library.
shoal_source_dependency(fmt https://github.com/fmtlib/fmt/releases/download/9.1.0/fmt-9.1.0.zip
  cceb4cb9366e18a5742128cb3524ce5f50e88b476f1e54737a47ffdf4df4c996 include/fmt/format.h)
set(FMT_INSTALL OFF CACHE BOOL "" FORCE)
FetchContent_MakeAvailable(fmt)
set_target_properties(fmt PROPERTIES POSITION_INDEPENDENT_CODE ON)

# libsodium: configured and built by its own build system at build time, into the build tree.
shoal_source_dependency(sodium
  https://github.com/jedisct1/libsodium/releases/download/1.0.18-RELEASE/libsodium-1.0.18.tar.gz
  6f504490b342a4f8a4c4a02fc9b866cbef8622d5df4e5452b46be121e46636c1 configure)
FetchContent_GetProperties(sodium)
if(NOT sodium_POPULATED)
  FetchContent_Populate(sodium)
endif()
set(shoal_sodium_prefix ${CMAKE_BINARY_DIR}/_deps/sodium-install)
set(shoal_sodium_configure <SOURCE_DIR>/configure --prefix=<INSTALL_DIR> --disable-shared --enable-static
  --disable-dependency-tracking --disable-ssp --with-pic)  # no -fstack-protector: mingw would need libssp
if(CMAKE_CROSSCOMPILING AND SHOAL_MINGW_HOST)
  list(APPEND shoal_sodium_configure --host=${SHOAL_MINGW_HOST})
endif()
string(JOIN " " shoal_sodium_cc ${CMAKE_C_COMPILER_LAUNCHER} ${CMAKE_C_COMPILER})
ExternalProject_Add(sodium_build
  SOURCE_DIR ${sodium_SOURCE_DIR}
  INSTALL_DIR ${shoal_sodium_prefix}
  CONFIGURE_COMMAND ${shoal_sodium_configure} "CC=${shoal_sodium_cc}" "CFLAGS=-O2"
  BUILD_COMMAND make -j2
  INSTALL_COMMAND make install
  BUILD_BYPRODUCTS ${shoal_sodium_prefix}/lib/libsodium.a
  LOG_CONFIGURE ON LOG_BUILD ON LOG_INSTALL ON LOG_OUTPUT_ON_FAILURE ON)
file(MAKE_DIRECTORY ${shoal_sodium_prefix}/include)  # the imported target names it before it is built
add_library(shoal_dep_sodium STATIC IMPORTED GLOBAL)
set_target_properties(shoal_dep_sodium PROPERTIES IMPORTED_LOCATION ${shoal_sodium_prefix}/lib/libsodium.a
  INTERFACE_INCLUDE_DIRECTORIES ${shoal_sodium_prefix}/include INTERFACE_COMPILE_DEFINITIONS SODIUM_STATIC)
if(WIN32)
  set_property(TARGET shoal_dep_sodium PROPERTY INTERFACE_LINK_LIBRARIES advapi32)  # RtlGenRandom
endif()
add_dependencies(shoal_dep_sodium sodium_build)
add_library(shoal_dep::sodium ALIAS shoal_dep_sodium)

# shoal_header_dependency(NAME HEADER URL SHA256): the include folder holding HEADER (e.g.
# cereal/cereal.hpp) from the tree given, else the build machine's installed copy, else the
# download. An installed copy is reached through a folder holding only a link to its own folder,
# so no other header of the build machine comes along.
function(shoal_header_dependency name header url sha256)
  string(TOUPPER ${name} upper)
  get_filename_component(folder ${header} DIRECTORY)
  set(SHOAL_${upper}_SOURCE_DIR "" CACHE PATH "Local source tree of ${name} (${url}); empty: the installed headers, else download")
  find_path(SHOAL_${upper}_INSTALLED_HEADERS NAMES ${header} PATHS /usr/include /usr/local/include
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(SHOAL_${upper}_SOURCE_DIR)
    set(tree ${SHOAL_${upper}_SOURCE_DIR})
  elseif(SHOAL_${upper}_INSTALLED_HEADERS)
    set(tree ${CMAKE_BINARY_DIR}/_deps/${name}-installed)
    file(MAKE_DIRECTORY ${tree})
    file(CREATE_LINK ${SHOAL_${upper}_INSTALLED_HEADERS}/${folder} ${tree}/${folder} SYMBOLIC)
    message(STATUS "${name}: the headers installed in ${SHOAL_${upper}_INSTALLED_HEADERS}")
  else()
    message(STATUS "${name}: downloading ${url} (or set SHOAL_${upper}_SOURCE_DIR to a local tree)")
    FetchContent_Declare(${name} URL ${url} URL_HASH SHA256=${sha256} DOWNLOAD_EXTRACT_TIMESTAMP ON)
    FetchContent_GetProperties(${name})
    if(NOT ${name}_POPULATED)
      FetchContent_Populate(${name})
    endif()
    set(tree ${${name}_SOURCE_DIR})
  endif()
  if(EXISTS ${tree}/include/${header})  # cereal's layout; doctest's header is at its top
    set(tree ${tree}/include)
  endif()
  if(NOT EXISTS ${tree}/${header})
    message(FATAL_ERROR "${name}: no ${header} in ${tree}: expected the source tree of ${url}")
  endif()
  add_library(${name}::${name} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${name}::${name} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${tree})
endfunction()

shoal_header_dependency(cereal cereal/cereal.hpp https://github.com/USCiLab/cereal/archive/refs/tags/v1.3.2.tar.gz
  16a7ad9b31ba5880dac55d62b5d6f243c3ebc8d46a3514149e56b5e7ea81f85f)
if(SHOAL_BUILD_TESTS)
  shoal_header_dependency(doctest doctest/doctest.h https://github.com/doctest/doctest/archive/refs/tags/v2.4.9.tar.gz
    19b2df757f2f3703a5e63cee553d85596875f06d91a3333acd80a969ef210856)
endif()
