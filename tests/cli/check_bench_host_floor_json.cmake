# Runs `vkindex bench --quick --json` on the host-index rows of a CPU device and checks each row's host
# floor: the host's memcpy of the row's copy regions, which the bench checks against the operator's output
# before timing it (a wrong region fails the row, and so this test), a region count that fits the row's
# output rows, and positive times.
# Inputs: CLI (the vkindex binary).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_cli_json_lines(lines bench --quick --json --repeats 3 --only embedding-host,middle-axis-host,gathernd-rows-host)
# Output rows per workload at --quick sizes (tools/bench/workloads.cpp): merged runs make fewer regions.
set(rows_embedding-host 1024)
set(rows_middle-axis-host 4096)
set(rows_gathernd-rows-host 4096)
set(checked 0)
foreach(line ${lines})
  string(JSON workload GET "${line}" workload)
  string(JSON regions GET "${line}" host_floor regions)
  if(regions LESS 1 OR regions GREATER rows_${workload})
    message(FATAL_ERROR "${workload}: ${regions} regions for ${rows_${workload}} output rows: ${line}")
  endif()
  foreach(key regions_ms one_copy_ms)
    string(JSON ms GET "${line}" host_floor ${key})
    if(NOT ms GREATER 0)
      message(FATAL_ERROR "${workload}: host_floor ${key} is not positive: ${line}")
    endif()
  endforeach()
  math(EXPR checked "${checked} + 1")
endforeach()
if(NOT checked EQUAL 3)
  message(FATAL_ERROR "expected 3 rows:\n${lines}")
endif()
message(STATUS "3 host-index rows with their host floor")
