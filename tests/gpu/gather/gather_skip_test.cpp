// IndexPolicy::kSkip for Gather, GatherElements and GatherND (vkindex/ops.hpp, "Index policy"): an
// index outside [0, s-1], or a tuple with such a component, gives zero bytes (the empty string), never
// an error and never a wrap. Byte-exact against the CPU reference with the policy, in the new-output and
// caller's-output forms, on hostile values: -1 among valid ones, s, INT_MIN and INT_MAX of the index
// type, 2^32 + 1 (an int64 whose low word alone looks valid), duplicates, all skipped, empty indices,
// an empty indexed axis, sub-word and wide elements, strings, data split into binding windows, and the
// host-index forms on both paths. Run under GPU-assisted validation it also shows that no skipped index
// touches memory outside its buffers.
#include <cstdint>
#include <limits>
#include <vector>

#include "ops/host_index_gather.hpp"
#include "support/gather_forms.hpp"
#include "support/gpu_test.hpp"
#include "support/scatter_forms.hpp"

namespace vkindex::test {
namespace {

constexpr IndexPolicy kSkip = IndexPolicy::kSkip;

class GatherSkipTest : public GpuTest {};

// Index values that the skip policy must skip for an axis of size `s`, valid ones among them, in both
// index types' ranges: int32 gets its own extremes, int64 also 2^32 + 1 and 2^32 + s - 1.
std::vector<int64_t> hostileValues(DataType index_type, int64_t s) {
  std::vector<int64_t> values = {0, s - 1, 1, 0};
  for (int64_t value : outOfRangeIndexValues(index_type, s)) values.push_back(value);
  values.push_back(-1);
  values.push_back(s - 1);  // duplicates of valid ones too
  values.push_back(s - 1);
  return values;
}

// The new output, and the caller's output where the harness can create one (not for strings, which
// Tensor::create does not make).
void expectBothForms(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices) {
  expectGatherMatchesReference(context, op, data, indices, GatherForm::kNewOutput);
  if (data.dtype == DataType::kString) return;
  expectGatherMatchesReference(context, op, data, indices, GatherForm::kCallersOutput);
}

// Gather along every axis of 3-D data, every data type in turn (sub-word, wide, strings), both index
// types, the hostile values in a [2, n] indices tensor.
TEST_F(GatherSkipTest, GatherZerosSkippedSlicesOnEveryAxis) {
  for (size_t n = 0; n < 16; ++n) {
    const DataType dtype = rotatingType(n), index_type = alternatingIndexType(n);
    const HostTensor data = dataOf(dtype, {5, 3, 4});
    for (int64_t axis = -1; axis < 3; ++axis) {
      const int64_t s = data.shape[static_cast<size_t>(axis < 0 ? axis + 3 : axis)];
      std::vector<int64_t> values = hostileValues(index_type, s);
      values.resize(values.size() / 2 * 2);
      const HostTensor indices = indexTensor(index_type, {2, static_cast<int64_t>(values.size() / 2)}, values);
      ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherOperator(axis, kSkip), data, indices));
    }
  }
}

// Rows of one unit (bytes, halves: the column kernels) and longer ones, a rank-0 index, all skipped,
// and empty indices.
TEST_F(GatherSkipTest, GatherRowShapesAllSkippedAndEmpty) {
  for (DataType dtype : {DataType::kUInt8, DataType::kInt16, DataType::kFloat32, DataType::kFloat64}) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      const HostTensor columns = dataOf(dtype, {6, 9});
      const std::vector<int64_t> hostile = hostileValues(index_type, 9);
      const HostTensor values = indexTensor(index_type, {static_cast<int64_t>(hostile.size())}, hostile);
      ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherOperator(1, kSkip), columns, values));
      ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherOperator(0, kSkip), dataOf(dtype, {7, 33}),
                                              indexTensor(index_type, {5}, {6, -1, 7, 0, 100})));
      ASSERT_NO_FATAL_FAILURE(
          expectBothForms(context(), gatherOperator(0, kSkip), columns, indexTensor(index_type, {}, {-1})));
      ASSERT_NO_FATAL_FAILURE(
          expectBothForms(context(), gatherOperator(0, kSkip), columns, indexTensor(index_type, {4}, {-1, -6, 6, 6})));
      ASSERT_NO_FATAL_FAILURE(
          expectBothForms(context(), gatherOperator(1, kSkip), columns, indexTensor(index_type, {0}, {})));
    }
  }
}

// An empty indexed axis: every index is skipped, so the whole output is zeros (ONNX: always an error).
TEST_F(GatherSkipTest, EmptyIndexedAxisGivesZeros) {
  for (DataType dtype : {DataType::kUInt8, DataType::kFloat32, DataType::kString}) {
    const HostTensor indices = indexTensor(DataType::kInt64, {3}, {0, -1, 2});
    ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherOperator(1, kSkip), dataOf(dtype, {4, 0, 3}), indices));
    ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherElementsOperator(1, kSkip), dataOf(dtype, {2, 0}),
                                            indexTensor(DataType::kInt32, {2, 3}, {0, -1, 5, 0, 0, 1})));
    ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherNDOperator(0, kSkip), dataOf(dtype, {3, 0, 2}),
                                            indexTensor(DataType::kInt64, {2, 2}, {1, 0, 0, -1})));
  }
}

// GatherElements along each axis, every type in turn, hostile values at every position.
TEST_F(GatherSkipTest, GatherElementsZerosSkippedElements) {
  for (size_t n = 0; n < 16; ++n) {
    const DataType dtype = rotatingType(n), index_type = alternatingIndexType(n);
    const HostTensor data = dataOf(dtype, {4, 7});
    for (int64_t axis : {0, 1}) {
      const int64_t s = data.shape[static_cast<size_t>(axis)];
      std::vector<int64_t> values = hostileValues(index_type, s);
      values.resize(12);
      const Shape shape = axis == 0 ? Shape{3, 4} : Shape{4, 3};
      ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherElementsOperator(axis, kSkip), data,
                                              indexTensor(index_type, shape, values)));
    }
  }
}

// GatherND: a tuple is skipped when any component is, with batch_dims 0 and 1, tuples of 1 to 3
// components, and 2^32 + 1 in a component whose others are valid.
TEST_F(GatherSkipTest, GatherNDZerosSkippedTuples) {
  for (size_t n = 0; n < 16; ++n) {
    const DataType dtype = rotatingType(n), index_type = alternatingIndexType(n);
    const HostTensor data = dataOf(dtype, {3, 4, 5});
    const int64_t huge = index_type == DataType::kInt64 ? (int64_t(1) << 32) + 1 : std::numeric_limits<int32_t>::max();
    // k = 2, batch_dims 0: valid, second component skipped, first skipped, both, a duplicate.
    ASSERT_NO_FATAL_FAILURE(
        expectBothForms(context(), gatherNDOperator(0, kSkip), data,
                        indexTensor(index_type, {6, 2}, {2, 3, 0, -1, 3, 0, -1, huge, 2, 3, 1, 4})));
    // k = 3 (whole elements), batch_dims 0.
    ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherNDOperator(0, kSkip), data,
                                            indexTensor(index_type, {3, 3}, {2, 3, 4, 2, 3, 5, 0, 0, 0})));
    // k = 1 with batch_dims 1: each batch's own tuples.
    ASSERT_NO_FATAL_FAILURE(expectBothForms(context(), gatherNDOperator(1, kSkip), data,
                                            indexTensor(index_type, {3, 2, 1}, {3, -1, 4, 0, huge, 1})));
  }
}

// Data split into many binding windows (a small binding limit): the zeros of a skipped row come from
// exactly one pass, and valid rows from the window that binds them.
TEST_F(GatherSkipTest, SkippedRowsAcrossBindingWindows) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> windows, makeContextWithBindings(4096));
  for (DataType dtype : {DataType::kUInt8, DataType::kInt16, DataType::kFloat32, DataType::kFloat64}) {
    const HostTensor data = dataOf(dtype, {6, 400, 5});
    const HostTensor indices = indexTensor(DataType::kInt64, {7}, {399, -1, 0, 400, 200, (int64_t(1) << 32) + 1, 399});
    ASSERT_NO_FATAL_FAILURE(expectBothForms(*windows, gatherOperator(1, kSkip), data, indices));
    ASSERT_NO_FATAL_FAILURE(expectBothForms(*windows, gatherNDOperator(0, kSkip), data,
                                            indexTensor(DataType::kInt32, {4, 2}, {5, 399, 6, 0, 0, -1, 2, 2})));
    std::vector<int64_t> element_indices(6 * 400 * 5);
    for (size_t i = 0; i < element_indices.size(); ++i) element_indices[i] = int64_t(i * 7 % 403) - 1;
    ASSERT_NO_FATAL_FAILURE(expectBothForms(*windows, gatherElementsOperator(1, kSkip), data,
                                            indexTensor(DataType::kInt32, {6, 400, 5}, element_indices)));
  }
}

// ONNX's rule stays the default: the same hostile index is an error without the policy.
TEST_F(GatherSkipTest, DefaultPolicyStillReportsBadIndices) {
  const HostTensor data = dataOf(DataType::kFloat32, {4, 3});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, toDevice(context(), data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor i, toDevice(context(), indexTensor(DataType::kInt64, {2}, {0, 4})));
  EXPECT_EQ(gather(context(), d, i).status().code(), StatusCode::kOutOfRange);
  VKINDEX_ASSERT_OK(gather(context(), d, i, 0, kSkip).status());
}

TEST_F(GatherSkipTest, UnknownPolicyIsInvalid) {
  const HostTensor data = dataOf(DataType::kFloat32, {4, 3});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, toDevice(context(), data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor i, toDevice(context(), indexTensor(DataType::kInt64, {2}, {0, 1})));
  const Status status = gatherElements(context(), d, i, 0, static_cast<IndexPolicy>(7)).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "GatherElements: unknown index policy 7 (allowed kError, kSkip)");
}

// Host-index Gather and GatherND: a skipped index makes even a forced copy-region call take the kernel,
// whose zero rows match the reference; calls without one keep the copy path's bytes.
TEST_F(GatherSkipTest, HostIndexFormsOnBothPaths) {
  for (DataType dtype : {DataType::kUInt8, DataType::kFloat32, DataType::kString}) {
    const HostTensor data = dataOf(dtype, {9, 5});
    for (const std::vector<int64_t>& values :
         {std::vector<int64_t>{3, -1, 8, 9, (int64_t(1) << 32) + 1, 3}, std::vector<int64_t>{1, 2, 3, 3, 8, 0}}) {
      const HostTensor ids = indexTensor(DataType::kInt64, {6}, values);
      const ReferenceResult expected = referenceGather(data, ids, 0, kSkip);
      const HostIndices host{ids.dtype, ids.shape, ids.bytes.data()};
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, toDevice(context(), data));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor fresh, gather(context(), d, host, 0, kSkip));
      VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor got, toHost(fresh));
      EXPECT_EQ(got.bytes, expected.output.bytes);
      EXPECT_EQ(got.strings, expected.output.strings);
      if (dtype == DataType::kString) continue;
      for (plan::HostIndexPath path : {plan::HostIndexPath::kCopyRegions, plan::HostIndexPath::kKernel}) {
        VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor out, Tensor::create(context(), dtype, expected.output.shape));
        VKINDEX_ASSERT_OK(internal::gatherWithHostIndices(context(), d, host, 0, out, path, kSkip));
        VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor copied, toHost(out));
        EXPECT_EQ(copied.bytes, expected.output.bytes) << "path " << static_cast<int>(path);
      }
    }
    // GatherND with host tuples, batch_dims 1.
    const HostTensor tuples =
        indexTensor(DataType::kInt32, {9, 2, 1}, {0, 4, -1, 5, 2, 2, 4, 4, 0, 0, 1, 1, 3, 3, 6, -5, 7, 3});
    const ReferenceResult expected = referenceGatherND(data, tuples, 1, kSkip);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, toDevice(context(), data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        Tensor fresh, gatherND(context(), d, HostIndices{tuples.dtype, tuples.shape, tuples.bytes.data()}, 1, kSkip));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor got, toHost(fresh));
    EXPECT_EQ(got.bytes, expected.output.bytes);
    EXPECT_EQ(got.strings, expected.output.strings);
  }
}

// The recorded forms under kSkip: the three gathers recorded into one command buffer of the test's own,
// hostile indices, each output against the reference.
TEST_F(GatherSkipTest, RecordedFormsZeroSkippedSlices) {
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    SCOPED_TRACE(dataTypeName(index_type));
    const HostTensor data = dataOf(DataType::kFloat16, {5, 6});
    const std::vector<int64_t> hostile = hostileValues(index_type, 5);
    const HostTensor rows = indexTensor(index_type, {static_cast<int64_t>(hostile.size())}, hostile);
    std::vector<int64_t> element_values(hostile.begin(), hostile.end());
    element_values.resize(6, 2);
    const HostTensor elements = indexTensor(index_type, {1, 6}, element_values);
    const HostTensor tuples = indexTensor(index_type, {static_cast<int64_t>(hostile.size()), 1}, hostile);
    const ReferenceResult gathered = referenceGather(data, rows, 0, kSkip);
    const ReferenceResult picked = referenceGatherElements(data, elements, 0, kSkip);
    const ReferenceResult addressed = referenceGatherND(data, tuples, 0, kSkip);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, toDevice(context(), data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor r, toDevice(context(), rows));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor e, toDevice(context(), elements));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor t, toDevice(context(), tuples));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor out_rows, toDevice(context(), garbageLike(gathered.output)));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor out_elements, toDevice(context(), garbageLike(picked.output)));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor out_tuples, toDevice(context(), garbageLike(addressed.output)));
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        std::vector<Status> finished,
        runRecorded(
            context(),
            {[&](VkCommandBuffer cmd) { return recordGather(context(), cmd, d, r, 0, out_rows, kSkip); },
             [&](VkCommandBuffer cmd) { return recordGatherElements(context(), cmd, d, e, 0, out_elements, kSkip); },
             [&](VkCommandBuffer cmd) { return recordGatherND(context(), cmd, d, t, 0, out_tuples, kSkip); }}));
    for (const Status& status : finished) VKINDEX_ASSERT_OK(status);
    EXPECT_TRUE(holds(out_rows, gathered.output)) << "recordGather";
    EXPECT_TRUE(holds(out_elements, picked.output)) << "recordGatherElements";
    EXPECT_TRUE(holds(out_tuples, addressed.output)) << "recordGatherND";
  }
}

}  // namespace
}  // namespace vkindex::test
