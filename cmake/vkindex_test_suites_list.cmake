# Run by ctest, not by cmake (see vkindex_test_suites.cmake): lists a test binary's suites and adds one
# ctest test per suite. The list is saved and rebuilt only when the binary, the registration (the
# include file, which cmake rewrites when a prefix, selection, label or exclusion changes) or this
# script is newer than it.
#
# Each test: `<binary> --gtest_filter=<Suite>.*[-<EXCLUDE>] --skipped-exit-code=77` with
# VKINDEX_TEST_DRIVER set, SKIP_RETURN_CODE 77 (tests/support/gpu_test_main.cpp), and the suite's test
# count as its COST, so that a fresh build (no timings of its own yet) starts the larger suites first.
set(VKINDEX_TEST_SUITES_LIST_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

function(vkindex_register_test_suites)
  cmake_parse_arguments(ARG "" "BINARY;LIST_FILE;REGISTRATION;PREFIX;SELECTION;LABEL;EXCLUDE;WORKING_DIRECTORY" ""
                        ${ARGN})
  if(NOT EXISTS "${ARG_BINARY}")
    # Not built (yet): register a test that fails saying so, rather than silently none.
    get_filename_component(binary_name "${ARG_BINARY}" NAME)
    add_test("${ARG_PREFIX}${binary_name}.not_built" "${ARG_BINARY}")
    return()
  endif()
  if("${ARG_BINARY}" IS_NEWER_THAN "${ARG_LIST_FILE}" OR "${ARG_REGISTRATION}" IS_NEWER_THAN "${ARG_LIST_FILE}"
     OR "${VKINDEX_TEST_SUITES_LIST_SCRIPT}" IS_NEWER_THAN "${ARG_LIST_FILE}")
    execute_process(COMMAND "${ARG_BINARY}" --gtest_list_tests WORKING_DIRECTORY "${ARG_WORKING_DIRECTORY}"
                    OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "${ARG_BINARY} --gtest_list_tests failed (${result}):\n${listing}${errors}")
    endif()
    # gtest's listing: "Suite." on a line of its own (a parameterized or typed suite adds "  # ..."),
    # then "  Test" per test. Lines of neither shape are not gtest's and are ignored.
    string(REPLACE ";" "\\;" listing "${listing}")
    string(REPLACE "\n" ";" lines "${listing}")
    set(suites)
    set(script "")
    foreach(line IN LISTS lines)
      if(line MATCHES "^([A-Za-z0-9_/]+)\\.( |$)")
        set(suite "${CMAKE_MATCH_1}")
        list(APPEND suites "${suite}")
        set(count_${suite} 0)
      elseif(line MATCHES "^  [A-Za-z0-9_/]+" AND DEFINED suite)
        math(EXPR count_${suite} "${count_${suite}} + 1")
      endif()
    endforeach()
    if(NOT suites)
      message(FATAL_ERROR "${ARG_BINARY} --gtest_list_tests listed no test suite:\n${listing}")
    endif()
    # gtest's filter syntax: POSITIVE[-NEGATIVE], both ':'-separated.
    set(negative "")
    if(NOT "${ARG_EXCLUDE}" STREQUAL "")
      set(negative "-${ARG_EXCLUDE}")
    endif()
    foreach(suite IN LISTS suites)
      set(name "${ARG_PREFIX}${suite}")
      string(APPEND script
        "add_test([==[${name}]==] [==[${ARG_BINARY}]==] [==[--gtest_filter=${suite}.*${negative}]==]"
        " --skipped-exit-code=77)\n"
        "set_tests_properties([==[${name}]==] PROPERTIES ENVIRONMENT [==[VKINDEX_TEST_DRIVER=${ARG_SELECTION}]==]"
        " LABELS [==[${ARG_LABEL}]==] SKIP_RETURN_CODE 77 COST ${count_${suite}}"
        " WORKING_DIRECTORY [==[${ARG_WORKING_DIRECTORY}]==])\n")
    endforeach()
    file(WRITE "${ARG_LIST_FILE}" "${script}")
  endif()
  include("${ARG_LIST_FILE}")
endfunction()
