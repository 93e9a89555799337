# Warnings for vkindex's own targets. VKINDEX_WERROR (on in CI) turns them into errors.
option(VKINDEX_WERROR "Treat compiler warnings as errors" OFF)

function(vkindex_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion
                                           -Wno-missing-field-initializers
                                           $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>)
  if(VKINDEX_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
