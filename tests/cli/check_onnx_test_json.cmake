# Runs `vkindex onnx-test --json` on every indexing node test (test_gather*, test_scatter*) and checks
# each line: every directory must pass (Gather, GatherElements, GatherND, Scatter, ScatterElements and
# ScatterND are all implemented), with one line per directory and no validation message.
# Inputs: CLI (the vkindex binary), DIRS (the directories).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_cli_json_lines(lines onnx-test --json ${DIRS})
set(passes 0)
set(scatter_passes 0)
set(checked 0)
foreach(line ${lines})
  math(EXPR checked "${checked} + 1")
  string(JSON status GET "${line}" status)
  string(JSON test GET "${line}" test)
  string(JSON message GET "${line}" message)
  if(NOT status STREQUAL "pass")
    message(FATAL_ERROR "unexpected result for ${test}: ${status}: ${message}")
  endif()
  math(EXPR passes "${passes} + 1")
  if(test MATCHES "/test_scatter")
    math(EXPR scatter_passes "${scatter_passes} + 1")
  endif()
endforeach()
list(LENGTH DIRS expected)
# libonnx-testdata 1.12: 10 gather-family and 9 scatter-family directories.
if(NOT checked EQUAL expected OR passes LESS 19 OR scatter_passes LESS 9)
  message(FATAL_ERROR "expected ${expected} passing result lines, at least 19 (9 scatter), got ${checked} lines, "
                      "${passes} passes (${scatter_passes} scatter)")
endif()
message(STATUS "${checked} directories: all pass (${scatter_passes} scatter)")
