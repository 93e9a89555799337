# Runs `vkindex bench --quick --json --only kv-cache` and checks the KV-cache section's lines: the four rows in
# order, each checked by the bench against its CPU model (a wrong byte fails the row, and so this test), the
# bytes and copy regions each writes at --quick sizes (tools/bench/kv_cache_rows.cpp: 2 layers, K and V,
# float16 [1, 8, 1024, 128]), one TensorScatter dispatch per cache write (one batch entry: the write pass
# checks its own write index), and positive times.
# Inputs: CLI (the vkindex binary).
include(${CMAKE_CURRENT_LIST_DIR}/cli_json_lines.cmake)
vkindex_cli_json_lines(lines bench --quick --json --repeats 3 --only kv-cache)
# workload;ops;written bytes;copy regions: 4 caches x 8 heads of 256-byte rows; the circular write wraps
# (two runs of positions per head); the paged row writes 28 scattered 2 KiB slots of one pool (4 of its 32
# tokens are padding, slot -1, which the skip policy leaves out).
set(expected
    "decode-step,4,8192,32"
    "prefill-512,4,4194304,32"
    "kv-circular,4,131072,64"
    "paged-kv,1,57344,28")
list(LENGTH lines count)
if(NOT count EQUAL 4)
  message(FATAL_ERROR "expected 4 kv-cache lines:\n${lines}")
endif()
foreach(i RANGE 3)
  list(GET lines ${i} line)
  list(GET expected ${i} row)
  string(REPLACE "," ";" row "${row}")
  list(GET row 0 workload)
  list(GET row 1 ops)
  list(GET row 2 bytes)
  list(GET row 3 regions)
  foreach(key section workload ops_per_submit written_bytes copy_buffer_regions dispatches device_us host_us copy_buffer_us)
    string(JSON ${key} GET "${line}" ${key})
  endforeach()
  if(NOT section STREQUAL "kv-cache" OR NOT workload STREQUAL "${workload}")
    message(FATAL_ERROR "line ${i}: expected kv-cache row ${workload}: ${line}")
  endif()
  if(NOT ops_per_submit EQUAL ops OR NOT written_bytes EQUAL bytes OR NOT copy_buffer_regions EQUAL regions)
    message(FATAL_ERROR "${workload}: expected ${ops} ops, ${bytes} bytes and ${regions} regions: ${line}")
  endif()
  if(NOT workload STREQUAL "paged-kv" AND NOT dispatches EQUAL ops)
    message(FATAL_ERROR "${workload}: expected one dispatch per cache write (${ops}), got ${dispatches}: ${line}")
  endif()
  # A CPU driver may copy a few KiB within the timestamps' resolution: the baseline may be 0.
  if(NOT device_us GREATER 0 OR NOT host_us GREATER 0 OR copy_buffer_us LESS 0)
    message(FATAL_ERROR "${workload}: times must be positive: ${line}")
  endif()
endforeach()
message(STATUS "4 kv-cache rows checked")
