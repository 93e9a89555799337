#include "support/scatter_forms.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/context_impl.hpp"
#include "support/error_checks.hpp"
#include "support/reduction_values.hpp"

namespace vkindex::test {
namespace {

// `tensor` with the rows of its leading dim in `order` (row i of the result is row order[i]).
HostTensor permuteRows(const HostTensor& tensor, const std::vector<size_t>& order) {
  HostTensor permuted = tensor;
  const size_t row = tensor.bytes.size() / order.size();
  for (size_t i = 0; i < order.size(); ++i) {
    std::memcpy(permuted.bytes.data() + i * row, tensor.bytes.data() + order[i] * row, row);
  }
  return permuted;
}

// Element `i`'s bytes as hex, most significant first ("0x7fc00000"; complex: the imaginary part first).
std::string hexElement(const HostTensor& tensor, size_t i) {
  static const char kDigits[] = "0123456789abcdef";
  const size_t width = std::max<size_t>(elementSize(tensor.dtype), 1);  // 4-bit types: by byte
  std::string text = "0x";
  for (size_t b = width; b-- > 0;) {
    const uint8_t byte = tensor.bytes[i * width + b];
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

// One call's inputs on the device.
struct DeviceInputs {
  Tensor data;
  Tensor indices;
  Tensor updates;
};

StatusOr<DeviceInputs> upload(Context& context, const ScatterInputs& in) {
  DeviceInputs device;
  VKINDEX_ASSIGN_OR_RETURN(device.data, toDevice(context, in.data));
  VKINDEX_ASSIGN_OR_RETURN(device.indices, toDevice(context, in.indices));
  VKINDEX_ASSIGN_OR_RETURN(device.updates, toDevice(context, in.updates));
  return device;
}

}  // namespace

ScatterOperator scatterElementsOperator(Context& context, int64_t axis, Reduction reduction, IndexPolicy policy) {
  ScatterOperator op;
  op.reference = [=](const HostTensor& data, const HostTensor& indices, const HostTensor& updates) {
    return referenceScatterElements(data, indices, updates, axis, reduction, policy);
  };
  // kError goes through the ONNX signatures, so that both overloads of every form are exercised.
  const bool onnx = policy == IndexPolicy::kError;
  op.run = [&context, axis, reduction, policy, onnx](const Tensor& data, const Tensor& indices, const Tensor& updates) {
    return onnx ? scatterElements(context, data, indices, updates, axis, reduction)
                : scatterElements(context, data, indices, updates, axis, reduction, policy);
  };
  op.run_into = [&context, axis, reduction, policy, onnx](const Tensor& data, const Tensor& indices,
                                                          const Tensor& updates, Tensor& output) {
    return onnx ? scatterElements(context, data, indices, updates, axis, reduction, output)
                : scatterElements(context, data, indices, updates, axis, reduction, output, policy);
  };
  op.run_in_place = [&context, axis, reduction, policy, onnx](Tensor& data, const Tensor& indices,
                                                              const Tensor& updates) {
    return onnx ? scatterElementsInPlace(context, data, indices, updates, axis, reduction)
                : scatterElementsInPlace(context, data, indices, updates, axis, reduction, policy);
  };
  op.record = [&context, axis, reduction, policy, onnx](VkCommandBuffer cmd, const Tensor& data, const Tensor& indices,
                                                        const Tensor& updates, Tensor& output) {
    return onnx ? recordScatterElements(context, cmd, data, indices, updates, axis, reduction, output)
                : recordScatterElements(context, cmd, data, indices, updates, axis, reduction, output, policy);
  };
  return op;
}

ScatterOperator scatterNDOperator(Context& context, Reduction reduction, IndexPolicy policy) {
  ScatterOperator op;
  op.reference = [=](const HostTensor& data, const HostTensor& indices, const HostTensor& updates) {
    return referenceScatterND(data, indices, updates, reduction, policy);
  };
  const bool onnx = policy == IndexPolicy::kError;
  op.run = [&context, reduction, policy, onnx](const Tensor& data, const Tensor& indices, const Tensor& updates) {
    return onnx ? scatterND(context, data, indices, updates, reduction)
                : scatterND(context, data, indices, updates, reduction, policy);
  };
  op.run_into = [&context, reduction, policy, onnx](const Tensor& data, const Tensor& indices, const Tensor& updates,
                                                    Tensor& output) {
    return onnx ? scatterND(context, data, indices, updates, reduction, output)
                : scatterND(context, data, indices, updates, reduction, output, policy);
  };
  op.run_in_place = [&context, reduction, policy, onnx](Tensor& data, const Tensor& indices, const Tensor& updates) {
    return onnx ? scatterNDInPlace(context, data, indices, updates, reduction)
                : scatterNDInPlace(context, data, indices, updates, reduction, policy);
  };
  op.record = [&context, reduction, policy, onnx](VkCommandBuffer cmd, const Tensor& data, const Tensor& indices,
                                                  const Tensor& updates, Tensor& output) {
    return onnx ? recordScatterND(context, cmd, data, indices, updates, reduction, output)
                : recordScatterND(context, cmd, data, indices, updates, reduction, output, policy);
  };
  return op;
}

StatusOr<std::vector<Status>> runRecorded(Context& context, const std::vector<Recording>& recordings) {
  const vk::Device& device = *implOf(context).device;
  const VolkDeviceTable& fn = device.fn();
  struct Objects {
    const vk::Device& device;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    ~Objects() {
      if (fence != VK_NULL_HANDLE) device.fn().vkDestroyFence(device.handle(), fence, nullptr);
      if (pool != VK_NULL_HANDLE) device.fn().vkDestroyCommandPool(device.handle(), pool, nullptr);
    }
  } objects{device};
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = device.queueFamily();
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (fn.vkCreateCommandPool(device.handle(), &pool_info, nullptr, &objects.pool) != VK_SUCCESS ||
      fn.vkCreateFence(device.handle(), &fence_info, nullptr, &objects.fence) != VK_SUCCESS) {
    return deviceError("test: could not create a command pool and a fence");
  }
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = objects.pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (fn.vkAllocateCommandBuffers(device.handle(), &allocate, &cmd) != VK_SUCCESS ||
      fn.vkBeginCommandBuffer(cmd, &begin) != VK_SUCCESS) {
    return deviceError("test: could not begin a command buffer");
  }
  // Before: the uploads (transfers of earlier submissions) visible to the shaders.
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  std::vector<RecordedOp> ops;
  Status recorded;
  for (const Recording& record : recordings) {
    StatusOr<RecordedOp> op = record(cmd);
    if (!op.ok()) {
      recorded = op.status();
      break;
    }
    ops.push_back(std::move(op).value());
  }
  // After: the shaders' writes visible to the downloads (transfers) and the host.
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
  fn.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                          nullptr);
  if (fn.vkEndCommandBuffer(cmd) != VK_SUCCESS) return deviceError("test: could not end the command buffer");
  if (!recorded.ok()) return recorded;  // nothing submitted; the ops release their state unfinished
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  if (fn.vkQueueSubmit(device.queue(), 1, &submit, objects.fence) != VK_SUCCESS ||
      fn.vkWaitForFences(device.handle(), 1, &objects.fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS) {
    return deviceError("test: the submission failed");
  }
  std::vector<Status> results;
  results.reserve(ops.size());
  for (RecordedOp& op : ops) results.push_back(op.finish());
  return results;
}
HostTensor garbageLike(const HostTensor& like) {
  Rng rng(0x6a7ba6e);
  HostTensor garbage = randomTensor(rng, like.dtype, like.shape);
  for (std::string& text : garbage.strings) text = "garbage " + text;
  return garbage;
}

::testing::AssertionResult holds(const Tensor& tensor, const HostTensor& expected) {
  StatusOr<HostTensor> actual = toHost(tensor);
  if (!actual.ok()) return ::testing::AssertionFailure() << actual.status().toString();
  if (actual->dtype != expected.dtype || actual->shape != expected.shape) {
    return ::testing::AssertionFailure() << "holds " << describe(*actual) << ", expected " << describe(expected);
  }
  if (actual->strings != expected.strings) return ::testing::AssertionFailure() << "the strings differ";
  for (size_t i = 0; i < expected.bytes.size(); ++i) {
    if (actual->bytes[i] != expected.bytes[i]) {
      const size_t width = std::max<size_t>(elementSize(expected.dtype), 1), element = i / width;
      return ::testing::AssertionFailure() << "element " << element << " is " << hexElement(*actual, element)
                                           << ", expected " << hexElement(expected, element);
    }
  }
  return ::testing::AssertionSuccess();
}

Forms alternating(size_t n) { return n % 2 ? Forms::kWithRecording : Forms::kWithCallersOutput; }

void forEachCaseBeyondOneBinding(const std::function<void(const WindowedCase&)>& each) {
  ContextOptions options;
  options.overrides.max_binding_bytes = 1024;
  StatusOr<std::unique_ptr<Context>> capped = makeTestContext(options);
  ASSERT_TRUE(capped.ok()) << capped.status().toString();
  const std::pair<DataType, Reduction> pairs[] = {
      {DataType::kUInt8, Reduction::kNone},     {DataType::kFloat16, Reduction::kAdd},
      {DataType::kInt32, Reduction::kMin},      {DataType::kFloat32, Reduction::kNone},
      {DataType::kUInt64, Reduction::kMax},     {DataType::kFloat64, Reduction::kMul},
      {DataType::kComplex128, Reduction::kNone}};
  size_t n = 0;
  for (const auto& [dtype, reduction] : pairs) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      SCOPED_TRACE("case " + std::to_string(n) + ": " + dataTypeName(dtype) + " " + reductionName(reduction));
      each({**capped, dtype, reduction, index_type, n++});
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_EQ((*capped)->validationMessageCount(), 0u) << (*capped)->firstValidationMessage();
}

void expectFormsMatchReference(Context& context, const ScatterOperator& op, const ScatterInputs& in, Forms forms) {
  const ReferenceResult expected = op.reference(in.data, in.indices, in.updates);
  ASSERT_FALSE(expected.bad_index_position.has_value());
  VKINDEX_ASSERT_OK_AND_ASSIGN(DeviceInputs device, upload(context, in));
  const Tensor &data = device.data, &indices = device.indices, &updates = device.updates;

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor fresh, op.run(data, indices, updates));
  EXPECT_TRUE(holds(fresh, expected.output)) << "new output";

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor in_place, toDevice(context, in.data));
  VKINDEX_ASSERT_OK(op.run_in_place(in_place, indices, updates));
  EXPECT_TRUE(holds(in_place, expected.output)) << "in place";

  const bool strings = in.data.dtype == DataType::kString;
  if (forms != Forms::kWithRecording || strings) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, toDevice(context, garbageLike(in.data)));
    VKINDEX_ASSERT_OK(op.run_into(data, indices, updates, output));
    EXPECT_TRUE(holds(output, expected.output)) << "caller's output";
  }
  if (forms == Forms::kWithCallersOutput || strings) {
    EXPECT_TRUE(holds(data, in.data)) << "the data input of the out-of-place forms changed";
    return;
  }
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor recorded_output, toDevice(context, garbageLike(in.data)));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor recorded_in_place, toDevice(context, in.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(
      std::vector<Status> finished,
      runRecorded(context,
                  {[&](VkCommandBuffer cmd) { return op.record(cmd, data, indices, updates, recorded_output); },
                   [&](VkCommandBuffer cmd) {
                     return op.record(cmd, recorded_in_place, indices, updates, recorded_in_place);
                   }}));
  for (const Status& status : finished) VKINDEX_ASSERT_OK(status);
  EXPECT_TRUE(holds(recorded_output, expected.output)) << "recorded into the caller's output";
  EXPECT_TRUE(holds(recorded_in_place, expected.output)) << "recorded in place";
  EXPECT_TRUE(holds(data, in.data)) << "the data input of the out-of-place forms changed";
}

void expectHandWrittenResult(Context& context, const ScatterOperator& op, const ScatterInputs& in,
                             const HostTensor& expected) {
  const ReferenceResult reference = op.reference(in.data, in.indices, in.updates);
  ASSERT_EQ(reference.output.bytes, expected.bytes) << "the reference disagrees with the hand-written result";
  ASSERT_EQ(reference.output.strings, expected.strings) << "the reference disagrees with the hand-written result";
  ASSERT_NO_FATAL_FAILURE(expectFormsMatchReference(context, op, in));
}

void expectErrorInEveryForm(Context& context, const ScatterOperator& op, const ScatterInputs& in, StatusCode code,
                            const std::string& message) {
  SCOPED_TRACE(message);
  VKINDEX_ASSERT_OK_AND_ASSIGN(DeviceInputs device, upload(context, in));
  StatusOr<Tensor> fresh = op.run(device.data, device.indices, device.updates);
  ASSERT_FALSE(fresh.ok()) << "new output: no error";
  EXPECT_EQ(fresh.status().code(), code) << "new output";
  EXPECT_EQ(fresh.status().message(), message) << "new output";

  Status status;
  if (in.data.dtype == DataType::kString) {
    const std::vector<std::string> canary(in.data.elementCount(), "canary");
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, Tensor::fromStrings(context, in.data.shape, canary));
    status = op.run_into(device.data, device.indices, device.updates, output);
    EXPECT_EQ(output.strings(), canary) << "the caller's output was written despite the error";
  } else {
    status = runIntoCanary(context, in.data.dtype, in.data.shape, [&](Tensor& output) {
      return op.run_into(device.data, device.indices, device.updates, output);
    });
  }
  EXPECT_EQ(status.code(), code) << "caller's output";
  EXPECT_EQ(status.message(), message) << "caller's output";

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor target, toDevice(context, in.data));
  status = op.run_in_place(target, device.indices, device.updates);
  EXPECT_EQ(status.code(), code) << "in place";
  EXPECT_EQ(status.message(), message) << "in place";
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(target));
  EXPECT_TRUE(after.bytes == in.data.bytes) << "in-place data was written despite the error";
  EXPECT_EQ(after.strings, in.data.strings) << "in-place strings were written despite the error";
}

void expectRepeatedRunsIdentical(Context& context, const ScatterOperator& op, const ScatterInputs& in, int runs) {
  const ReferenceResult expected = op.reference(in.data, in.indices, in.updates);
  ASSERT_FALSE(expected.bad_index_position.has_value());
  VKINDEX_ASSERT_OK_AND_ASSIGN(DeviceInputs device, upload(context, in));
  const Tensor &data = device.data, &indices = device.indices, &updates = device.updates;
  for (int run = 0; run < runs; ++run) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, op.run(data, indices, updates));
    ASSERT_TRUE(holds(output, expected.output)) << "run " << run;
  }
}

void expectRepeatedFloatRunsIdentical(Context& context, const std::function<ScatterOperator(Reduction)>& op,
                                      const HostTensor& indices, const Shape& data_shape, const Shape& updates_shape,
                                      Rng& rng) {
  for (Reduction reduction : {Reduction::kNone, Reduction::kAdd}) {
    for (DataType dtype : {DataType::kFloat32, DataType::kFloat64, DataType::kFloat16}) {
      const HostTensor data = reductionValues(rng, dtype, data_shape, ValueMix::kNormalsOnly);
      const HostTensor updates = reductionValues(rng, dtype, updates_shape, ValueMix::kNormalsOnly);
      SCOPED_TRACE(std::string(dataTypeName(dtype)) + " " + reductionName(reduction));
      ASSERT_NO_FATAL_FAILURE(expectRepeatedRunsIdentical(context, op(reduction), {data, indices, updates}, 20));
    }
  }
}

std::vector<ManyHeavyTargets> manyHeavyTargetCases(Rng& rng, uint32_t workgroup_size) {
  constexpr int64_t kPerTarget = VKINDEX_MAX_BUCKET + 40;
  std::vector<ManyHeavyTargets> cases;
  for (const int64_t targets : {int64_t{40}, int64_t{workgroup_size} + 37}) {
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < targets * kPerTarget; ++i) indices.push_back(i % targets);
    std::shuffle(indices.begin(), indices.end(), rng);
    for (const auto& [dtype, reduction] :
         {std::pair{DataType::kInt8, Reduction::kAdd}, std::pair{DataType::kFloat32, Reduction::kAdd},
          std::pair{DataType::kUInt64, Reduction::kMax}}) {
      cases.push_back({targets, targets * kPerTarget, indices, dtype, reduction,
                       std::string(dataTypeName(dtype)) + " " + reductionName(reduction) + " on " +
                           std::to_string(targets) + " heavy targets"});
    }
  }
  return cases;
}

std::vector<EmptyTensorKind> emptyTensorKinds(Reduction reduction) {
  return {{DataType::kFloat32, Reduction::kNone, DataType::kInt64},
          {DataType::kFloat32, reduction, DataType::kInt64},
          {DataType::kUInt8, Reduction::kNone, DataType::kInt32},
          {DataType::kString, Reduction::kNone, DataType::kInt64}};
}

std::vector<int64_t> oneTargetOfFive(Rng& rng, size_t count) {
  std::vector<int64_t> values(count);
  for (int64_t& v : values) v = rng() % 2 ? 2 : -3;
  return values;
}

std::vector<int64_t> everyBucketSize(Rng& rng, int64_t targets) {
  std::vector<std::vector<int64_t>> full_blocks, short_blocks;
  for (int64_t target = 0; target < targets; ++target) {
    for (int64_t left = target + 1; left > 0; left -= 4) {
      (left >= 4 ? full_blocks : short_blocks).emplace_back(std::min<int64_t>(left, 4), target);
    }
  }
  std::shuffle(full_blocks.begin(), full_blocks.end(), rng);
  std::shuffle(short_blocks.begin(), short_blocks.end(), rng);
  std::vector<int64_t> values;
  for (const auto* blocks : {&full_blocks, &short_blocks}) {
    for (const std::vector<int64_t>& block : *blocks) {
      for (const int64_t target : block) values.push_back(target - (rng() % 2 ? targets : 0));
    }
  }
  return values;
}

std::vector<int64_t> heavyAndLightTargets(Rng& rng, int64_t count, int64_t targets) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t block = i / 4;
    const int64_t target = block % 2 == 0 ? 0 : 1 + (block / 2) % (targets - 1);
    values.push_back(target - (rng() % 2 ? targets : 0));
  }
  return values;
}

::testing::AssertionResult orderChangesTheResult(const ScatterOperator& op, const ScatterInputs& in, Rng& rng) {
  const HostTensor in_order = op.reference(in.data, in.indices, in.updates).output;
  std::vector<size_t> order(static_cast<size_t>(in.indices.shape.at(0)));
  std::iota(order.begin(), order.end(), size_t{0});
  for (int shuffle = 0; shuffle < 8; ++shuffle) {
    if (shuffle == 0) {
      std::reverse(order.begin(), order.end());
    } else {
      std::shuffle(order.begin(), order.end(), rng);
    }
    const HostTensor other =
        op.reference(in.data, permuteRows(in.indices, order), permuteRows(in.updates, order)).output;
    if (other.bytes == in_order.bytes) {
      return ::testing::AssertionFailure()
             << "order " << shuffle << " gives the same bytes: the test would not see a wrong order";
    }
  }
  return ::testing::AssertionSuccess();
}

const std::vector<TypeGroup>& widthGroups() {
  static const std::vector<TypeGroup> groups = {
      {"bytes", {DataType::kBool, DataType::kInt8, DataType::kUInt8}},
      {"halves", {DataType::kInt16, DataType::kUInt16, DataType::kFloat16, DataType::kBFloat16}},
      {"words", {DataType::kInt32, DataType::kUInt32, DataType::kFloat32, DataType::kString}},
      {"doubles", {DataType::kInt64, DataType::kUInt64, DataType::kFloat64, DataType::kComplex64}},
      {"quads", {DataType::kComplex128}},
  };
  return groups;
}

std::string groupName(const ::testing::TestParamInfo<TypeGroup>& info) { return info.param.name; }

void PrintTo(const ReductionPair& pair, std::ostream* os) {
  *os << dataTypeName(pair.dtype) << " " << reductionName(pair.reduction);
}

std::string pairName(const ::testing::TestParamInfo<ReductionPair>& info) {
  return std::string(dataTypeName(info.param.dtype)) + "_" + reductionName(info.param.reduction);
}

}  // namespace vkindex::test
