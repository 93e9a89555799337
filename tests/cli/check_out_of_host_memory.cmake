# `vkindex onnx-test` under an address-space cap (`ulimit -v`, in a subshell), given tensor files larger
# than the memory it may use. The CLI must report each as an ERROR line naming the file, the step and
# the bytes, and exit 1: never abort on std::bad_alloc. The files are sparse, so they cost no disk or
# time to make. Inputs: CLI, SOURCE (a valid node-test directory), SCRATCH (a work folder).
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})

# Cap 1.9 GB. The CLI alone (driver and validation layer loaded) takes well under 0.9 GB of it.
set(cap_kib 1900000)

# 1. A 1.9 GiB file: more than the whole cap, so its read buffer cannot be allocated.
file(COPY ${SOURCE}/ DESTINATION ${SCRATCH}/too_big_to_read)
set(too_big_to_read ${SCRATCH}/too_big_to_read/test_data_set_0/input_0.pb)
file(REMOVE ${too_big_to_read})
execute_process(COMMAND truncate -s 1992294400 ${too_big_to_read} COMMAND_ERROR_IS_FATAL ANY)

# 2. A valid 1 GiB uint8 tensor (header, then zero bytes): it can be read, but parsing copies raw_data
# out of the read buffer, which would need another GiB.
file(COPY ${SOURCE}/ DESTINATION ${SCRATCH}/too_big_to_parse)
set(too_big_to_parse ${SCRATCH}/too_big_to_parse/test_data_set_0/input_0.pb)
file(REMOVE ${too_big_to_parse})
# dims: [2^30] (field 1, varint), data_type: 2 = UINT8 (field 2), raw_data (field 9): 2^30 bytes.
execute_process(COMMAND sh -c "printf '\\010\\200\\200\\200\\200\\004\\020\\002\\112\\200\\200\\200\\200\\004' > '${too_big_to_parse}'"
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND truncate -s 1073741838 ${too_big_to_parse} COMMAND_ERROR_IS_FATAL ANY)

execute_process(COMMAND sh -c "ulimit -v ${cap_kib} && exec \"$0\" onnx-test \"$1\" \"$2\" \"$3\""
                        ${CLI} ${SCRATCH}/too_big_to_read ${SCRATCH}/too_big_to_parse ${SOURCE}
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE exit_code)
file(REMOVE_RECURSE ${SCRATCH})
if(NOT exit_code EQUAL 1)
  message(FATAL_ERROR "expected exit code 1, got '${exit_code}'\n${output}\n${errors}")
endif()
foreach(expected
    "ERROR ${SCRATCH}/too_big_to_read: ${too_big_to_read}: reading the file: cannot allocate 1992294400 bytes of host memory\n"
    "ERROR ${SCRATCH}/too_big_to_parse: ${too_big_to_parse}: parsing the file: cannot allocate 1073741838 bytes of host memory\n"
    "PASS  ${SOURCE}\n"
    "1 passed, 2 failed")
  string(FIND "${output}" "${expected}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "missing '${expected}' in:\n${output}\n${errors}")
  endif()
endforeach()
message(STATUS "${output}")
