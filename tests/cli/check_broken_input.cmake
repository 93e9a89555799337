# `vkindex onnx-test` on broken test directories: a truncated model, a garbage tensor, an empty
# directory and a missing one. Each must give one ERROR line naming the file, and the command must
# exit 1 (not crash). Inputs: CLI, SOURCE (a valid node-test directory), SCRATCH (a work folder).
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
file(COPY ${SOURCE}/ DESTINATION ${SCRATCH}/truncated_model)
file(REMOVE ${SCRATCH}/truncated_model/model.onnx)
# The first 30 bytes of the real model: a truncated protobuf.
execute_process(COMMAND head -c 30 ${SOURCE}/model.onnx OUTPUT_FILE ${SCRATCH}/truncated_model/model.onnx)
file(COPY ${SOURCE}/ DESTINATION ${SCRATCH}/garbage_tensor)
file(WRITE ${SCRATCH}/garbage_tensor/test_data_set_0/input_0.pb "this is not a protobuf tensor \xff\xff\xff")
file(MAKE_DIRECTORY ${SCRATCH}/empty_dir)

execute_process(COMMAND ${CLI} onnx-test ${SCRATCH}/truncated_model ${SCRATCH}/garbage_tensor ${SCRATCH}/empty_dir
                        ${SCRATCH}/missing_dir
                OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE exit_code)
if(NOT exit_code EQUAL 1)
  message(FATAL_ERROR "expected exit code 1, got '${exit_code}'\n${output}\n${errors}")
endif()
foreach(expected "ERROR ${SCRATCH}/truncated_model: [^\n]*truncated_model/model.onnx"
                 "ERROR ${SCRATCH}/garbage_tensor: [^\n]*garbage_tensor/test_data_set_0/input_0.pb"
                 "ERROR ${SCRATCH}/empty_dir: [^\n]*empty_dir/model.onnx"
                 "ERROR ${SCRATCH}/missing_dir: [^\n]*missing_dir"
                 "0 passed, 4 failed")
  if(NOT output MATCHES "${expected}")
    message(FATAL_ERROR "missing '${expected}' in:\n${output}")
  endif()
endforeach()
message(STATUS "${output}")
