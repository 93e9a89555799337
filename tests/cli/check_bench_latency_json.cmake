# Runs `vkindex bench --quick --json --only latency` and checks the latency section's lines: the eight rows in
# order, each checked by the bench against its CPU reference (a wrong byte fails the row, and so this test), the
# bytes each writes (tools/bench/latency_cases.cpp), one dispatch for every small operation (the single-dispatch
# plans of issue 57; the host-index row copies without a kernel), and the fields of both baselines.
# Inputs: CLI (the vkindex binary).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_cli_json_lines(lines bench --quick --json --only latency)
# workload;written bytes;dispatches
set(expected
    "gather-1row,4096,1"
    "gather-8rows,32768,1"
    "gather-1row-host,4096,0"
    "gathernd-1row,4096,1"
    "scatternd-1row,4096,1"
    "scatterelements-8,32,1"
    "tensorscatter-1token,2048,1"
    "gbq-1row,4096,1")
list(LENGTH lines count)
list(LENGTH expected expected_count)
if(NOT count EQUAL expected_count)
  message(FATAL_ERROR "expected ${expected_count} latency lines:\n${lines}")
endif()
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  list(GET lines ${i} line)
  list(GET expected ${i} row)
  string(REPLACE "," ";" row "${row}")
  list(GET row 0 workload)
  list(GET row 1 bytes)
  list(GET row 2 dispatches)
  foreach(key section workload written_bytes dispatches device_us bare_dispatch_us bare_dispatch_host_barrier_us
              batch_ops batch_device_us_per_op batch_bare_dispatch_us_per_op ratio_device_bare
              ratio_device_bare_host_barrier ratio_batch_device_bare)
    string(JSON ${key}_value GET "${line}" ${key})
  endforeach()
  if(NOT section_value STREQUAL "latency" OR NOT workload_value STREQUAL "${workload}")
    message(FATAL_ERROR "line ${i}: expected latency row ${workload}: ${line}")
  endif()
  if(NOT written_bytes_value EQUAL bytes OR NOT dispatches_value EQUAL dispatches OR NOT batch_ops_value EQUAL 100)
    message(FATAL_ERROR "${workload}: expected ${bytes} bytes, ${dispatches} dispatches, 100 per batch: ${line}")
  endif()
  # A CPU driver may run a few KiB within the timestamps' resolution: a time may be 0, never negative.
  foreach(key device_us bare_dispatch_us bare_dispatch_host_barrier_us batch_device_us_per_op
              batch_bare_dispatch_us_per_op)
    if(${key}_value LESS 0)
      message(FATAL_ERROR "${workload}: ${key} must not be negative: ${line}")
    endif()
  endforeach()
endforeach()
message(STATUS "${count} latency rows checked")
