# Runs `vkindex bench --sweep --quick --sweep-mib 2 --json` and checks its lines: one JSON object per row
# size 1, 2, 4, ..., 65536 bytes in that order, each of 2 MiB of output (--sweep-mib over --quick's 1), with
# the keys scripts/plot-sweep.sh and other readers use, positive rates, no failed point, exit code 0 and
# no validation message.
# Inputs: CLI (the vkindex binary).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_cli_json_lines(lines bench --sweep --quick --sweep-mib 2 --json)
set(expected_row_bytes 1)
foreach(line ${lines})
  # Every key a reader relies on; GET fails (and the test with it) on a missing key or a line that is not JSON.
  foreach(key device date element_type rows output_bytes gather_ms gathernd_ms scatternd_ms copy_buffer_ms
              compute_copy_ms repeats timing)
    string(JSON value GET "${line}" ${key})
  endforeach()
  string(JSON date GET "${line}" date)
  if(NOT date MATCHES "^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$")
    message(FATAL_ERROR "date is not YYYY-MM-DD: ${line}")
  endif()
  string(JSON row_bytes GET "${line}" row_bytes)
  if(NOT row_bytes EQUAL expected_row_bytes)
    message(FATAL_ERROR "expected row_bytes ${expected_row_bytes}, got: ${line}")
  endif()
  foreach(key gather_gb_per_s gathernd_gb_per_s scatternd_gb_per_s copy_buffer_gb_per_s compute_copy_gb_per_s)
    string(JSON rate GET "${line}" ${key})
    if(NOT rate GREATER 0)
      message(FATAL_ERROR "${key} is not positive: ${line}")
    endif()
  endforeach()
  string(JSON output_bytes GET "${line}" output_bytes)
  if(NOT output_bytes EQUAL 2097152)
    message(FATAL_ERROR "expected 2 MiB of output per point, got: ${line}")
  endif()
  math(EXPR expected_row_bytes "${expected_row_bytes} * 2")
endforeach()
if(NOT expected_row_bytes EQUAL 131072)
  message(FATAL_ERROR "expected 17 points (rows of 1 B to 64 KiB), the last one before ${expected_row_bytes}:\n${lines}")
endif()
message(STATUS "17 sweep points, 1 B to 64 KiB rows")
