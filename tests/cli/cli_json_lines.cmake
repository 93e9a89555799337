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
