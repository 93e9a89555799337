// Runs one ONNX node-test directory on a vkindex Context: every test_data_set_N, compared with its
// expected outputs byte for byte, optionally timed. What `vkindex onnx-test` and the conformance tests
// share.
#pragma once

#include <optional>
#include <string>

#include "op_timer.hpp"
#include "vkindex/vkindex.hpp"

namespace vkindex::tools {

enum class Outcome { kPass, kFail, kError };

// "pass", "fail", "error".
const char* outcomeName(Outcome outcome);

struct NodeTestResult {
  Outcome outcome = Outcome::kError;
  // Empty on pass; the first mismatch on fail; the library's or reader's message on error. One line.
  std::string message;
  std::optional<Timing> timing;  // with repeat > 0, when the operator ran
};

struct NodeTestOptions {
  // > 0: also time the first data set's operator this many times, recorded into fresh outputs (not for
  // strings), which must match the expected outputs too.
  int repeat = 0;
};

// Runs `dir`. A directory holding a regular file named `expect_error` passes exactly when running it
// reports an error (reading it, or the operator), and fails when everything succeeds. Anything else of
// that name (a directory, a FIFO, ...) is an error without a run. Messages escape and cap every name and
// value taken from the files (onnxio::printableText).
NodeTestResult runNodeTestDir(Context& context, const std::string& dir, const NodeTestOptions& options);

}  // namespace vkindex::tools
