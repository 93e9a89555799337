#include "node_runner.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "base/host_memory.hpp"
#include "node_ops.hpp"
#include "onnx_io.hpp"
#include "quote.hpp"
#include "tensor_compare.hpp"

namespace vkindex::tools {
namespace {

StatusOr<Tensor> toDevice(Context& context, const onnxio::HostTensor& host) {
  if (host.dtype == DataType::kString) return Tensor::fromStrings(context, host.dims, host.strings);
  return Tensor::fromHost(context, host.dtype, host.dims, host.bytes.data(), host.bytes.size());
}

StatusOr<onnxio::HostTensor> toHost(const Tensor& tensor) {
  onnxio::HostTensor host;
  host.dtype = tensor.dtype();
  host.dims = tensor.shape();
  if (tensor.dtype() == DataType::kString) {
    host.strings = tensor.strings();
  } else {
    VKINDEX_ASSIGN_OR_RETURN(host.bytes, tensor.toHost());
  }
  return host;
}

// Maps node-input names to the data set's tensors: graph inputs that are not initializers take the
// data set's input files in order; initializers supply the rest.
StatusOr<std::vector<const onnxio::HostTensor*>> nodeInputs(const onnxio::NodeModel& model,
                                                            const onnxio::TestDataSet& data_set) {
  std::map<std::string, const onnxio::HostTensor*> by_name;
  size_t next_file = 0;
  for (const onnxio::ValueInfo& input : model.graph_inputs) {
    if (model.initializers.count(input.name)) continue;
    if (next_file >= data_set.inputs.size()) {
      return invalidArgument(data_set.dir + ": no input file for graph input " + onnxio::quoteName(input.name));
    }
    by_name[input.name] = &data_set.inputs[next_file++];
  }
  for (const auto& [name, tensor] : model.initializers) by_name.emplace(name, &tensor);
  std::vector<const onnxio::HostTensor*> inputs;
  for (const std::string& name : model.inputs) {
    if (name.empty()) {  // an optional input left out
      inputs.push_back(nullptr);
      continue;
    }
    auto found = by_name.find(name);
    if (found == by_name.end()) return invalidArgument("node input " + onnxio::quoteName(name) + " has no value");
    inputs.push_back(found->second);
  }
  return inputs;
}

struct DataSetRun {
  std::vector<Tensor> device_inputs;
  DeviceInputs inputs;  // device_inputs in node-input order, null where an optional input is left out
  std::vector<Tensor> outputs;
};

// Uploads one data set's inputs and runs the node. Errors are the library's (or the binding's).
Status runDataSet(Context& context, const onnxio::NodeModel& model, const onnxio::TestDataSet& data_set,
                  DataSetRun& run) {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<const onnxio::HostTensor*> inputs, nodeInputs(model, data_set));
  for (const onnxio::HostTensor* input : inputs) {
    if (input == nullptr) continue;
    VKINDEX_ASSIGN_OR_RETURN(Tensor tensor, toDevice(context, *input));
    run.device_inputs.push_back(std::move(tensor));
  }
  size_t next = 0;
  for (const onnxio::HostTensor* input : inputs) run.inputs.push_back(input ? &run.device_inputs[next++] : nullptr);
  VKINDEX_ASSIGN_OR_RETURN(run.outputs, runNode(context, model, run.inputs));
  return Status::Ok();
}

// Fresh outputs of the types and shapes of `like`, filled with a byte pattern no operator writes by
// accident, so the recorded path cannot pass on the submitting path's results.
StatusOr<std::vector<Tensor>> poisonedOutputs(Context& context, const std::vector<Tensor>& like) {
  std::vector<Tensor> outputs;
  for (const Tensor& tensor : like) {
    VKINDEX_ASSIGN_OR_RETURN(Tensor output, Tensor::create(context, tensor.dtype(), tensor.shape()));
    VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> pattern,
                             allocateHostVector<uint8_t>(output.byteSize(), "the poisoned output"));
    std::fill(pattern.begin(), pattern.end(), uint8_t{0xCD});
    VKINDEX_RETURN_IF_ERROR(output.upload(pattern.data(), pattern.size()));
    outputs.push_back(std::move(output));
  }
  return outputs;
}

// Times the operator. Recorded runs write into fresh outputs, which replace run.outputs so the caller
// checks them too.
StatusOr<Timing> timeDataSet(Context& context, const onnxio::NodeModel& model, DataSetRun& run, int repeat) {
  const DeviceInputs& inputs = run.inputs;
  if (!canRecord(inputs)) {
    // String tensors live on the host: only wall time of the submitting path can be measured.
    return timeSubmitted(repeat, [&]() { return runNode(context, model, inputs).status(); });
  }
  VKINDEX_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, poisonedOutputs(context, run.outputs));
  VKINDEX_ASSIGN_OR_RETURN(Timing timing, timeRecorded(context, repeat, [&](VkCommandBuffer cmd) {
                             return recordNode(context, cmd, model, inputs, outputs);
                           }));
  run.outputs = std::move(outputs);
  return timing;
}

NodeTestResult error(std::string message) { return {Outcome::kError, std::move(message), std::nullopt}; }

// Whether `dir` holds an expect_error marker. Only its existence matters, so it is never opened: a FIFO
// of that name would block an open until a writer came. stat() follows a link to the marker's target.
// Anything but a regular file is an error, not a marker, since a stray directory or device of that name
// must neither silently invert the verdict nor silently not.
StatusOr<bool> hasExpectErrorMarker(const std::string& dir) {
  const std::string path = dir + "/expect_error";
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return false;
    return invalidArgument(path + ": cannot inspect the expect_error marker: " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) {
    const char* kind = S_ISDIR(info.st_mode)    ? "a directory"
                       : S_ISFIFO(info.st_mode) ? "a FIFO"
                       : S_ISSOCK(info.st_mode) ? "a socket"
                                                : "a device file";
    return invalidArgument(path + ": is " + kind + ", not a regular file; an expect_error marker must be one");
  }
  return true;
}

// Compares the outputs with the data set's expectations: nullopt when all match, else a fail naming the
// first mismatch ("<data set dir><how>: ..."), or an error when an output cannot be read back.
std::optional<NodeTestResult> checkOutputs(const DataSetRun& run, const onnxio::TestDataSet& data_set,
                                           const std::string& how) {
  for (size_t i = 0; i < run.outputs.size(); ++i) {
    StatusOr<onnxio::HostTensor> actual = toHost(run.outputs[i]);
    if (!actual.ok()) return error(actual.status().message());
    if (std::optional<std::string> mismatch = compareTensors(*actual, data_set.outputs[i], i)) {
      return NodeTestResult{Outcome::kFail, data_set.dir + how + ": " + *mismatch, std::nullopt};
    }
  }
  return std::nullopt;
}

// Runs the directory, reporting what happened without the expect_error inversion.
NodeTestResult runPlain(Context& context, const std::string& dir, const NodeTestOptions& options) {
  StatusOr<onnxio::NodeTest> test = onnxio::readNodeTest(dir);
  if (!test.ok()) return error(test.status().message());
  if (Status status = checkNode(test->model); !status.ok()) return error(status.message());
  if (test->data_sets.empty()) return error(dir + ": no test_data_set_* directory");
  NodeTestResult result{Outcome::kPass, "", std::nullopt};
  for (const onnxio::TestDataSet& data_set : test->data_sets) {
    DataSetRun run;
    if (Status status = runDataSet(context, test->model, data_set, run); !status.ok()) {
      return error(status.message());
    }
    if (run.outputs.size() != data_set.outputs.size()) {
      return {Outcome::kFail,
              data_set.dir + ": the operator made " + std::to_string(run.outputs.size()) +
                  " outputs, the test expects " + std::to_string(data_set.outputs.size()),
              std::nullopt};
    }
    if (std::optional<NodeTestResult> failure = checkOutputs(run, data_set, "")) return *failure;
    if (options.repeat > 0 && !result.timing) {
      StatusOr<Timing> timing = timeDataSet(context, test->model, run, options.repeat);
      if (!timing.ok()) return error(timing.status().message());
      result.timing = *timing;
      if (std::optional<NodeTestResult> failure = checkOutputs(run, data_set, " (recorded)")) return *failure;
    }
  }
  return result;
}

}  // namespace

const char* outcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass: return "pass";
    case Outcome::kFail: return "fail";
    case Outcome::kError: return "error";
  }
  return "error";
}

NodeTestResult runNodeTestDir(Context& context, const std::string& dir, const NodeTestOptions& options) {
  // The marker is checked first: a malformed one is an error whatever the run would have said.
  const StatusOr<bool> expect_error = hasExpectErrorMarker(dir);
  if (!expect_error.ok()) return error(expect_error.status().message());
  NodeTestResult result = runPlain(context, dir, options);
  if (!*expect_error) return result;
  if (result.outcome == Outcome::kError) return {Outcome::kPass, "expected error: " + result.message, std::nullopt};
  return {Outcome::kFail,
          "expected an error, but the run " +
              std::string(result.outcome == Outcome::kPass ? "succeeded" : "completed with a mismatch"),
          std::nullopt};
}

}  // namespace vkindex::tools
