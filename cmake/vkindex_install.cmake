# Install rules: the public headers (with the generated version.hpp), libvkindex (static or shared),
# a CMake package (find_package(vkindex) gives vkindex::vkindex) and a pkg-config file (vkindex.pc).
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/vkindex ${PROJECT_BINARY_DIR}/include/vkindex
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT vkindex_development)
install(TARGETS vkindex EXPORT vkindexTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vkindex_development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT vkindex_runtime NAMELINK_COMPONENT vkindex_development
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT vkindex_runtime)

set(VKINDEX_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vkindex)
install(EXPORT vkindexTargets NAMESPACE vkindex:: DESTINATION ${VKINDEX_CMAKE_PACKAGE_DIR}
        COMPONENT vkindex_development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vkindexConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/vkindexConfig.cmake INSTALL_DESTINATION ${VKINDEX_CMAKE_PACKAGE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/vkindexConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/vkindexConfig.cmake ${PROJECT_BINARY_DIR}/package/vkindexConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/vkindex_find_vulkan_headers.cmake
        DESTINATION ${VKINDEX_CMAKE_PACKAGE_DIR} COMPONENT vkindex_development)

# pkg-config: a static library lists what it needs itself under Libs.private (C consumers need the C++
# runtime); a shared one carries its own dependencies.
set(VKINDEX_PC_LIBS_PRIVATE "")
if(NOT VKINDEX_BUILD_SHARED)
  set(vkindex_pc_libraries ${VKINDEX_CXX_RUNTIME_LIBRARIES} ${CMAKE_DL_LIBS})
  list(TRANSFORM vkindex_pc_libraries PREPEND "-l")
  string(JOIN " " VKINDEX_PC_LIBS_PRIVATE ${vkindex_pc_libraries} ${CMAKE_THREAD_LIBS_INIT})
endif()
file(RELATIVE_PATH VKINDEX_PC_PREFIX_FROM_PCFILEDIR /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vkindex.pc.in ${PROJECT_BINARY_DIR}/package/vkindex.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/vkindex.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT vkindex_development)
