# Defines Vulkan::Headers: the only thing vkindex and its consumers need from Vulkan at build time (the
# loader library is opened at run time). Used by vkindex's build and by the installed vkindexConfig.cmake.
# Tries the Vulkan-Headers package (VulkanHeadersConfig.cmake: Debian's libvulkan-dev, the Vulkan SDK),
# then CMake's FindVulkan, then a plain search for the header (e.g. an NDK sysroot).
if(NOT TARGET Vulkan::Headers)
  find_package(VulkanHeaders CONFIG QUIET)
endif()
if(NOT TARGET Vulkan::Headers)
  find_package(Vulkan QUIET)
endif()
if(NOT TARGET Vulkan::Headers)
  find_path(VKINDEX_VULKAN_INCLUDE_DIR vulkan/vulkan_core.h DOC "Folder holding vulkan/vulkan_core.h")
  if(VKINDEX_VULKAN_INCLUDE_DIR)
    add_library(Vulkan::Headers INTERFACE IMPORTED)
    set_target_properties(Vulkan::Headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${VKINDEX_VULKAN_INCLUDE_DIR})
  endif()
endif()
