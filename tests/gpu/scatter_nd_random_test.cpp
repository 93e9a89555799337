// Randomized ScatterND against the CPU reference, byte-exact, in all four forms (a new output, the
// caller's output, in place, and recorded into a command buffer of the test's own, both out of
// place and in place): reduction none over every data type x both index types x data ranks 1-5 x
// every tuple length k in [1, r], with duplicate-heavy tuples (many updates to few slices: the last
// one in index order must win); add, mul, max and min over int32, uint32, int64, uint64 and float
// with duplicate-heavy tuples. Float add and mul use normal values only (drivers may flush
// denormals; llvmpipe does); max and min use every bit pattern, NaNs and signed zeros included.
// Plus tests that only index order passes (float add whose sum depends on the order, 1000 writers
// to one slice), repeat runs that must give the same bytes, rank-1 indices (one tuple, scalar
// updates), strings, empty indices and zero-sized dims. Fixed seeds.
#include <volk.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

// --- Recording into the test's own command buffer ---------------------------------------------------

using Recording = std::function<StatusOr<RecordedOp>(VkCommandBuffer command_buffer)>;

// Records every op into one command buffer of the test's own on `context`'s device, between the
// barriers ops.hpp asks the application for, submits it, waits, and returns each op's finish().
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

// --- Values -------------------------------------------------------------------------------------------

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

// Normal floats of both signs with exponents in [min_exponent, max_exponent] and random mantissas (no
// zeros, denormals, infinities or NaNs): float add and mul results stay normal for the sums and
// products these tests form (sums are multiples of 2^min_exponent-23, products of up to ~100 factors
// in [0.5, 2) stay far inside the normal range).
HostTensor normalFloats(Rng& rng, Shape shape, int min_exponent, int max_exponent) {
  HostTensor tensor;
  tensor.dtype = DataType::kFloat32;
  tensor.shape = std::move(shape);
  std::uniform_int_distribution<int> exponent(min_exponent, max_exponent);
  for (uint64_t i = 0; i < tensor.elementCount(); ++i) {
    const uint32_t bits = static_cast<uint32_t>(rng() & 0x807FFFFFu) | static_cast<uint32_t>(127 + exponent(rng)) << 23;
    const auto* bytes = reinterpret_cast<const uint8_t*>(&bits);
    tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + 4);
  }
  return tensor;
}

// Float bit patterns the max/min rule singles out, planted among random bits.
constexpr uint32_t kSpecialFloats[] = {
    0x00000000u,  // +0
    0x80000000u,  // -0
    0x7FC00000u,  // quiet NaN
    0xFFC00001u,  // negative quiet NaN with a payload
    0x7F800001u,  // signalling NaN
    0x7F800000u,  // +inf
    0xFF800000u,  // -inf
    0x00000001u,  // smallest denormal
    0x807FFFFFu,  // largest negative denormal
    0x3F800000u,  // 1
    0xBF800000u,  // -1
    0x7F7FFFFFu,  // largest finite
};

// Data or updates for `reduction` on `dtype`: normal floats for float add/mul, else every bit pattern
// (for float with the special values above planted in a quarter of the elements).
HostTensor valuesFor(Rng& rng, DataType dtype, Shape shape, Reduction reduction) {
  if (dtype == DataType::kFloat32 && reduction == Reduction::kAdd) return normalFloats(rng, std::move(shape), -2, 1);
  if (dtype == DataType::kFloat32 && reduction == Reduction::kMul) return normalFloats(rng, std::move(shape), -1, 0);
  HostTensor tensor = randomTensor(rng, dtype, std::move(shape));
  if (dtype == DataType::kFloat32) {
    for (uint64_t i = 0; i < tensor.elementCount(); ++i) {
      if (rng() % 4 != 0) continue;
      const uint32_t bits = kSpecialFloats[rng() % std::size(kSpecialFloats)];
      std::memcpy(tensor.bytes.data() + i * 4, &bits, 4);
    }
  }
  return tensor;
}

// --- The four forms --------------------------------------------------------------------------------------

struct ScatterCase {
  HostTensor data;
  HostTensor indices;
  HostTensor updates;
  Reduction reduction = Reduction::kNone;
};

std::string describeCase(const ScatterCase& c) {
  return "data " + describe(c.data) + ", indices " + describe(c.indices) + ", updates " + describe(c.updates) +
         ", reduction " + reductionName(c.reduction);
}

// Bytes (or strings) that differ from any plausible output: the caller's output starts with them.
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
      const size_t width = elementSize(expected.dtype);
      return ::testing::AssertionFailure() << "byte " << i << " (element " << i / width << ") is "
                                           << int(actual->bytes[i]) << ", expected " << int(expected.bytes[i]);
    }
  }
  return ::testing::AssertionSuccess();
}

// Which forms a case runs: every one (the fixed cases), or, to keep the randomized suites fast, the
// new output and in place always and either the caller's output or the recorded forms, alternating.
enum class Forms { kAll, kWithCallersOutput, kWithRecording };

Forms alternating(size_t n) { return n % 2 ? Forms::kWithRecording : Forms::kWithCallersOutput; }

// Runs the case in its forms and compares each result with the reference, byte for byte: a new output;
// the caller's output (pre-filled with garbage); in place (the whole data tensor afterwards); and,
// except for strings, recorded into one command buffer both into a caller's output and in place.
void expectAllFormsMatchReference(Context& context, const ScatterCase& c, Forms forms = Forms::kAll) {
  SCOPED_TRACE(describeCase(c));
  const ReferenceResult expected = referenceScatterND(c.data, c.indices, c.updates, c.reduction);
  ASSERT_FALSE(expected.bad_index_position.has_value());
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context, c.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context, c.indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(context, c.updates));

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor fresh, scatterND(context, data, indices, updates, c.reduction));
  EXPECT_TRUE(holds(fresh, expected.output)) << "new output";

  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor in_place, toDevice(context, c.data));
  VKINDEX_ASSERT_OK(scatterNDInPlace(context, in_place, indices, updates, c.reduction));
  EXPECT_TRUE(holds(in_place, expected.output)) << "in place";

  const bool strings = c.data.dtype == DataType::kString;
  if (forms != Forms::kWithRecording || strings) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, toDevice(context, garbageLike(c.data)));
    VKINDEX_ASSERT_OK(scatterND(context, data, indices, updates, c.reduction, output));
    EXPECT_TRUE(holds(output, expected.output)) << "caller's output";
  }
  if (forms == Forms::kWithCallersOutput || strings) {
    EXPECT_TRUE(holds(data, c.data)) << "the data input of the out-of-place forms changed";
    return;
  }
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor recorded_output, toDevice(context, garbageLike(c.data)));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor recorded_in_place, toDevice(context, c.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<Status> finished,
                               runRecorded(context, {[&](VkCommandBuffer cmd) {
                                                       return recordScatterND(context, cmd, data, indices, updates,
                                                                              c.reduction, recorded_output);
                                                     },
                                                     [&](VkCommandBuffer cmd) {
                                                       return recordScatterND(context, cmd, recorded_in_place, indices,
                                                                              updates, c.reduction, recorded_in_place);
                                                     }}));
  for (const Status& status : finished) VKINDEX_ASSERT_OK(status);
  EXPECT_TRUE(holds(recorded_output, expected.output)) << "recorded into the caller's output";
  EXPECT_TRUE(holds(recorded_in_place, expected.output)) << "recorded in place";
  EXPECT_TRUE(holds(data, c.data)) << "the data input of the out-of-place forms changed";
}

// --- Random cases ------------------------------------------------------------------------------------

// updates' shape for `indices` into `data_shape`: indices.shape[:-1] + data_shape[k:].
Shape updatesShape(const Shape& index_shape, const Shape& data_shape) {
  const size_t k = static_cast<size_t>(index_shape.back());
  Shape shape(index_shape.begin(), index_shape.end() - 1);
  shape.insert(shape.end(), data_shape.begin() + static_cast<std::ptrdiff_t>(k), data_shape.end());
  return shape;
}

// A ScatterND call on `data` with `indices`, updates drawn for the reduction.
ScatterCase makeCase(Rng& rng, HostTensor data, HostTensor indices, Reduction reduction) {
  ScatterCase c;
  c.updates = valuesFor(rng, data.dtype, updatesShape(indices.shape, data.shape), reduction);
  c.data = std::move(data);
  c.indices = std::move(indices);
  c.reduction = reduction;
  return c;
}

// A random ScatterND call: data of rank r (at most `max_elements`), tuples of length k, and `extra`
// tuple dims before the tuple (q = extra + 1; extra = 0 gives rank-1 indices: one tuple). With
// `few_targets`, every tuple is one of at most three (each component written as v or v - s at random),
// so the same slices receive many updates; otherwise the components are uniform in [-s, s-1].
ScatterCase randomCase(Rng& rng, DataType dtype, DataType index_type, size_t r, size_t k, size_t extra,
                       Reduction reduction, bool few_targets, uint64_t max_elements) {
  Shape data_shape = randomShape(rng, r, max_elements);
  Shape index_shape = randomShape(rng, extra, 40);
  index_shape.push_back(static_cast<int64_t>(k));
  bool empty = false;
  for (size_t d = 0; d + 1 < index_shape.size(); ++d) empty = empty || index_shape[d] == 0;
  // An empty indexed dim admits no index: keep it only when the indices are empty anyway.
  for (size_t d = 0; d < k && !empty; ++d) {
    if (data_shape[d] == 0) data_shape[d] = 1;
  }
  HostTensor indices = randomTuples(rng, index_type, index_shape, data_shape, 0);
  if (few_targets && !empty) {
    const HostTensor pool = randomTuples(rng, DataType::kInt64, {3, static_cast<int64_t>(k)}, data_shape, 0);
    const uint64_t pool_size = 1 + rng() % 3;
    std::vector<int64_t> values;
    for (uint64_t t = 0; t < indices.elementCount() / k; ++t) {
      const uint64_t chosen = rng() % pool_size;
      for (size_t c = 0; c < k; ++c) {
        const int64_t s = data_shape[c];
        int64_t v = indexAt(pool, chosen * k + c);
        v = v < 0 ? v + s : v;
        values.push_back(rng() % 2 ? v - s : v);
      }
    }
    indices = indexTensor(index_type, index_shape, values);
  }
  return makeCase(rng, valuesFor(rng, dtype, data_shape, reduction), std::move(indices), reduction);
}

// The data types grouped by element width: the kernels specialize on the width, so one test process
// (ctest runs each test in its own) compiles each group's pipelines once.
struct TypeGroup {
  const char* name;
  std::vector<DataType> types;
};

const TypeGroup kWidthGroups[] = {
    {"bytes", {DataType::kBool, DataType::kInt8, DataType::kUInt8}},
    {"halves", {DataType::kInt16, DataType::kUInt16, DataType::kFloat16, DataType::kBFloat16}},
    {"words", {DataType::kInt32, DataType::kUInt32, DataType::kFloat32, DataType::kString}},
    {"doubles", {DataType::kInt64, DataType::kUInt64, DataType::kFloat64, DataType::kComplex64}},
    {"quads", {DataType::kComplex128}},
};

std::string groupName(const ::testing::TestParamInfo<TypeGroup>& info) { return info.param.name; }

// Reduction none: every type x both index types x data ranks 1-5 x every tuple length, the number of
// extra tuple dims cycling through 0, 1, 2; duplicate-heavy tuples in two cases out of three.
class ScatterNDNoneTest : public GpuTest, public ::testing::WithParamInterface<TypeGroup> {};

TEST_P(ScatterNDNoneTest, EveryRankAndTupleLengthMatchesReference) {
  for (const DataType dtype : GetParam().types) {
    SCOPED_TRACE(dataTypeName(dtype));
    Rng rng(0x5c4d + 97 * static_cast<uint64_t>(dtype));
    size_t n = 0;
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      for (size_t r = 1; r <= 5; ++r) {
        for (size_t k = 1; k <= r; ++k, ++n) {
          SCOPED_TRACE("case " + std::to_string(n));
          const ScatterCase c = randomCase(rng, dtype, index_type, r, k, n % 3, Reduction::kNone, n % 4 != 3, 600);
          ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c, alternating(n)));
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, ScatterNDNoneTest, ::testing::ValuesIn(kWidthGroups), groupName);

// add, mul, max, min over the supported types x both index types, duplicate-heavy tuples, random
// ranks 1-4, tuple lengths and extra tuple dims.
class ScatterNDReductionTest : public GpuTest, public ::testing::WithParamInterface<Reduction> {};

TEST_P(ScatterNDReductionTest, DuplicateHeavyMatchesReference) {
  const Reduction reduction = GetParam();
  for (const DataType dtype :
       {DataType::kInt32, DataType::kUInt32, DataType::kInt64, DataType::kUInt64, DataType::kFloat32}) {
    SCOPED_TRACE(dataTypeName(dtype));
    Rng rng(0x4ed + 131 * static_cast<uint64_t>(reduction) + static_cast<uint64_t>(dtype));
    for (int round = 0; round < 10; ++round) {
      const DataType index_type = round % 2 ? DataType::kInt64 : DataType::kInt32;
      const size_t r = 1 + rng() % 4;
      const size_t k = 1 + rng() % r;
      const size_t extra = 1 + rng() % 2;
      SCOPED_TRACE("round " + std::to_string(round));
      const ScatterCase c = randomCase(rng, dtype, index_type, r, k, extra, reduction, round % 4 != 3, 600);
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), c, alternating(static_cast<size_t>(round))));
    }
  }
}

std::string reductionCaseName(const ::testing::TestParamInfo<Reduction>& info) { return reductionName(info.param); }

INSTANTIATE_TEST_SUITE_P(SupportedTypes, ScatterNDReductionTest,
                         ::testing::Values(Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin),
                         reductionCaseName);

// --- Fixed cases ---------------------------------------------------------------------------------------

using ScatterNDTest = GpuTest;

HostTensor floats(Shape shape, const std::vector<float>& values) {
  HostTensor tensor;
  tensor.dtype = DataType::kFloat32;
  tensor.shape = std::move(shape);
  for (float value : values) {
    const uint32_t bits = floatBits(value);
    const auto* bytes = reinterpret_cast<const uint8_t*>(&bits);
    tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + 4);
  }
  return tensor;
}

HostTensor floatBitsTensor(Shape shape, const std::vector<uint32_t>& values) {
  HostTensor tensor;
  tensor.dtype = DataType::kFloat32;
  tensor.shape = std::move(shape);
  for (uint32_t bits : values) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&bits);
    tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + 4);
  }
  return tensor;
}

// int32/uint32/int64/uint64 tensors from 64-bit values (truncated to the type's width).
HostTensor integers(DataType dtype, Shape shape, const std::vector<uint64_t>& values) {
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  const size_t width = elementSize(dtype);
  for (uint64_t value : values) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(&value);  // little-endian: the low bytes first
    tensor.bytes.insert(tensor.bytes.end(), bytes, bytes + width);
  }
  return tensor;
}

// The reference must give `expected` (written out by hand from the agreed semantics), and every form
// of the operator too.
void expectHandWritten(Context& context, const ScatterCase& c, const HostTensor& expected) {
  SCOPED_TRACE(describeCase(c));
  const ReferenceResult reference = referenceScatterND(c.data, c.indices, c.updates, c.reduction);
  ASSERT_EQ(reference.output.bytes, expected.bytes) << "the reference disagrees with the hand-written result";
  ASSERT_EQ(reference.output.strings, expected.strings) << "the reference disagrees with the hand-written result";
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context, c));
}

// 4 x 4 x 4 blocks of the ONNX examples.
std::vector<float> concat(const std::vector<std::vector<float>>& parts) {
  std::vector<float> all;
  for (const std::vector<float>& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

TEST_F(ScatterNDTest, OnnxDocExamples) {
  // The examples of the ONNX operator page and node tests (ScatterND, opsets 11-18).
  expectHandWritten(context(),
                    {floats({8}, {1, 2, 3, 4, 5, 6, 7, 8}), indexTensor(DataType::kInt64, {4, 1}, {4, 3, 1, 7}),
                     floats({4}, {9, 10, 11, 12}), Reduction::kNone},
                    floats({8}, {1, 11, 3, 10, 9, 6, 7, 12}));
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1};
  const std::vector<float> b = {8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<float> fives = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8};
  const std::vector<float> ones = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
  const HostTensor data = floats({4, 4, 4}, concat({a, a, b, b}));
  const HostTensor updates = floats({2, 4, 4}, concat({fives, ones}));
  expectHandWritten(context(), {data, indexTensor(DataType::kInt64, {2, 1}, {0, 2}), updates, Reduction::kNone},
                    floats({4, 4, 4}, concat({fives, a, ones, b})));
  // Both update slices to slice 0 (as -4 and 0), with each reduction.
  const HostTensor twice = indexTensor(DataType::kInt32, {2, 1}, {-4, 0});
  expectHandWritten(context(), {data, twice, updates, Reduction::kNone}, floats({4, 4, 4}, concat({ones, a, b, b})));
  expectHandWritten(
      context(), {data, twice, updates, Reduction::kAdd},
      floats({4, 4, 4}, concat({{7, 8, 9, 10, 13, 14, 15, 16, 18, 17, 16, 15, 16, 15, 14, 13}, a, b, b})));
  expectHandWritten(
      context(), {data, twice, updates, Reduction::kMul},
      floats({4, 4, 4}, concat({{5, 10, 15, 20, 60, 72, 84, 96, 168, 147, 126, 105, 128, 96, 64, 32}, a, b, b})));
  expectHandWritten(context(), {data, twice, updates, Reduction::kMax},
                    floats({4, 4, 4}, concat({{5, 5, 5, 5, 6, 6, 7, 8, 8, 7, 7, 7, 8, 8, 8, 8}, a, b, b})));
  expectHandWritten(context(), {data, twice, updates, Reduction::kMin},
                    floats({4, 4, 4}, concat({{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 3, 2, 1}, a, b, b})));
}

TEST_F(ScatterNDTest, IntegerReductionsWrapAndCompareBySignedness) {
  // Rows of a [2, 2] tensor: slice updates with carries across 32-bit halves and signedness.
  const HostTensor i64 = integers(DataType::kInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 5, 0x8000000000000000u});
  const HostTensor rows = indexTensor(DataType::kInt64, {2, 1}, {1, -2});
  const HostTensor row_updates = integers(DataType::kInt64, {2, 2}, {~uint64_t{0}, 1, 1, 1});
  expectHandWritten(context(), {i64, rows, row_updates, Reduction::kAdd},
                    integers(DataType::kInt64, {2, 2}, {0x100000000u, 0x8000000000000000u, 4, 0x8000000000000001u}));
  expectHandWritten(context(), {i64, rows, row_updates, Reduction::kMax},
                    integers(DataType::kInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 5, 1}));
  expectHandWritten(context(), {i64, rows, row_updates, Reduction::kMin},
                    integers(DataType::kInt64, {2, 2}, {1, 1, ~uint64_t{0}, 0x8000000000000000u}));
  HostTensor u64 = i64;
  u64.dtype = DataType::kUInt64;
  HostTensor u64_updates = row_updates;
  u64_updates.dtype = DataType::kUInt64;
  expectHandWritten(
      context(), {u64, rows, u64_updates, Reduction::kMax},
      integers(DataType::kUInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, ~uint64_t{0}, 0x8000000000000000u}));
  expectHandWritten(
      context(), {u64, rows, u64_updates, Reduction::kMul},
      integers(DataType::kUInt64, {2, 2}, {0xFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu, 0u - uint64_t{5}, 0x8000000000000000u}));
  // Elements (k = 2) of int32 and uint32: wrapping add and mul, signed and unsigned comparison.
  const HostTensor points = indexTensor(DataType::kInt32, {3, 2}, {0, 1, -2, -1, 1, 0});
  const HostTensor i32 = integers(DataType::kInt32, {2, 2}, {1, 0x7FFFFFFFu, 0x10000u, 0xFFFFFFFFu});
  const HostTensor i32_updates = integers(DataType::kInt32, {3}, {1, 1, 0x10000u});
  expectHandWritten(context(), {i32, points, i32_updates, Reduction::kAdd},
                    integers(DataType::kInt32, {2, 2}, {1, 0x80000001u, 0x20000u, 0xFFFFFFFFu}));
  expectHandWritten(context(), {i32, points, i32_updates, Reduction::kMul},
                    integers(DataType::kInt32, {2, 2}, {1, 0x7FFFFFFFu, 0, 0xFFFFFFFFu}));
  expectHandWritten(context(), {i32, points, i32_updates, Reduction::kMin},
                    integers(DataType::kInt32, {2, 2}, {1, 1, 0x10000u, 0xFFFFFFFFu}));
  HostTensor u32 = i32;
  u32.dtype = DataType::kUInt32;
  HostTensor u32_updates = integers(DataType::kUInt32, {3}, {0xFFFFFFFFu, 0xFFFFFFFEu, 2});
  expectHandWritten(context(), {u32, points, u32_updates, Reduction::kMax},
                    integers(DataType::kUInt32, {2, 2}, {1, 0xFFFFFFFFu, 0x10000u, 0xFFFFFFFFu}));
  expectHandWritten(context(), {u32, points, u32_updates, Reduction::kMin},
                    integers(DataType::kUInt32, {2, 2}, {1, 0x7FFFFFFFu, 2, 0xFFFFFFFFu}));
}

TEST_F(ScatterNDTest, FloatMaxMinFollowTheAgreedRule) {
  const uint32_t kPlusZero = 0x00000000u, kMinusZero = 0x80000000u, kNaN = 0x7FC00000u, kOne = 0x3F800000u,
                 kTwo = 0x40000000u, kThree = 0x40400000u;
  // Slices of two elements: [+0, -0] then [NaN, 1]; updates fold into slice 0, then slice 1.
  const HostTensor data = floatBitsTensor({2, 2}, {kPlusZero, kMinusZero, kNaN, kOne});
  const HostTensor indices = indexTensor(DataType::kInt64, {4, 1}, {0, -2, 1, 1});
  const HostTensor updates = floatBitsTensor({4, 2}, {kMinusZero, kPlusZero, kNaN, kNaN, kThree, kTwo, kOne, kNaN});
  // max: +0 stays (-0 is not greater), -0 stays; NaN stays; 1 then 2: 2, then NaN: 2.
  expectHandWritten(context(), {data, indices, updates, Reduction::kMax},
                    floatBitsTensor({2, 2}, {kPlusZero, kMinusZero, kNaN, kTwo}));
  // min: the same zeros; NaN stays; 1 then 2, NaN: 1.
  expectHandWritten(context(), {data, indices, updates, Reduction::kMin},
                    floatBitsTensor({2, 2}, {kPlusZero, kMinusZero, kNaN, kOne}));
}

// Updates whose float sum depends on the order they are added in: big values that swallow small ones
// (the ulp of 1e8 is 8) and then cancel. Slices of two elements (k = 1 of rank 2) and single elements
// (k = 2), the tuples to each target spread over the indices.
TEST_F(ScatterNDTest, FloatAddFoldsInIndexOrder) {
  Rng rng(0x04de8);
  const int64_t kTargets = 3, kLength = 96;
  std::vector<float> values;
  std::vector<int64_t> rows;
  for (int64_t i = 0; i < kLength; ++i) {
    const float big = (i / 4) % 2 ? 1e8f : 3e8f;
    const float pattern[4] = {big, static_cast<float>(1 + rng() % 3), -big, static_cast<float>(1 + rng() % 3)};
    values.push_back(pattern[i % 4]);
    values.push_back(pattern[3 - i % 4]);  // the second element of each slice: the block reversed
    rows.push_back((i / 4) % kTargets - (rng() % 2 ? kTargets : 0));
  }
  const ScatterCase slices{floats({kTargets, 2}, {0.0f, 0.5f, -2.0f, 4.0f, -1.0f, 0.25f}),
                           indexTensor(DataType::kInt64, {kLength, 1}, rows), floats({kLength, 2}, values),
                           Reduction::kAdd};
  // The test must tell orders apart: reversed and shuffled orders give other bits.
  const ReferenceResult in_order = referenceScatterND(slices.data, slices.indices, slices.updates, Reduction::kAdd);
  std::vector<size_t> order(static_cast<size_t>(kLength));
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (int shuffle = 0; shuffle < 8; ++shuffle) {
    if (shuffle == 0) {
      std::reverse(order.begin(), order.end());
    } else {
      std::shuffle(order.begin(), order.end(), rng);
    }
    HostTensor permuted_indices = slices.indices, permuted_updates = slices.updates;
    for (size_t i = 0; i < order.size(); ++i) {
      std::memcpy(permuted_indices.bytes.data() + i * 8, slices.indices.bytes.data() + order[i] * 8, 8);
      std::memcpy(permuted_updates.bytes.data() + i * 8, slices.updates.bytes.data() + order[i] * 8, 8);
    }
    EXPECT_NE(referenceScatterND(slices.data, permuted_indices, permuted_updates, Reduction::kAdd).output.bytes,
              in_order.output.bytes)
        << "order " << shuffle << " gives the same sums: the test would not see a wrong order";
  }
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), slices));
  // Whole elements: tuples (row, column) with int32 indices, the first elements' sequences.
  std::vector<int64_t> points;
  std::vector<float> element_values;
  for (int64_t i = 0; i < kLength; ++i) {
    points.push_back(rows[static_cast<size_t>(i)]);
    points.push_back((i / 4 / kTargets) % 2 - 2 * static_cast<int64_t>(rng() % 2));  // a block per element
    element_values.push_back(values[static_cast<size_t>(2 * i)]);
  }
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(),
      {floats({kTargets, 2}, {0.0f, 0.5f, -2.0f, 4.0f, -1.0f, 0.25f}),
       indexTensor(DataType::kInt32, {kLength, 2}, points), floats({kLength}, element_values), Reduction::kAdd}));
}

// 1000 tuples to one slice: the last in index order wins, also for sub-word elements whose neighbours
// in the same 32-bit word receive their own 1000 updates, and for strings.
TEST_F(ScatterNDTest, LastOfAThousandWritersWins) {
  Rng rng(1000);
  for (DataType dtype : {DataType::kFloat32, DataType::kUInt8, DataType::kFloat16, DataType::kComplex128,
                         DataType::kInt64, DataType::kString}) {
    // One slice of three elements (row 2 of [5, 3], written as 2 and -3).
    std::vector<int64_t> one_row(1000);
    for (int64_t& v : one_row) v = rng() % 2 ? 2 : -3;
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), makeCase(rng, randomTensor(rng, dtype, {5, 3}), indexTensor(DataType::kInt64, {1000, 1}, one_row),
                            Reduction::kNone)));
    // Four neighbouring elements [0, 0..3] of a [1, 7] tensor, each written 1000 times, interleaved.
    std::vector<int64_t> four_points;
    for (int i = 0; i < 4000; ++i) {
      four_points.push_back(rng() % 2 ? 0 : -1);
      four_points.push_back(static_cast<int64_t>(rng() % 4));
    }
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
        context(), makeCase(rng, randomTensor(rng, dtype, {1, 7}),
                            indexTensor(DataType::kInt32, {4000, 2}, four_points), Reduction::kNone)));
  }
}

// The same duplicate-heavy call 20 times: the same bytes every time (and the reference's).
TEST_F(ScatterNDTest, RepeatedRunsGiveIdenticalBytes) {
  Rng rng(20);
  std::vector<int64_t> index_values(300);
  for (int64_t& v : index_values) v = rng() % 3 == 0 ? 7 : -2;  // rows 7 and 6
  for (Reduction reduction : {Reduction::kAdd, Reduction::kNone}) {
    const HostTensor data = valuesFor(rng, DataType::kFloat32, {8, 16}, reduction);
    const HostTensor indices = indexTensor(DataType::kInt32, {300, 1}, index_values);
    const HostTensor updates = valuesFor(rng, DataType::kFloat32, {300, 16}, reduction);
    const ReferenceResult expected = referenceScatterND(data, indices, updates, reduction);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(context(), data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(context(), indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor update_tensor, toDevice(context(), updates));
    for (int run = 0; run < 20; ++run) {
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                   scatterND(context(), data_tensor, index_tensor, update_tensor, reduction));
      ASSERT_TRUE(holds(output, expected.output)) << "run " << run << ", reduction " << reductionName(reduction);
    }
  }
}

TEST_F(ScatterNDTest, RankOneIndicesUpdateOneSlice) {
  Rng rng(3);
  const HostTensor data = randomTensor(rng, DataType::kFloat32, {3, 4, 5});
  // A full tuple: a scalar update (updates shape []).
  for (Reduction reduction : {Reduction::kNone, Reduction::kMax}) {
    const ScatterCase point = makeCase(rng, data, indexTensor(DataType::kInt64, {3}, {2, -1, 4}), reduction);
    ASSERT_EQ(point.updates.shape, Shape{});
    ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(context(), point));
  }
  // Partial tuples: a row, a plane.
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, data, indexTensor(DataType::kInt32, {2}, {1, -4}), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, data, indexTensor(DataType::kInt64, {1}, {-1}), Reduction::kNone)));
  // Rank-1 data, sub-word elements and strings.
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), makeCase(rng, randomTensor(rng, DataType::kUInt8, {7}),
                                                       indexTensor(DataType::kInt32, {1}, {-7}), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(
      expectAllFormsMatchReference(context(), makeCase(rng, randomTensor(rng, DataType::kString, {7}),
                                                       indexTensor(DataType::kInt64, {1}, {6}), Reduction::kNone)));
}

TEST_F(ScatterNDTest, Strings) {
  Rng rng(6);
  const Shape data_shape = {3, 4, 2};
  const HostTensor words = randomTensor(rng, DataType::kString, data_shape);
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, words, randomTuples(rng, DataType::kInt64, {5, 2}, data_shape, 0), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(),
      makeCase(rng, words, randomTuples(rng, DataType::kInt32, {3, 2, 3}, data_shape, 0), Reduction::kNone)));
  // Hand-written: the last of the duplicate rows wins.
  HostTensor data;
  data.dtype = DataType::kString;
  data.shape = {3, 2};
  data.strings = {"a", "b", "c", "d", "e", "f"};
  HostTensor updates = data;
  updates.shape = {3, 2};
  updates.strings = {"u", "v", "w", "x", "y", "z"};
  HostTensor expected = data;
  expected.strings = {"a", "b", "y", "z", "w", "x"};
  expectHandWritten(context(), {data, indexTensor(DataType::kInt64, {3, 1}, {1, -1, -2}), updates, Reduction::kNone},
                    expected);
}

TEST_F(ScatterNDTest, EmptyIndicesAndZeroSizedDims) {
  Rng rng(4);
  struct Empty {
    Shape data;
    Shape indices;
  };
  const Empty cases[] = {
      {{3, 5}, {0, 1}},     // no tuple
      {{3, 5}, {2, 0, 2}},  // no tuple, two tuple dims
      {{0, 5}, {0, 1}},     // no tuple into an empty indexed dim
      {{0}, {0, 1}},        // rank-1 empty data
      {{4, 0}, {3, 1}},     // valid tuples, empty slices
      {{2, 0, 3}, {2, 1}},  // valid tuples, empty slices with a dim after the zero
  };
  for (const Empty& e : cases) {
    for (DataType dtype : {DataType::kFloat32, DataType::kUInt8, DataType::kString}) {
      for (Reduction reduction : {Reduction::kNone, Reduction::kMul}) {
        if (reduction != Reduction::kNone && dtype != DataType::kFloat32) continue;
        const DataType index_type = dtype == DataType::kUInt8 ? DataType::kInt32 : DataType::kInt64;
        ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
            context(), makeCase(rng, valuesFor(rng, dtype, e.data, reduction),
                                randomTuples(rng, index_type, e.indices, e.data, 0), reduction)));
      }
    }
  }
}

TEST_F(ScatterNDTest, SubWordSlicesOfEveryLength) {
  Rng rng(5);
  for (int64_t inner = 1; inner <= 9; ++inner) {
    const Shape data_shape = {5, 3, inner};
    for (DataType dtype : {DataType::kUInt8, DataType::kFloat16, DataType::kBool}) {
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), makeCase(rng, randomTensor(rng, dtype, data_shape),
                              randomTuples(rng, DataType::kInt32, {7, 2}, data_shape, 0), Reduction::kNone)));
      ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
          context(), makeCase(rng, randomTensor(rng, dtype, data_shape),
                              randomTuples(rng, DataType::kInt64, {6, 3}, data_shape, 0), Reduction::kNone)));
    }
  }
}

TEST_F(ScatterNDTest, ManyElements) {
  // Many tuples and long slices; uniform targets and then duplicate-heavy ones. 70000 tuples: more than
  // 2^16 updates per target element to walk in order (a kernel that walks the tuples in one invocation
  // must not stop early; llvmpipe, for one, ends any shader loop after 65535 iterations).
  Rng rng(7);
  const Shape data_shape = {301, 257};
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, randomTensor(rng, DataType::kFloat32, data_shape),
                          randomTuples(rng, DataType::kInt32, {70000, 2}, data_shape, 0), Reduction::kNone)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, valuesFor(rng, DataType::kFloat32, data_shape, Reduction::kAdd),
                          randomTuples(rng, DataType::kInt64, {300, 1}, {3}, 0), Reduction::kAdd)));
  ASSERT_NO_FATAL_FAILURE(expectAllFormsMatchReference(
      context(), makeCase(rng, randomTensor(rng, DataType::kUInt8, data_shape),
                          randomTuples(rng, DataType::kInt64, {300, 1}, {2}, 0), Reduction::kNone)));
}

}  // namespace
}  // namespace vkindex::test
