# `vkindex onnx-test` under an address-space cap (`ulimit -v`, in a subshell), given tensor files larger
# than the memory it may use. The CLI must report each as an ERROR line naming the file, the step and
# the bytes, and exit 1: never abort on std::bad_alloc. The files are sparse, so they cost no disk or
# time to make. Inputs: CLI, SOURCE (a valid node-test directory), SCRATCH (a work folder).
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})

# Each case's numbers hold for any baseline (the CLI with driver and validation layer loaded, about
# 0.3-0.6 GB of address space with 2 cores) from 0.06 GB to 1.5 GB, so more cores and threads are fine.

# 1. A 1.9 GiB file under a 1.5 GB cap: its read buffer alone exceeds the cap.
file(COPY ${SOURCE}/ DESTINATION ${SCRATCH}/too_big_to_read)
set(too_big_to_read ${SCRATCH}/too_big_to_read/test_data_set_0/input_0.pb)
file(REMOVE ${too_big_to_read})
execute_process(COMMAND truncate -s 1992294400 ${too_big_to_read} COMMAND_ERROR_IS_FATAL ANY)

# 2. A valid 1.5 GiB uint8 tensor (header, then zero bytes) under a 3.2 GB cap: it can be read, but
# parsing copies raw_data out of the read buffer, and two copies exceed the cap.
file(COPY ${SOURCE}/ DESTINATION ${SCRATCH}/too_big_to_parse)
set(too_big_to_parse ${SCRATCH}/too_big_to_parse/test_data_set_0/input_0.pb)
file(REMOVE ${too_big_to_parse})
# dims: [3 x 2^29] (field 1, varint), data_type: 2 = UINT8 (field 2), raw_data (field 9): 3 x 2^29 bytes.
execute_process(COMMAND sh -c "printf '\\010\\200\\200\\200\\200\\006\\020\\002\\112\\200\\200\\200\\200\\006' > '${too_big_to_parse}'"
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND truncate -s 1610612750 ${too_big_to_parse} COMMAND_ERROR_IS_FATAL ANY)

# Runs `vkindex onnx-test <dirs>` under `ulimit -v <cap_kib>`; stdout and stderr into `output`.
function(run_capped cap_kib)
  execute_process(COMMAND sh -c "ulimit -v ${cap_kib} && exec \"$0\" onnx-test \"$@\"" ${CLI} ${ARGN}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE exit_code)
  if(NOT exit_code EQUAL 1)
    message(FATAL_ERROR "expected exit code 1, got '${exit_code}'\n${out}\n${err}")
  endif()
  set(output "${out}${err}" PARENT_SCOPE)
endfunction()

# Expects every argument after the first as a piece of `text`.
function(expect_all text)
  foreach(expected ${ARGN})
    string(FIND "${text}" "${expected}" found)
    if(found EQUAL -1)
      message(FATAL_ERROR "missing '${expected}' in:\n${text}")
    endif()
  endforeach()
  message(STATUS "${text}")
endfunction()

run_capped(1500000 ${SCRATCH}/too_big_to_read ${SOURCE})
expect_all("${output}"
  "ERROR ${SCRATCH}/too_big_to_read: ${too_big_to_read}: reading the file: cannot allocate 1992294400 bytes of host memory\n"
  "PASS  ${SOURCE}\n" "1 passed, 1 failed")
run_capped(3200000 ${SCRATCH}/too_big_to_parse ${SOURCE})
expect_all("${output}"
  "ERROR ${SCRATCH}/too_big_to_parse: ${too_big_to_parse}: parsing the file: cannot allocate 1610612750 bytes of host memory\n"
  "PASS  ${SOURCE}\n" "1 passed, 1 failed")
file(REMOVE_RECURSE ${SCRATCH})
