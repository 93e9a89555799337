# Writes TensorScatter node tests with tests/differential/tensor_scatter_node_tests.py (ONNX's own three
# cases and CASES random ones of every type, expected outputs from its numpy oracle) into SCRATCH, runs
# `vkindex onnx-test --json` on all of them, and requires one passing line per case, exit code 0 and no
# validation message. Inputs: PYTHON (an interpreter with onnx and numpy, or empty: the test is
# skipped), GENERATOR, CLI, SCRATCH, SEED, CASES.
if(NOT PYTHON)
  message("SKIPPED: no python3 with the onnx and numpy modules was found when configuring; install them "
          "(apt-get install python3-onnx python3-numpy) and configure again")
  return()
endif()
file(REMOVE_RECURSE ${SCRATCH})
execute_process(COMMAND ${PYTHON} ${GENERATOR} ${SCRATCH} --seed ${SEED} --cases ${CASES}
                RESULT_VARIABLE generated ERROR_VARIABLE generator_errors)
if(NOT generated EQUAL 0)
  message(FATAL_ERROR "the generator failed (${generated}):\n${generator_errors}")
endif()
file(GLOB cases LIST_DIRECTORIES true ${SCRATCH}/*)
list(LENGTH cases written)
math(EXPR requested "${CASES} + 3")
if(NOT written EQUAL requested)
  message(FATAL_ERROR "the generator wrote ${written} cases, ${requested} requested")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../cli/cli_json_lines.cmake)
vkindex_onnx_test_all_pass(lines ${cases})
message(STATUS "${written} TensorScatter node tests (ONNX's 3 and ${CASES} random, seed ${SEED}): all pass")
