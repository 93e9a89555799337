# Generates random node tests with tests/differential/numpy_node_tests.py (expected outputs from an
# independent numpy reference) into SCRATCH, runs `vkindex onnx-test --json` on all of them, and
# requires one passing line per case, exit code 0 and no validation message.
# Inputs: PYTHON (an interpreter with onnx and numpy, or empty: the test is skipped), GENERATOR, CLI,
# SCRATCH, SEED, SMALL and LARGE (case counts, see the generator).
if(NOT PYTHON)
  # The test's SKIP_REGULAR_EXPRESSION matches this line: ctest reports a skip, with its reason.
  message("SKIPPED: no python3 with the onnx and numpy modules was found when configuring; install them "
          "(apt-get install python3-onnx python3-numpy) and configure again")
  return()
endif()
file(REMOVE_RECURSE ${SCRATCH})
execute_process(COMMAND ${PYTHON} ${GENERATOR} ${SCRATCH} --seed ${SEED} --small ${SMALL} --large ${LARGE}
                RESULT_VARIABLE generated ERROR_VARIABLE generator_errors)
if(NOT generated EQUAL 0)
  message(FATAL_ERROR "the generator failed (${generated}):\n${generator_errors}")
endif()
file(GLOB cases LIST_DIRECTORIES true ${SCRATCH}/*)
list(LENGTH cases expected)
math(EXPR requested "${SMALL} + ${LARGE}")
if(NOT expected EQUAL requested)
  message(FATAL_ERROR "the generator wrote ${expected} cases, ${requested} requested")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../cli/cli_json_lines.cmake)
vkindex_onnx_test_all_pass(lines ${cases})
message(STATUS "${expected} numpy-referenced cases (seed ${SEED}): all pass")
