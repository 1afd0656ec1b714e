# Warnings are errors in everything Shoal compiles itself.
function(shoal_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Werror)
endfunction()

if(SHOAL_SANITIZE)
  set(SHOAL_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options(${SHOAL_SANITIZER_FLAGS})
  # Also carried by the exported shoal::shoal target and shoal.pc, so consumers link.
  set(SHOAL_SANITIZER_LINK_FLAGS -fsanitize=address,undefined)
  add_link_options(${SHOAL_SANITIZER_LINK_FLAGS})
endif()
