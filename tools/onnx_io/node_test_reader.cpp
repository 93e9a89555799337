// Reading a node-test directory: model.onnx, then test_data_set_N/{input,output}_K.pb, both in numeric
// order (test_data_set_10 comes after test_data_set_9, not after test_data_set_1).
#include <filesystem>
#include <map>
#include <system_error>

#include "onnx_io.hpp"
#include "quote.hpp"

namespace vkindex::onnxio {
namespace {

namespace fs = std::filesystem;

// Parses "<prefix><digits><suffix>" into its number. Nine digits at most, so the value fits easily.
std::optional<int64_t> indexInName(const std::string& name, const std::string& prefix, const std::string& suffix) {
  if (name.size() <= prefix.size() + suffix.size()) return std::nullopt;
  if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return std::nullopt;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 9) return std::nullopt;
  int64_t index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  return index;
}

// The entries of `dir` named prefix<N>suffix, in order of N. N must run 0, 1, 2, ... without gaps or
// repeats, since a gap means a missing file rather than a shorter test.
StatusOr<std::vector<std::string>> listIndexed(const std::string& dir, const std::string& prefix,
                                               const std::string& suffix) {
  std::error_code ec;
  // The error_code forms keep std::filesystem from throwing (vkindex builds without exceptions).
  fs::directory_iterator it(dir, ec);
  if (ec) return invalidArgument(dir + ": cannot list directory: " + ec.message());
  std::map<int64_t, std::string> by_index;
  // On error increment() sets `ec` and ends the iteration; the check after the loop reports it.
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::optional<int64_t> index = indexInName(name, prefix, suffix);
    if (!index) continue;
    auto [slot, inserted] = by_index.emplace(*index, it->path().string());
    if (!inserted) {
      return invalidArgument(dir + ": both " + fs::path(slot->second).filename().string() + " and " + name +
                             " claim index " + std::to_string(*index));
    }
  }
  if (ec) return invalidArgument(dir + ": cannot list directory: " + ec.message());
  std::vector<std::string> paths;
  for (const auto& [index, path] : by_index) {
    const int64_t expected = static_cast<int64_t>(paths.size());
    if (index != expected) {
      return invalidArgument(dir + ": found " + fs::path(path).filename().string() + " but no " + prefix +
                             std::to_string(expected) + suffix);
    }
    paths.push_back(path);
  }
  return paths;
}

// A data file must agree with what the graph declares for its slot: element type and every fixed
// dimension. Symbolic or unknown dimensions accept any size.
Status checkDeclared(const ValueInfo& info, const std::string& path, const char* role, HostTensor* tensor) {
  const std::string subject = path + ": tensor " + quoteName(tensor->name);
  const std::string declared = std::string(role) + " " + quoteName(info.name);
  if (info.elem_type && *info.elem_type != tensor->dtype) {
    // numpy has no bfloat16, so the ONNX generators save bfloat16 data as uint16 of the same bits.
    if (*info.elem_type == DataType::kBFloat16 && tensor->dtype == DataType::kUInt16) {
      tensor->dtype = DataType::kBFloat16;
    } else {
      return invalidArgument(subject + " is " + dataTypeName(tensor->dtype) + " but " + declared + " is declared " +
                             dataTypeName(*info.elem_type));
    }
  }
  if (!info.shape) return Status::Ok();
  if (info.shape->size() != tensor->dims.size()) {
    return invalidArgument(subject + " has dims " + formatDims(tensor->dims) + " but " + declared +
                           " is declared with rank " + std::to_string(info.shape->size()));
  }
  for (size_t axis = 0; axis < tensor->dims.size(); ++axis) {
    const std::optional<int64_t>& fixed = (*info.shape)[axis].value;
    if (fixed && *fixed != tensor->dims[axis]) {
      return invalidArgument(subject + " has dims " + formatDims(tensor->dims) + " but " + declared +
                             " is declared with size " + std::to_string(*fixed) + " at axis " + std::to_string(axis));
    }
  }
  return Status::Ok();
}

// Reads the data file for one graph slot. Sequence and optional data files hold other message types
// that would misparse as TensorProto, so slots declared that way are refused before reading.
StatusOr<HostTensor> readSlot(const std::string& path, const ValueInfo& info, const char* role) {
  if (info.kind != ValueKind::kTensor && info.kind != ValueKind::kUndeclared) {
    return unsupported(path + ": " + role + " " + quoteName(info.name) + " is declared as " + valueKindName(info.kind) +
                       ", not tensor; onnx_io reads tensor data only");
  }
  VKINDEX_ASSIGN_OR_RETURN(HostTensor tensor, readTensorFile(path));
  VKINDEX_RETURN_IF_ERROR(checkDeclared(info, path, role, &tensor));
  return tensor;
}

// Inputs bind, in order, to the graph inputs that no initializer already provides; outputs bind to
// every graph output.
StatusOr<TestDataSet> readDataSet(const std::string& dir, const NodeModel& model) {
  TestDataSet data_set;
  data_set.dir = dir;
  VKINDEX_ASSIGN_OR_RETURN(const std::vector<std::string> input_paths, listIndexed(dir, "input_", ".pb"));
  VKINDEX_ASSIGN_OR_RETURN(const std::vector<std::string> output_paths, listIndexed(dir, "output_", ".pb"));
  if (output_paths.empty()) return invalidArgument(dir + ": has no output_0.pb");

  std::vector<const ValueInfo*> fed;
  for (const ValueInfo& input : model.graph_inputs) {
    if (model.initializers.count(input.name) == 0) fed.push_back(&input);
  }
  if (input_paths.size() > fed.size()) {
    return invalidArgument(dir + ": has " + std::to_string(input_paths.size()) + " input files but the graph takes " +
                           std::to_string(fed.size()) + " inputs");
  }
  if (output_paths.size() != model.graph_outputs.size()) {
    return invalidArgument(dir + ": has " + std::to_string(output_paths.size()) + " output files but the graph has " +
                           std::to_string(model.graph_outputs.size()) + " outputs");
  }
  for (size_t i = 0; i < input_paths.size(); ++i) {
    VKINDEX_ASSIGN_OR_RETURN(HostTensor tensor, readSlot(input_paths[i], *fed[i], "graph input"));
    data_set.inputs.push_back(std::move(tensor));
  }
  for (size_t i = 0; i < output_paths.size(); ++i) {
    VKINDEX_ASSIGN_OR_RETURN(HostTensor tensor, readSlot(output_paths[i], model.graph_outputs[i], "graph output"));
    data_set.outputs.push_back(std::move(tensor));
  }
  return data_set;
}

}  // namespace

StatusOr<NodeTest> readNodeTest(const std::string& dir) {
  NodeTest test;
  test.dir = dir;
  VKINDEX_ASSIGN_OR_RETURN(test.model, readNodeModel((fs::path(dir) / "model.onnx").string()));
  VKINDEX_ASSIGN_OR_RETURN(const std::vector<std::string> set_dirs, listIndexed(dir, "test_data_set_", ""));
  if (set_dirs.empty()) return invalidArgument(dir + ": has no test_data_set_0 directory");
  for (const std::string& set_dir : set_dirs) {
    VKINDEX_ASSIGN_OR_RETURN(TestDataSet data_set, readDataSet(set_dir, test.model));
    test.data_sets.push_back(std::move(data_set));
  }
  return test;
}

}  // namespace vkindex::onnxio
