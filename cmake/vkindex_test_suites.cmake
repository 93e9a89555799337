# vkindex_add_test_suites(<target> <prefix> <selection: VKINDEX_TEST_DRIVER's value> <label>
#                         [EXCLUDE <gtest pattern>...])
#
# Registers a GPU test binary with ctest as one test per gtest test suite (named <prefix><Suite>), not
# one per test as gtest_discover_tests does. Each process creates a Vulkan instance and device under the
# validation layer and compiles the pipelines its tests use, and the CPU drivers' compile dominates their
# time (SwiftShader: most of a type-matrix test is the driver's compiler): a suite's tests share one
# shared Context and so compile each pipeline once, which keeps the CPU drivers' ctest runs within CI's
# budget (timings in docs/measurements/).
#
# The suites are listed at ctest time, as gtest_discover_tests' PRE_TEST mode does: the generated
# include file runs `<binary> --gtest_list_tests` whenever the binary is newer than its saved list
# (cmake/vkindex_test_suites_list.cmake). Run one test by hand with the binary and --gtest_filter.
# EXCLUDE: tests this registration leaves out of every suite's filter.
set(VKINDEX_TEST_SUITES_LISTER "${CMAKE_CURRENT_LIST_DIR}/vkindex_test_suites_list.cmake")

function(vkindex_add_test_suites target prefix selection label)
  cmake_parse_arguments(ARG "" "" "EXCLUDE" ${ARGN})
  list(JOIN ARG_EXCLUDE ":" exclude)
  string(MAKE_C_IDENTIFIER "${prefix}${target}" id)
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${id}_include.cmake")
  set(list_file "${CMAKE_CURRENT_BINARY_DIR}/${id}_suites.cmake")
  # file(GENERATE): $<TARGET_FILE> is known only at generation time.
  file(GENERATE OUTPUT "${include_file}" CONTENT
"include([==[${VKINDEX_TEST_SUITES_LISTER}]==])
vkindex_register_test_suites(
  BINARY [==[$<TARGET_FILE:${target}>]==] LIST_FILE [==[${list_file}]==] REGISTRATION [==[${include_file}]==]
  PREFIX [==[${prefix}]==]
  SELECTION [==[${selection}]==] LABEL [==[${label}]==] EXCLUDE [==[${exclude}]==]
  WORKING_DIRECTORY [==[${CMAKE_CURRENT_BINARY_DIR}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()

# vkindex_driver_icd(<driver> <variable>): the ICD manifest whose path in VK_DRIVER_FILES selects a test
# driver ("swiftshader" or "lavapipe", tests/CMakeLists.txt's VKINDEX_TEST_DRIVERS) for tests that are
# not GpuTest binaries (the CLI's, the Python module's).
function(vkindex_driver_icd driver variable)
  if(driver STREQUAL "swiftshader")
    set(${variable} ${VKINDEX_SWIFTSHADER_ICD} PARENT_SCOPE)
  else()
    set(${variable} ${VKINDEX_LAVAPIPE_ICD} PARENT_SCOPE)
  endif()
endfunction()
