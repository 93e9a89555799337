# Runs `vkindex bench --quick --json` on Gather and GatherND rows of a CPU device, with indices in host memory
# and in a tensor, and checks each row's host floor: the host's memcpy of the row's rows as copy regions, which
# the bench checks against the operator's output before timing it (a wrong region fails the row, and so this
# test), a region count that fits the row's output rows, and positive times. Ascending indices must merge into
# one region per run of consecutive rows, and GatherElements (no rows to copy) must have no floor.
# Inputs: CLI (the vkindex binary).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_cli_json_lines(lines bench --quick --json --repeats 3 --only
                       embedding-host,middle-axis,gathernd-rows,elements-axis0)
# Output rows per workload at --quick sizes (tools/bench/workloads.cpp): merged runs make fewer regions.
set(rows_embedding-host 1024)
set(rows_middle-axis 4096)
set(rows_middle-axis-host 4096)
set(rows_gathernd-rows 4096)
set(rows_gathernd-rows-host 4096)
# Indices 0..255 of each of the 16 outer slices: one run of 256 consecutive rows per slice.
set(rows_middle-axis-ascending 16)
set(exact_middle-axis-ascending TRUE)
set(checked 0)
foreach(line ${lines})
  string(JSON workload GET "${line}" workload)
  if(workload STREQUAL "elements-axis0")
    string(JSON floor ERROR_VARIABLE no_floor GET "${line}" host_floor)
    if(NOT no_floor)
      message(FATAL_ERROR "${workload}: a host floor for GatherElements: ${line}")
    endif()
    math(EXPR checked "${checked} + 1")
    continue()
  endif()
  if(NOT DEFINED rows_${workload})
    message(FATAL_ERROR "unexpected row ${workload}: ${line}")
  endif()
  string(JSON regions GET "${line}" host_floor regions)
  if(regions LESS 1 OR regions GREATER rows_${workload})
    message(FATAL_ERROR "${workload}: ${regions} regions for ${rows_${workload}} output rows: ${line}")
  endif()
  if(exact_${workload} AND NOT regions EQUAL rows_${workload})
    message(FATAL_ERROR "${workload}: ${regions} regions, expected the ${rows_${workload}} runs merged: ${line}")
  endif()
  foreach(key regions_ms one_copy_ms)
    string(JSON ms GET "${line}" host_floor ${key})
    if(NOT ms GREATER 0)
      message(FATAL_ERROR "${workload}: host_floor ${key} is not positive: ${line}")
    endif()
  endforeach()
  math(EXPR checked "${checked} + 1")
endforeach()
# embedding-host, middle-axis, middle-axis-ascending, middle-axis-host, gathernd-rows, gathernd-rows-host and
# elements-axis0.
if(NOT checked EQUAL 7)
  message(FATAL_ERROR "expected 7 rows:\n${lines}")
endif()
message(STATUS "6 Gather and GatherND rows with their host floor, GatherElements without")
