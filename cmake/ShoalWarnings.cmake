# Warnings are errors in everything Shoal compiles itself.
function(shoal_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion -Werror)
endfunction()

if(SHOAL_SANITIZE)
  set(SHOAL_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
  add_compile_options(${SHOAL_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()
