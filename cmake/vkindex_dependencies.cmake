# Third-party pieces, all from Debian packages (see README): Vulkan headers (libvulkan-dev) and volk
# (libvulkan-volk-dev, which ships volk.c to compile into the consumer). The library never links
# libvulkan: volk opens it at run time.

find_package(Vulkan REQUIRED COMPONENTS glslangValidator)
if(NOT TARGET Vulkan::Headers)
  message(FATAL_ERROR "Vulkan headers not found (Debian: libvulkan-dev)")
endif()

find_path(VOLK_INCLUDE_DIR volk.h REQUIRED)
find_file(VOLK_SOURCE volk.c PATHS ${VOLK_INCLUDE_DIR} NO_DEFAULT_PATH REQUIRED)
add_library(vkindex_volk STATIC ${VOLK_SOURCE})
target_include_directories(vkindex_volk PUBLIC ${VOLK_INCLUDE_DIR})
target_compile_definitions(vkindex_volk PUBLIC VK_NO_PROTOTYPES)
target_link_libraries(vkindex_volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
set_target_properties(vkindex_volk PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
