// Gather and GatherND with host indices (ops.hpp, HostIndices) against the CPU reference, byte for byte,
// on both paths (copy regions and kernel, each forced) and on the planner's choice: every data type x
// both index types, negative indices, runs of consecutive rows (merged regions), repeated rows, empty
// indices. Errors must be the indices-tensor forms' own messages, with the output untouched.
#include <algorithm>
#include <numeric>

#include "ops/host_index_gather.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

using internal::ForcedPath;
using plan::HostIndexPath;

const ForcedPath kPaths[] = {std::nullopt, HostIndexPath::kCopyRegions, HostIndexPath::kKernel};

std::string pathName(const ForcedPath& path) {
  if (!path) return "planner's choice";
  return *path == HostIndexPath::kCopyRegions ? "copy regions" : "kernel";
}

HostIndices hostIndicesOf(const HostTensor& indices) {
  return {indices.dtype, indices.shape, indices.bytes.empty() ? nullptr : indices.bytes.data()};
}

// A caller's output of `shape`, filled with a canary (or empty strings).
StatusOr<Tensor> canaryOutput(Context& context, DataType dtype, const Shape& shape) {
  if (dtype == DataType::kString) {
    HostTensor strings{dtype, shape, {}, std::vector<std::string>(HostTensor{dtype, shape, {}, {}}.elementCount())};
    return toDevice(context, strings);
  }
  HostTensor canary{dtype, shape, {}, {}};
  canary.bytes.assign(canary.elementCount() * elementSize(dtype), 0xA5);
  return toDevice(context, canary);
}

using HostIndexRun = Status (*)(Context&, const Tensor&, const HostIndices&, int64_t, Tensor&, ForcedPath);

// Runs `run` on every path and compares each output with `expected`.
void expectEveryPathMatches(Context& context, HostIndexRun run, const HostTensor& data, const HostTensor& indices,
                            int64_t attribute, const ReferenceResult& expected) {
  ASSERT_FALSE(expected.bad_index_position.has_value());
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(context, data));
  for (const ForcedPath& path : kPaths) {
    SCOPED_TRACE(pathName(path));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, canaryOutput(context, data.dtype, expected.output.shape));
    VKINDEX_ASSERT_OK(run(context, data_tensor, hostIndicesOf(indices), attribute, output, path));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    ASSERT_EQ(actual.bytes, expected.output.bytes);
    ASSERT_EQ(actual.strings, expected.output.strings);
  }
}

// Index values that are runs of consecutive rows (prefill positions) with a few repeats and jumps.
std::vector<int64_t> runsOfRows(Rng& rng, uint64_t count, int64_t axis_size) {
  std::vector<int64_t> values;
  int64_t next = 0;
  while (values.size() < count) {
    if (rng() % 4 == 0) next = static_cast<int64_t>(rng() % static_cast<uint64_t>(axis_size));
    values.push_back(rng() % 8 == 0 ? next - axis_size : next);  // sometimes its negative spelling
    if (rng() % 6 != 0) next = (next + 1) % axis_size;           // else the row repeats
  }
  return values;
}

// At most about this many output rows per case: the validation layer's checks of a vkCmdCopyBuffer
// grow with the square of its region count (28k regions took a minute), not the copy itself.
constexpr uint64_t kMaxRows = 2048;

// The product of dims [0, end) of `shape`.
uint64_t product(const Shape& shape, size_t end) {
  uint64_t result = 1;
  for (size_t d = 0; d < end; ++d) result *= static_cast<uint64_t>(shape[d]);
  return result;
}

class HostIndexGatherTest : public GpuTest, public ::testing::WithParamInterface<std::tuple<DataType, DataType>> {};

TEST_P(HostIndexGatherTest, GatherMatchesReferenceOnEveryPath) {
  const auto [dtype, index_type] = GetParam();
  Rng rng(0x40571 + 97 * static_cast<uint64_t>(dtype) + static_cast<uint64_t>(index_type));
  for (int round = 0; round < 8; ++round) {
    const size_t rank = std::uniform_int_distribution<size_t>(1, 4)(rng);
    const HostTensor data = randomTensor(rng, dtype, randomShape(rng, rank, 3000));
    const int64_t axis = std::uniform_int_distribution<int64_t>(-int64_t(rank), int64_t(rank) - 1)(rng);
    const int64_t s = data.shape[static_cast<size_t>(axis < 0 ? axis + int64_t(rank) : axis)];
    const size_t a = static_cast<size_t>(axis < 0 ? axis + int64_t(rank) : axis);
    Shape index_shape = randomShape(rng, std::uniform_int_distribution<size_t>(0, 2)(rng),
                                    std::min<uint64_t>(40, kMaxRows / std::max<uint64_t>(1, product(data.shape, a))));
    if (s == 0) index_shape.push_back(0);  // an empty axis only admits empty indices
    HostTensor indices = randomIndices(rng, index_type, index_shape, std::max<int64_t>(s, 1));
    if (round % 2 == 1 && s > 0) {
      indices = indexTensor(index_type, index_shape, runsOfRows(rng, indices.elementCount(), s));
    }
    SCOPED_TRACE("round " + std::to_string(round) + ": data " + describe(data) + ", indices " + describe(indices) +
                 ", axis " + std::to_string(axis));
    ASSERT_NO_FATAL_FAILURE(expectEveryPathMatches(context(), internal::gatherWithHostIndices, data, indices, axis,
                                                   referenceGather(data, indices, axis)));
  }
}

TEST_P(HostIndexGatherTest, GatherNDMatchesReferenceOnEveryPath) {
  const auto [dtype, index_type] = GetParam();
  Rng rng(0x40572 + 97 * static_cast<uint64_t>(dtype) + static_cast<uint64_t>(index_type));
  for (int round = 0; round < 8; ++round) {
    const size_t r = std::uniform_int_distribution<size_t>(1, 4)(rng);
    const size_t b = std::uniform_int_distribution<size_t>(0, r - 1)(rng) * (rng() % 2);
    const size_t k = std::uniform_int_distribution<size_t>(1, r - b)(rng);
    // Indexed dims must admit an index; redraw rather than patch a 0 (which could multiply the size).
    Shape data_shape;
    do {
      data_shape = randomShape(rng, r, 2000);
    } while (std::find(data_shape.begin() + std::ptrdiff_t(b), data_shape.begin() + std::ptrdiff_t(b + k), 0) !=
             data_shape.begin() + std::ptrdiff_t(b + k));
    Shape index_shape(data_shape.begin(), data_shape.begin() + static_cast<std::ptrdiff_t>(b));
    const Shape tuple_dims =
        randomShape(rng, std::uniform_int_distribution<size_t>(0, 2)(rng),
                    std::min<uint64_t>(40, kMaxRows / std::max<uint64_t>(1, product(data_shape, b))));
    index_shape.insert(index_shape.end(), tuple_dims.begin(), tuple_dims.end());
    index_shape.push_back(static_cast<int64_t>(k));
    const HostTensor data = randomTensor(rng, dtype, data_shape);
    const HostTensor indices = randomTuples(rng, index_type, index_shape, data_shape, b);
    SCOPED_TRACE("round " + std::to_string(round) + ": data " + describe(data) + ", indices " + describe(indices) +
                 ", batch_dims " + std::to_string(b));
    ASSERT_NO_FATAL_FAILURE(expectEveryPathMatches(context(), internal::gatherNDWithHostIndices, data, indices,
                                                   static_cast<int64_t>(b),
                                                   referenceGatherND(data, indices, static_cast<int64_t>(b))));
  }
}

std::string caseName(const ::testing::TestParamInfo<std::tuple<DataType, DataType>>& info) {
  return std::string(dataTypeName(std::get<0>(info.param))) + "_" + dataTypeName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllTypes, HostIndexGatherTest,
                         ::testing::Combine(::testing::ValuesIn(kClassicDataTypes),
                                            ::testing::Values(DataType::kInt32, DataType::kInt64)),
                         caseName);

using HostIndexGatherFormsTest = GpuTest;

// Both forms succeeded and gave the same shape and bytes.
void expectSameOutputs(const StatusOr<Tensor>& expected, const StatusOr<Tensor>& actual) {
  ASSERT_TRUE(expected.ok()) << expected.status().toString();
  ASSERT_TRUE(actual.ok()) << actual.status().toString();
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor expected_host, toHost(*expected));
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual_host, toHost(*actual));
  EXPECT_EQ(actual_host.shape, expected_host.shape);
  EXPECT_EQ(actual_host.bytes, expected_host.bytes);
}

// An embedding lookup as an LLM decoder makes it: the public new-output forms (planner's choice)
// agree with the indices-tensor forms byte for byte, for a run of prompt positions and for one token.
TEST_F(HostIndexGatherFormsTest, PublicFormsAgreeWithTheIndicesTensorForms) {
  Rng rng(77);
  const HostTensor table = randomTensor(rng, DataType::kFloat16, {512, 96});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor table_tensor, toDevice(context(), table));
  std::vector<int64_t> prompt(40);
  std::iota(prompt.begin(), prompt.end(), 300);
  for (const HostTensor& ids :
       {indexTensor(DataType::kInt64, {1, 40}, prompt), indexTensor(DataType::kInt32, {}, {7})}) {
    SCOPED_TRACE("indices " + describe(ids));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor ids_tensor, toDevice(context(), ids));
    ASSERT_NO_FATAL_FAILURE(expectSameOutputs(gather(context(), table_tensor, ids_tensor, 0),
                                              gather(context(), table_tensor, hostIndicesOf(ids), 0)));
  }
  // GatherND over rows: [n, 1] tuples pick whole rows.
  const HostTensor tuples = indexTensor(DataType::kInt64, {3, 1}, {5, -1, 6});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuples_tensor, toDevice(context(), tuples));
  expectSameOutputs(gatherND(context(), table_tensor, tuples_tensor, 0),
                    gatherND(context(), table_tensor, hostIndicesOf(tuples), 0));
}

// A bad index: the indices-tensor form's exact message (same position, value and range), on every
// path, and the caller's output keeps its canary.
TEST_F(HostIndexGatherFormsTest, BadIndicesGiveTheIndicesTensorFormsMessagesAndWriteNothing) {
  Rng rng(78);
  const HostTensor data = randomTensor(rng, DataType::kUInt8, {4, 6, 3});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(context(), data));
  struct BadCase {
    HostTensor indices;
    int64_t attribute;
    bool nd;
  };
  const BadCase cases[] = {
      {indexTensor(DataType::kInt64, {2, 2}, {1, 5, 6, 0}), 1, false},           // 6 on axis 1 of size 6
      {indexTensor(DataType::kInt32, {3}, {-7, 0, 9}), -2, false},               // -7 below -6
      {indexTensor(DataType::kInt64, {1}, {(int64_t(1) << 32) + 1}), 1, false},  // low word alone looks valid
      {indexTensor(DataType::kInt64, {2, 2}, {3, 5, 1, -7}), 0, true},           // tuple 1, component 1
      {indexTensor(DataType::kInt32, {4, 1, 1}, {0, 1, 2, 6}), 1, true},         // batch 3: 6 on dim 1
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE("indices " + describe(c.indices) + (c.nd ? " (GatherND)" : " (Gather)"));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(context(), c.indices));
    const ReferenceResult reference =
        c.nd ? referenceGatherND(data, c.indices, c.attribute) : referenceGather(data, c.indices, c.attribute);
    ASSERT_TRUE(reference.bad_index_position.has_value());
    // The output shape, from the reference on a valid copy of the indices.
    HostTensor valid = c.indices;
    std::fill(valid.bytes.begin(), valid.bytes.end(), 0);
    const Shape shape =
        (c.nd ? referenceGatherND(data, valid, c.attribute) : referenceGather(data, valid, c.attribute)).output.shape;
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, canaryOutput(context(), data.dtype, shape));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor before, toHost(output));
    const Status expected = c.nd ? gatherND(context(), data_tensor, index_tensor, c.attribute, output)
                                 : gather(context(), data_tensor, index_tensor, c.attribute, output);
    ASSERT_EQ(expected.code(), StatusCode::kOutOfRange) << expected.toString();
    for (const ForcedPath& path : kPaths) {
      SCOPED_TRACE(pathName(path));
      const HostIndexRun run =
          c.nd ? HostIndexRun(internal::gatherNDWithHostIndices) : HostIndexRun(internal::gatherWithHostIndices);
      const Status actual = run(context(), data_tensor, hostIndicesOf(c.indices), c.attribute, output, path);
      EXPECT_EQ(actual.code(), StatusCode::kOutOfRange);
      EXPECT_EQ(actual.message(), expected.message());
      VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(output));
      EXPECT_EQ(after.bytes, before.bytes);
    }
  }
}

// A dim of 2^32 or more (only empty data has one): host indices are checked against it in 64 bits too,
// on every path, with the indices-tensor forms' results.
TEST_F(HostIndexGatherFormsTest, IndicesIntoADimOf2To32OrMoreMatchTheIndicesTensorForms) {
  const int64_t s = int64_t(1) << 33;
  Rng rng(80);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), randomTensor(rng, DataType::kFloat32, {0, s})));
  const struct {
    HostTensor indices;
    StatusCode code;
  } cases[] = {{indexTensor(DataType::kInt64, {2}, {s - 1, -s}), StatusCode::kOk},
               {indexTensor(DataType::kInt64, {2}, {s - 1, s}), StatusCode::kOutOfRange},
               {indexTensor(DataType::kInt64, {2}, {-s - 1, 0}), StatusCode::kOutOfRange}};
  for (const auto& [indices, code] : cases) {
    SCOPED_TRACE("indices " + describe(indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(context(), indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, Tensor::create(context(), DataType::kFloat32, {0, 2}));
    const Status expected = gather(context(), data, index_tensor, 1, output);
    EXPECT_EQ(expected.code(), code) << expected.toString();
    for (const ForcedPath& path : kPaths) {
      SCOPED_TRACE(pathName(path));
      const Status actual = internal::gatherWithHostIndices(context(), data, hostIndicesOf(indices), 1, output, path);
      EXPECT_EQ(actual.code(), expected.code());
      EXPECT_EQ(actual.message(), expected.message());
    }
  }
}

// Malformed host indices: a null pointer with elements to read, and a type that is not an index type
// (the indices-tensor form's message).
TEST_F(HostIndexGatherFormsTest, MalformedHostIndicesAreRefusedPrecisely) {
  Rng rng(79);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), randomTensor(rng, DataType::kFloat32, {5, 2})));
  StatusOr<Tensor> null_values = gather(context(), data, HostIndices{DataType::kInt64, {3}, nullptr}, 0);
  ASSERT_FALSE(null_values.ok());
  EXPECT_EQ(null_values.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(null_values.status().message(),
            "Gather: input 'indices' (host) has shape [3] but its values pointer is null");
  const float values[] = {1.0f};
  StatusOr<Tensor> float_indices = gatherND(context(), data, HostIndices{DataType::kFloat32, {1}, values}, 0);
  ASSERT_FALSE(float_indices.ok());
  EXPECT_EQ(float_indices.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(float_indices.status().message().find("GatherND: input 'indices' has type float"), std::string::npos)
      << float_indices.status().message();
  // No values needed for empty indices: the output is empty.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor empty, gather(context(), data, HostIndices{DataType::kInt32, {0}, nullptr}, 0));
  EXPECT_EQ(empty.shape(), (Shape{0, 2}));
}

}  // namespace
}  // namespace vkindex::test
