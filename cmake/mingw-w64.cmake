# SPDX-License-Identifier: MIT
# Cross-compiling Shoal for 64-bit Windows with Debian's mingw-w64 (cmake --preset windows-mingw;
# cmake/install-deps.sh windows installs the compilers and wine). The posix thread model
# (g++-mingw-w64-x86-64-posix): with GCC 12, only it gives libstdc++ std::thread and std::mutex.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(SHOAL_MINGW_HOST x86_64-w64-mingw32)  # the GNU triplet, for dependencies built with configure

set(CMAKE_C_COMPILER ${SHOAL_MINGW_HOST}-gcc-posix)
set(CMAKE_CXX_COMPILER ${SHOAL_MINGW_HOST}-g++-posix)
set(CMAKE_RC_COMPILER ${SHOAL_MINGW_HOST}-windres)

# Libraries and headers only from the Windows sysroot, never the build machine's.
set(CMAKE_FIND_ROOT_PATH /usr/${SHOAL_MINGW_HOST})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config would report the build machine's Linux libraries (Bullet, SDL2...): none here.
set(ENV{PKG_CONFIG_LIBDIR} "${CMAKE_CURRENT_LIST_DIR}/no-pkg-config-for-windows")
set(ENV{PKG_CONFIG_PATH} "")

# The mingw runtime (libgcc, libstdc++, winpthread) linked in, so each DLL and program stands
# alone: a game ships shoal.dll or shoal_c.dll without the compiler's DLLs beside it.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")

# Programs built here run under wine: CTest and the build's own checks run them through it.
find_program(SHOAL_WINE NAMES wine64 wine PATHS /usr/lib/wine)
if(SHOAL_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SHOAL_WINE})
endif()
