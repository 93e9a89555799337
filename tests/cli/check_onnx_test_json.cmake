# Runs `vkindex onnx-test --json` on every indexing node test (test_gather*, test_scatter*) and checks
# each line: every directory must pass (Gather, GatherElements, GatherND, Scatter, ScatterElements and
# ScatterND are all implemented), with one line per directory and no validation message.
# Inputs: CLI (the vkindex binary), DIRS (the directories).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_onnx_test_all_pass(lines ${DIRS})
list(LENGTH lines passes)
set(scatter_passes 0)
foreach(line ${lines})
  string(JSON test GET "${line}" test)
  if(test MATCHES "/test_scatter")
    math(EXPR scatter_passes "${scatter_passes} + 1")
  endif()
endforeach()
# libonnx-testdata 1.12: 10 gather-family and 9 scatter-family directories.
if(passes LESS 19 OR scatter_passes LESS 9)
  message(FATAL_ERROR "expected at least 19 passing directories (9 scatter), got ${passes} (${scatter_passes} scatter)")
endif()
message(STATUS "${passes} directories: all pass (${scatter_passes} scatter)")
