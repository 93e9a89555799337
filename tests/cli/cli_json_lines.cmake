# For the checks of the CLI's --json output: runs `${CLI} <args>` and sets `out_var` to its non-empty
# output lines (one JSON object each), failing the test on a nonzero exit code (onnx-test: any FAIL or
# ERROR; bench: a failed row), any validation message, or a line with an "error" key (a failed bench
# row or point).
function(vkindex_cli_json_lines out_var)
  execute_process(COMMAND ${CLI} ${ARGN} OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE exit_code)
  if(NOT exit_code EQUAL 0)
    # The output without onnx-test's passing lines (a differential run's failures sit among hundreds).
    string(REGEX REPLACE "[^\n]*\"status\":\"pass\"[^\n]*\n" "" failures "${output}")
    list(GET ARGN 0 command)
    message(FATAL_ERROR "vkindex ${command} exited with ${exit_code}\n${failures}\n${errors}")
  endif()
  if(errors MATCHES "validation")
    message(FATAL_ERROR "validation messages:\n${errors}")
  endif()
  # A ';' (in valid JSON only inside a string, such as a message) would split its line into two list
  # elements; JSON's own escape for it keeps the line one element and its text the same.
  string(REPLACE ";" "\\u003b" output "${output}")
  string(REPLACE "\n" ";" lines "${output}")
  list(FILTER lines EXCLUDE REGEX "^$")
  foreach(line ${lines})
    string(JSON error ERROR_VARIABLE no_error GET "${line}" error)
    if(NOT no_error)
      message(FATAL_ERROR "a line reports a failure: ${line}")
    endif()
  endforeach()
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

# Runs `${CLI} onnx-test --json` on the directories after `out_var` and requires one passing line per
# directory (vkindex_cli_json_lines' checks too); sets `out_var` to the lines.
function(vkindex_onnx_test_all_pass out_var)
  vkindex_cli_json_lines(lines onnx-test --json ${ARGN})
  foreach(line ${lines})
    string(JSON status GET "${line}" status)
    if(NOT status STREQUAL "pass")
      string(JSON test GET "${line}" test)
      string(JSON message GET "${line}" message)
      message(FATAL_ERROR "${test}: ${status}: ${message}")
    endif()
  endforeach()
  list(LENGTH lines passes)
  list(LENGTH ARGN expected)
  if(NOT passes EQUAL expected)
    message(FATAL_ERROR "${passes} passing lines for ${expected} directories")
  endif()
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()
