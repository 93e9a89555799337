# Third-party pieces, all from Debian packages (see README): the Vulkan headers (libvulkan-dev) and volk
# (libvulkan-volk-dev). Configuring needs nothing else from the target system, which keeps cross builds
# simple: no Vulkan loader library (volk opens it at run time), and volk is compiled from source.

include(GNUInstallDirs)
include(${CMAKE_CURRENT_LIST_DIR}/vkindex_find_vulkan_headers.cmake)
if(NOT TARGET Vulkan::Headers)
  message(FATAL_ERROR "Vulkan headers not found (Debian: libvulkan-dev); set VKINDEX_VULKAN_INCLUDE_DIR")
endif()
find_package(Threads REQUIRED)
include(${CMAKE_CURRENT_LIST_DIR}/vkindex_volk.cmake)

# The C++ runtime a C program needs to link the static library (C++ programs link it anyway). CMake
# links a consumer with the C++ driver when it can; this also covers a consumer that enables only C.
set(VKINDEX_CXX_RUNTIME_LIBRARIES "stdc++;m" CACHE STRING
    "Libraries a C program links for vkindex's C++ runtime when vkindex is static (NDK: c++_static;c++abi)")
function(vkindex_link_cxx_runtime_for_c target)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    foreach(library IN LISTS VKINDEX_CXX_RUNTIME_LIBRARIES)
      target_link_libraries(${target} INTERFACE "$<$<LINK_LANGUAGE:C>:${library}>")
    endforeach()
  endif()
endfunction()
