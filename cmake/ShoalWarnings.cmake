# SPDX-License-Identifier: MIT
# Warnings are errors in everything Shoal compiles itself.
function(shoal_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Werror)
  # GCC 12's flow-based warnings misfire at -O3 inside libstdc++'s own std::string and
  # std::vector code (strings of braced temporaries "maybe uninitialized", a vector's back()
  # "outside array bounds"), so a Release build of the tests stopped on code nobody here wrote.
  # There they stay warnings, still printed; every other build and warning stops as before.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release,MinSizeRel>:
      -Wno-error=maybe-uninitialized -Wno-error=array-bounds -Wno-error=stringop-overflow>)
  endif()
endfunction()

if(SHOAL_SANITIZE)
  set(SHOAL_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options(${SHOAL_SANITIZER_FLAGS})
  # Also carried by the exported shoal::shoal target and shoal.pc, so consumers link.
  set(SHOAL_SANITIZER_LINK_FLAGS -fsanitize=address,undefined)
  add_link_options(${SHOAL_SANITIZER_LINK_FLAGS})
endif()
