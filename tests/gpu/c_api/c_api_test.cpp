// The C API (include/vkindex/vkindex.h), driven from C code: results, status codes and messages.
#include <array>
#include <cstring>
#include <string>

#include "c_api/gather_block_quantized_from_c.h"
#include "c_api/gather_from_c.h"
#include "c_api/huge_tensor_from_c.h"
#include "c_api/tensor_scatter_from_c.h"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

class CApiTest : public GpuTest {
 protected:
  // The device the fixture's context runs on, so the C API uses the same driver.
  std::string device() const { return std::to_string(context().device().index); }

  // gatherElementsFromC and gatherNDFromC: the index to plant, then a 2x2 float result.
  using TwoByTwoFromC = int (*)(const char* device, int64_t index, float out_values[4], char* message,
                                size_t message_size);

  // Runs `run` with `index`; expects success and the result `expected`, bit for bit.
  void expectResult(TwoByTwoFromC run, int64_t index, const std::array<float, 4>& expected) {
    std::array<float, 4> values{};
    char message[256] = {};
    ASSERT_EQ(run(device().c_str(), index, values.data(), message, sizeof(message)), VKINDEX_OK) << message;
    EXPECT_EQ(std::memcmp(values.data(), expected.data(), sizeof(values)), 0) << "index " << index;
  }

  // Runs `run` with the bad `index`; expects VKINDEX_OUT_OF_RANGE and `message`.
  void expectError(TwoByTwoFromC run, int64_t index, const char* expected_message) {
    std::array<float, 4> values{};
    char message[256] = {};
    EXPECT_EQ(run(device().c_str(), index, values.data(), message, sizeof(message)), VKINDEX_OUT_OF_RANGE);
    EXPECT_STREQ(message, expected_message);
  }
};

TEST_F(CApiTest, GatherFromC) {
  float values[6] = {};
  char message[256] = {};
  ASSERT_EQ(gatherFromC(device().c_str(), 1, values, message, sizeof(message)), VKINDEX_OK) << message;
  const float expected[6] = {6.f, 7.f, 0.f, 1.f, 2.f, 3.f};
  EXPECT_EQ(std::memcmp(values, expected, sizeof(values)), 0);
}

TEST_F(CApiTest, BadIndexGivesOutOfRangeAndTheMessage) {
  float values[6] = {};
  char message[256] = {};
  EXPECT_EQ(gatherFromC(device().c_str(), 4294967297LL, values, message, sizeof(message)), VKINDEX_OUT_OF_RANGE);
  EXPECT_STREQ(message, "Gather: indices[2] = 4294967297 is out of range for axis 0 of size 4 (allowed [-4, 3])");
}

// 3072 MiB is beyond every device's allocation limit here (lavapipe 2 GiB, SwiftShader 1 GiB): a status
// before any allocation, where the driver used to accept it (or crash on the copy).
TEST_F(CApiTest, TensorBeyondTheAllocationLimitGivesUnsupported) {
  char message[512] = {};
  const uint64_t limit = context().device().max_memory_allocation_size;
  if (limit == 0 || limit >= (uint64_t(3072) << 20)) GTEST_SKIP() << "this device can allocate 3072 MiB at once";
  EXPECT_EQ(hugeTensorFromC(device().c_str(), 3072, message, sizeof(message)), VKINDEX_UNSUPPORTED);
  EXPECT_STREQ(message, ("Tensor::create: 3221225472 bytes exceed the device's maxMemoryAllocationSize of " +
                         std::to_string(limit) + " bytes (" + context().device().name + ")")
                            .c_str());
}

// ONNX's GatherElements example: data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]], axis 1.
TEST_F(CApiTest, GatherElementsFromC) {
  expectResult(gatherElementsFromC, 1, {1.f, 1.f, 4.f, 3.f});
  // A negative index counts from the back of the axis: -2 is column 0.
  expectResult(gatherElementsFromC, -2, {1.f, 1.f, 3.f, 3.f});
  expectError(gatherElementsFromC, 4294967297LL,
              "GatherElements: indices[1, 0] = 4294967297 is out of range for axis 1 of size 2 (allowed [-2, 1])");
}

// ONNX's GatherND example with batch_dims 1: data [[[0, 1], [2, 3]], [[4, 5], [6, 7]]], indices [[1], [0]].
TEST_F(CApiTest, GatherNDFromC) {
  expectResult(gatherNDFromC, 0, {2.f, 3.f, 4.f, 5.f});
  // Within the second batch, -1 is its last row.
  expectResult(gatherNDFromC, -1, {2.f, 3.f, 6.f, 7.f});
  expectError(gatherNDFromC, 2,
              "GatherND: indices[1] (component 0) = 2 is out of range for data dim 1 of size 2 (allowed [-2, 1])");
}

// The host-index forms: data [4, 2], token ids in host memory (no indices tensor), a bad id's message,
// GatherND over rows, and the argument checks of every form (the recorded forms included).
TEST_F(CApiTest, GatherWithHostIndicesFromC) {
  VkindexContext ctx = nullptr;
  ASSERT_EQ(vkindexContextCreate(device().c_str(), 1, &ctx), VKINDEX_OK) << vkindexLastErrorMessage();
  const float table[8] = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f};
  const int64_t table_shape[2] = {4, 2};
  VkindexTensor data = nullptr;
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_FLOAT32, table_shape, 2, table, sizeof(table), &data), VKINDEX_OK);
  const int64_t ids[3] = {3, -4, 1};
  const int64_t ids_shape[1] = {3};
  VkindexHostIndices host = {VKINDEX_INT64, ids_shape, 1, ids};
  VkindexTensor out = nullptr;
  ASSERT_EQ(vkindexGatherHostIndices(ctx, data, &host, 0, &out), VKINDEX_OK) << vkindexLastErrorMessage();
  float values[6] = {};
  ASSERT_EQ(vkindexTensorDownload(out, values, sizeof(values)), VKINDEX_OK);
  const float expected[6] = {6.f, 7.f, 0.f, 1.f, 2.f, 3.f};
  EXPECT_EQ(std::memcmp(values, expected, sizeof(values)), 0);
  vkindexTensorDestroy(out);
  // GatherND over rows: int32 tuples [2, 1].
  const int32_t tuples[2] = {2, -1};
  const int64_t tuples_shape[2] = {2, 1};
  VkindexHostIndices host_tuples = {VKINDEX_INT32, tuples_shape, 2, tuples};
  ASSERT_EQ(vkindexGatherNDHostIndices(ctx, data, &host_tuples, 0, &out), VKINDEX_OK) << vkindexLastErrorMessage();
  float rows[4] = {};
  ASSERT_EQ(vkindexTensorDownload(out, rows, sizeof(rows)), VKINDEX_OK);
  const float expected_rows[4] = {4.f, 5.f, 6.f, 7.f};
  EXPECT_EQ(std::memcmp(rows, expected_rows, sizeof(rows)), 0);
  vkindexTensorDestroy(out);
  // A bad id fails the call itself, with the indices-tensor form's message; nothing is created.
  const int64_t bad_ids[3] = {0, 4, 1};
  host.values = bad_ids;
  out = nullptr;
  EXPECT_EQ(vkindexGatherHostIndices(ctx, data, &host, 0, &out), VKINDEX_OUT_OF_RANGE);
  EXPECT_STREQ(vkindexLastErrorMessage(),
               "Gather: indices[1] = 4 is out of range for axis 0 of size 4 (allowed [-4, 3])");
  EXPECT_EQ(out, nullptr);
  // Argument checks.
  EXPECT_EQ(vkindexGatherHostIndices(ctx, data, nullptr, 0, &out), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGatherHostIndices: 'indices' is NULL");
  VkindexHostIndices no_shape = {VKINDEX_INT64, nullptr, 1, ids};
  EXPECT_EQ(vkindexGatherNDHostIndices(ctx, data, &no_shape, 0, &out), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGatherNDHostIndices: 'indices->shape' is NULL for rank 1");
  VkindexHostIndices unknown_type = {static_cast<VkindexDataType>(15), ids_shape, 1, ids};
  EXPECT_EQ(vkindexGatherHostIndices(ctx, data, &unknown_type, 0, &out), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGatherHostIndices: unknown index type 15");
  VkindexRecordedOp op = nullptr;
  EXPECT_EQ(vkindexRecordGatherHostIndices(ctx, VK_NULL_HANDLE, data, &host, 0, data, &op), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexRecordGatherHostIndices: 'command_buffer' is NULL");
  EXPECT_EQ(vkindexRecordGatherNDHostIndices(ctx, reinterpret_cast<VkCommandBuffer>(uintptr_t(1)), data, &host_tuples,
                                             0, nullptr, &op),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexRecordGatherNDHostIndices: 'output' is NULL");
  vkindexTensorDestroy(data);
  vkindexContextDestroy(ctx);
}

// ONNX's ScatterElements example: data [[1, 2, 3, 4, 5]], indices [[1, 3]], updates [[1.1, 2.1]], axis 1.
// The ...WithPolicy gathers: VKINDEX_INDEX_POLICY_SKIP gives zero rows (elements) for -1 and 4 where
// the plain forms fail, VKINDEX_INDEX_POLICY_ERROR behaves as they do, another value is refused.
TEST_F(CApiTest, GathersWithPolicyFromC) {
  VkindexContext ctx = nullptr;
  ASSERT_EQ(vkindexContextCreate(device().c_str(), 1, &ctx), VKINDEX_OK) << vkindexLastErrorMessage();
  const float table[8] = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f};
  const int64_t table_shape[2] = {4, 2};
  VkindexTensor data = nullptr;
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_FLOAT32, table_shape, 2, table, sizeof(table), &data), VKINDEX_OK);
  const int64_t ids[3] = {3, -1, 4};
  const int64_t ids_shape[1] = {3};
  VkindexTensor indices = nullptr;
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_INT64, ids_shape, 1, ids, sizeof(ids), &indices), VKINDEX_OK);
  const float expected[6] = {6.f, 7.f, 0.f, 0.f, 0.f, 0.f};
  VkindexTensor out = nullptr;
  ASSERT_EQ(vkindexGatherWithPolicy(ctx, data, indices, 0, VKINDEX_INDEX_POLICY_SKIP, &out), VKINDEX_OK)
      << vkindexLastErrorMessage();
  float values[6] = {1.f, 1.f, 1.f, 1.f, 1.f, 1.f};
  ASSERT_EQ(vkindexTensorDownload(out, values, sizeof(values)), VKINDEX_OK);
  EXPECT_EQ(std::memcmp(values, expected, sizeof(values)), 0);
  vkindexTensorDestroy(out);
  VkindexHostIndices host = {VKINDEX_INT64, ids_shape, 1, ids};
  ASSERT_EQ(vkindexGatherHostIndicesWithPolicy(ctx, data, &host, 0, VKINDEX_INDEX_POLICY_SKIP, &out), VKINDEX_OK)
      << vkindexLastErrorMessage();
  ASSERT_EQ(vkindexTensorDownload(out, values, sizeof(values)), VKINDEX_OK);
  EXPECT_EQ(std::memcmp(values, expected, sizeof(values)), 0);
  vkindexTensorDestroy(out);
  // GatherND with 2-tuples: (3, 1) valid, (0, 2) skipped (component 1 is out of range).
  const int32_t tuples[4] = {3, 1, 0, 2};
  const int64_t tuples_shape[2] = {2, 2};
  VkindexTensor tuple_tensor = nullptr;
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_INT32, tuples_shape, 2, tuples, sizeof(tuples), &tuple_tensor),
            VKINDEX_OK);
  ASSERT_EQ(vkindexGatherNDWithPolicy(ctx, data, tuple_tensor, 0, VKINDEX_INDEX_POLICY_SKIP, &out), VKINDEX_OK)
      << vkindexLastErrorMessage();
  float elements[2] = {1.f, 1.f};
  ASSERT_EQ(vkindexTensorDownload(out, elements, sizeof(elements)), VKINDEX_OK);
  EXPECT_EQ(elements[0], 7.f);
  EXPECT_EQ(elements[1], 0.f);
  vkindexTensorDestroy(out);
  out = nullptr;
  EXPECT_EQ(vkindexGatherElementsWithPolicy(ctx, data, tuple_tensor, 1, VKINDEX_INDEX_POLICY_ERROR, &out),
            VKINDEX_OUT_OF_RANGE);
  EXPECT_EQ(out, nullptr);
  // A value a C caller can pass (C++ forbids the cast: outside the enum's range).
  const int raw_policy = 3;
  VkindexIndexPolicy unknown;
  static_assert(sizeof(unknown) == sizeof(raw_policy));
  std::memcpy(&unknown, &raw_policy, sizeof(unknown));
  EXPECT_EQ(vkindexGatherWithPolicy(ctx, data, indices, 0, unknown, &out), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(),
               "vkindexGatherWithPolicy: unknown index policy 3 (allowed VKINDEX_INDEX_POLICY_ERROR, "
               "VKINDEX_INDEX_POLICY_SKIP)");
  vkindexTensorDestroy(tuple_tensor);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  vkindexContextDestroy(ctx);
}

TEST_F(CApiTest, ScatterElementsFromC) {
  const std::array<float, 5> data = {1.f, 2.f, 3.f, 4.f, 5.f};
  for (int in_place : {0, 1}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    std::array<float, 5> values{};
    char message[256] = {};
    ASSERT_EQ(scatterElementsFromC(device().c_str(), 3, VKINDEX_REDUCTION_NONE, in_place, values.data(), message,
                                   sizeof(message)),
              VKINDEX_OK)
        << message;
    const std::array<float, 5> example = {1.f, 1.1f, 3.f, 2.1f, 5.f};
    EXPECT_EQ(std::memcmp(values.data(), example.data(), sizeof(values)), 0);
    // -1 is the last column; add combines with the value there.
    ASSERT_EQ(scatterElementsFromC(device().c_str(), -1, VKINDEX_REDUCTION_ADD, in_place, values.data(), message,
                                   sizeof(message)),
              VKINDEX_OK)
        << message;
    const std::array<float, 5> added = {1.f, 2.f + 1.1f, 3.f, 4.f, 5.f + 2.1f};
    EXPECT_EQ(std::memcmp(values.data(), added.data(), sizeof(values)), 0);
    // A bad index: nothing is written (in place, data keeps its values).
    values.fill(-1.f);
    EXPECT_EQ(scatterElementsFromC(device().c_str(), 5, VKINDEX_REDUCTION_NONE, in_place, values.data(), message,
                                   sizeof(message)),
              VKINDEX_OUT_OF_RANGE);
    EXPECT_STREQ(message, "ScatterElements: indices[0, 1] = 5 is out of range for axis 1 of size 5 (allowed [-5, 4])");
    if (in_place) {
      EXPECT_EQ(std::memcmp(values.data(), data.data(), sizeof(values)), 0);
    }
  }
}

// ONNX's ScatterND example: data [1..8], indices [[4], [3], [1], [7]], updates [9, 10, 11, 12].
TEST_F(CApiTest, ScatterNDFromC) {
  const std::array<float, 8> data = {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
  for (int in_place : {0, 1}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    std::array<float, 8> values{};
    char message[256] = {};
    ASSERT_EQ(
        scatterNDFromC(device().c_str(), 7, VKINDEX_REDUCTION_NONE, in_place, values.data(), message, sizeof(message)),
        VKINDEX_OK)
        << message;
    const std::array<float, 8> example = {1.f, 11.f, 3.f, 10.f, 9.f, 6.f, 7.f, 12.f};
    EXPECT_EQ(std::memcmp(values.data(), example.data(), sizeof(values)), 0);
    // Index 1 twice (-7 is 1): mul folds both updates into it in index order.
    ASSERT_EQ(
        scatterNDFromC(device().c_str(), -7, VKINDEX_REDUCTION_MUL, in_place, values.data(), message, sizeof(message)),
        VKINDEX_OK)
        << message;
    const std::array<float, 8> multiplied = {1.f, 2.f * 11.f * 12.f, 3.f, 40.f, 45.f, 6.f, 7.f, 8.f};
    EXPECT_EQ(std::memcmp(values.data(), multiplied.data(), sizeof(values)), 0);
    values.fill(-1.f);
    EXPECT_EQ(
        scatterNDFromC(device().c_str(), 8, VKINDEX_REDUCTION_MAX, in_place, values.data(), message, sizeof(message)),
        VKINDEX_OUT_OF_RANGE);
    EXPECT_STREQ(message,
                 "ScatterND: indices[3] (component 0) = 8 is out of range for data dim 0 of size 8 (allowed [-8, 7])");
    if (in_place) {
      EXPECT_EQ(std::memcmp(values.data(), data.data(), sizeof(values)), 0);
    }
  }
}

// The ...WithPolicy scatters: VKINDEX_INDEX_POLICY_SKIP leaves out the updates at -1 and 4 (a paged KV
// cache's padding slot, one past the end) where the plain forms fail, in every submitting form; the
// recorded forms and TensorScatter name themselves when refusing an unknown policy.
TEST_F(CApiTest, ScattersWithPolicyFromC) {
  VkindexContext ctx = nullptr;
  ASSERT_EQ(vkindexContextCreate(device().c_str(), 1, &ctx), VKINDEX_OK) << vkindexLastErrorMessage();
  const float pool[8] = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f};
  const int64_t pool_shape[2] = {4, 2};
  const int64_t slots[3] = {2, -1, 4};
  const int64_t slots_shape[2] = {3, 1};
  const float rows[6] = {20.f, 21.f, 90.f, 91.f, 95.f, 96.f};
  const int64_t rows_shape[2] = {3, 2};
  VkindexTensor data = nullptr, indices = nullptr, updates = nullptr, out = nullptr;
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_FLOAT32, pool_shape, 2, pool, sizeof(pool), &data), VKINDEX_OK);
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_INT64, slots_shape, 2, slots, sizeof(slots), &indices), VKINDEX_OK);
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_FLOAT32, rows_shape, 2, rows, sizeof(rows), &updates), VKINDEX_OK);
  const float expected[8] = {0.f, 1.f, 2.f, 3.f, 20.f, 21.f, 6.f, 7.f};
  float values[8] = {};
  ASSERT_EQ(
      vkindexScatterNDWithPolicy(ctx, data, indices, updates, VKINDEX_REDUCTION_NONE, VKINDEX_INDEX_POLICY_SKIP, &out),
      VKINDEX_OK)
      << vkindexLastErrorMessage();
  ASSERT_EQ(vkindexTensorDownload(out, values, sizeof(values)), VKINDEX_OK);
  EXPECT_EQ(std::memcmp(values, expected, sizeof(values)), 0);
  vkindexTensorDestroy(out);
  out = nullptr;
  EXPECT_EQ(
      vkindexScatterNDWithPolicy(ctx, data, indices, updates, VKINDEX_REDUCTION_NONE, VKINDEX_INDEX_POLICY_ERROR, &out),
      VKINDEX_OUT_OF_RANGE);
  EXPECT_EQ(out, nullptr);
  ASSERT_EQ(
      vkindexScatterNDInPlaceWithPolicy(ctx, data, indices, updates, VKINDEX_REDUCTION_ADD, VKINDEX_INDEX_POLICY_SKIP),
      VKINDEX_OK)
      << vkindexLastErrorMessage();
  const float added[8] = {0.f, 1.f, 2.f, 3.f, 24.f, 26.f, 6.f, 7.f};
  ASSERT_EQ(vkindexTensorDownload(data, values, sizeof(values)), VKINDEX_OK);
  EXPECT_EQ(std::memcmp(values, added, sizeof(values)), 0);
  // ScatterElements along axis 0 of the [4, 2] pool: indices [3, 2] of 2, -1, 4 per column.
  const int64_t element_ids[6] = {1, -1, 4, 0, 3, 9};
  const int64_t element_shape[2] = {3, 2};
  VkindexTensor element_indices = nullptr;
  ASSERT_EQ(
      vkindexTensorCreate(ctx, VKINDEX_INT64, element_shape, 2, element_ids, sizeof(element_ids), &element_indices),
      VKINDEX_OK);
  ASSERT_EQ(vkindexScatterElementsWithPolicy(ctx, data, element_indices, updates, 0, VKINDEX_REDUCTION_NONE,
                                             VKINDEX_INDEX_POLICY_SKIP, &out),
            VKINDEX_OK)
      << vkindexLastErrorMessage();
  const float elements[8] = {0.f, 91.f, 20.f, 3.f, 24.f, 26.f, 95.f, 7.f};
  ASSERT_EQ(vkindexTensorDownload(out, values, sizeof(values)), VKINDEX_OK);
  EXPECT_EQ(std::memcmp(values, elements, sizeof(values)), 0);
  vkindexTensorDestroy(out);
  out = nullptr;
  ASSERT_EQ(vkindexScatterElementsInPlaceWithPolicy(ctx, data, element_indices, updates, 0, VKINDEX_REDUCTION_NONE,
                                                    VKINDEX_INDEX_POLICY_SKIP),
            VKINDEX_OK)
      << vkindexLastErrorMessage();
  ASSERT_EQ(vkindexTensorDownload(data, values, sizeof(values)), VKINDEX_OK);
  EXPECT_EQ(std::memcmp(values, elements, sizeof(values)), 0);
  // Values a C caller can pass (C++ forbids the cast: outside the enum's range).
  const int raw_policy = 5;
  VkindexIndexPolicy unknown;
  static_assert(sizeof(unknown) == sizeof(raw_policy));
  std::memcpy(&unknown, &raw_policy, sizeof(unknown));
  const std::string allowed =
      ": unknown index policy 5 (allowed VKINDEX_INDEX_POLICY_ERROR, VKINDEX_INDEX_POLICY_SKIP)";
  EXPECT_EQ(vkindexScatterNDWithPolicy(ctx, data, indices, updates, VKINDEX_REDUCTION_NONE, unknown, &out),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexLastErrorMessage(), "vkindexScatterNDWithPolicy" + allowed);
  EXPECT_EQ(
      vkindexScatterElementsInPlaceWithPolicy(ctx, data, element_indices, updates, 0, VKINDEX_REDUCTION_NONE, unknown),
      VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexLastErrorMessage(), "vkindexScatterElementsInPlaceWithPolicy" + allowed);
  // The recorded forms refuse before recording anything (the handle is never used).
  const VkCommandBuffer unused = reinterpret_cast<VkCommandBuffer>(uintptr_t(1));
  VkindexRecordedOp op = nullptr;
  EXPECT_EQ(
      vkindexRecordScatterNDWithPolicy(ctx, unused, data, indices, updates, VKINDEX_REDUCTION_NONE, unknown, data, &op),
      VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexLastErrorMessage(), "vkindexRecordScatterNDWithPolicy" + allowed);
  EXPECT_EQ(vkindexRecordScatterElementsWithPolicy(ctx, unused, data, element_indices, updates, 0,
                                                   VKINDEX_REDUCTION_NONE, unknown, data, &op),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexLastErrorMessage(), "vkindexRecordScatterElementsWithPolicy" + allowed);
  EXPECT_EQ(vkindexRecordScatterNDWithPolicy(ctx, VK_NULL_HANDLE, data, indices, updates, VKINDEX_REDUCTION_NONE,
                                             VKINDEX_INDEX_POLICY_SKIP, data, &op),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexRecordScatterNDWithPolicy: 'command_buffer' is NULL");
  EXPECT_EQ(op, nullptr);
  // TensorScatter converts the policy as the others do (it used to pass it through to the operator).
  EXPECT_EQ(vkindexTensorScatterInPlace(ctx, data, data, nullptr, -2, VKINDEX_TENSOR_SCATTER_LINEAR, unknown),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexLastErrorMessage(), "vkindexTensorScatterInPlace" + allowed);
  EXPECT_EQ(vkindexTensorScatterInPlace(ctx, data, data, nullptr, -2, static_cast<VkindexTensorScatterMode>(7),
                                        VKINDEX_INDEX_POLICY_ERROR),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(),
               "vkindexTensorScatterInPlace: unknown mode 7 (allowed VKINDEX_TENSOR_SCATTER_LINEAR, "
               "VKINDEX_TENSOR_SCATTER_CIRCULAR)");
  vkindexTensorDestroy(element_indices);
  vkindexTensorDestroy(updates);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  vkindexContextDestroy(ctx);
}

// The quantized lookup from C (gather_block_quantized_from_c.h): row 1 twice (codes 1, 2 alternating;
// block 0: zero point 3, scale 0.5; block 1: zero point 4, scale -1), then a zero row for index 5 under
// the default policy; the error policy's message for it, with either form of indices.
TEST_F(CApiTest, GatherBlockQuantizedFromC) {
  std::array<float, 32> row{};
  for (size_t c = 0; c < 32; ++c) {
    const float code = c % 2 == 0 ? 1.0f : 2.0f;
    row[c] = c < 16 ? (code - 3.0f) * 0.5f : (code - 4.0f) * -1.0f;
  }
  for (int host : {0, 1}) {
    SCOPED_TRACE(host ? "host indices" : "indices tensor");
    std::array<float, 96> out{};
    char message[512] = {};
    ASSERT_EQ(gatherBlockQuantizedFromC(device().c_str(), host, VKINDEX_INDEX_POLICY_SKIP, out.data(), message,
                                        sizeof(message)),
              VKINDEX_OK)
        << message;
    std::array<float, 96> expected{};
    std::copy(row.begin(), row.end(), expected.begin());
    std::copy(row.begin(), row.end(), expected.begin() + 32);
    EXPECT_EQ(std::memcmp(out.data(), expected.data(), sizeof(out)), 0);
    EXPECT_EQ(gatherBlockQuantizedFromC(device().c_str(), host, VKINDEX_INDEX_POLICY_ERROR, out.data(), message,
                                        sizeof(message)),
              VKINDEX_OUT_OF_RANGE);
    EXPECT_STREQ(message,
                 "GatherBlockQuantized: indices[2] = 5 is out of range for axis 0 of size 2 (allowed [-2, 1])");
  }
}

// An int4 cache of five elements 0..4 (bytes 0x10 0x32 0x04), the update A B written at each mode's
// positions, nibble by nibble; a bad write index changes nothing in place.
TEST_F(CApiTest, TensorScatterFromC) {
  for (int in_place : {0, 1}) {
    SCOPED_TRACE(in_place ? "in place" : "out of place");
    std::array<uint8_t, 3> bytes{};
    char message[512] = {};
    ASSERT_EQ(tensorScatterFromC(device().c_str(), 2, VKINDEX_TENSOR_SCATTER_LINEAR, VKINDEX_INDEX_POLICY_ERROR,
                                 in_place, bytes.data(), message, sizeof(message)),
              VKINDEX_OK)
        << message;
    EXPECT_EQ(bytes, (std::array<uint8_t, 3>{0x10, 0xBA, 0x04}));
    ASSERT_EQ(tensorScatterFromC(device().c_str(), 9, VKINDEX_TENSOR_SCATTER_CIRCULAR, VKINDEX_INDEX_POLICY_ERROR,
                                 in_place, bytes.data(), message, sizeof(message)),
              VKINDEX_OK)
        << message;
    EXPECT_EQ(bytes, (std::array<uint8_t, 3>{0x1B, 0x32, 0x0A}));
    ASSERT_EQ(tensorScatterFromC(device().c_str(), 4, VKINDEX_TENSOR_SCATTER_LINEAR, VKINDEX_INDEX_POLICY_SKIP,
                                 in_place, bytes.data(), message, sizeof(message)),
              VKINDEX_OK)
        << message;
    EXPECT_EQ(bytes, (std::array<uint8_t, 3>{0x10, 0x32, 0x04}));
    bytes.fill(0xEE);
    EXPECT_EQ(tensorScatterFromC(device().c_str(), 4, VKINDEX_TENSOR_SCATTER_LINEAR, VKINDEX_INDEX_POLICY_ERROR,
                                 in_place, bytes.data(), message, sizeof(message)),
              VKINDEX_OUT_OF_RANGE);
    EXPECT_STREQ(message,
                 "TensorScatter: write_indices[0] = 4 is out of range for seq_len 2 and max_seq 5 (axis 1) in linear "
                 "mode (allowed [0, 3]: the write index plus seq_len must not exceed max_seq)");
    if (in_place) {
      EXPECT_EQ(bytes, (std::array<uint8_t, 3>{0x10, 0x32, 0x04})) << "the cache was written despite the error";
    }
  }
  EXPECT_EQ(vkindexTensorScatter(nullptr, nullptr, nullptr, nullptr, -2, VKINDEX_TENSOR_SCATTER_LINEAR,
                                 VKINDEX_INDEX_POLICY_ERROR, nullptr),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexTensorScatter: 'context' is NULL");
  EXPECT_EQ(vkindexRecordTensorScatter(nullptr, VK_NULL_HANDLE, nullptr, nullptr, nullptr, -2,
                                       VKINDEX_TENSOR_SCATTER_LINEAR, VKINDEX_INDEX_POLICY_ERROR, nullptr, nullptr),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexRecordTensorScatter: 'context' is NULL");
}

TEST_F(CApiTest, NullArgumentsAndUnknownTypesAreInvalidArguments) {
  EXPECT_EQ(vkindexContextCreate(nullptr, 0, nullptr), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexContextCreate: 'context' is NULL");
  VkindexTensor tensor = nullptr;
  EXPECT_EQ(vkindexTensorCreate(nullptr, VKINDEX_FLOAT32, nullptr, 0, nullptr, 0, &tensor), VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexGather(nullptr, nullptr, nullptr, 0, &tensor), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGather: 'context' is NULL");
  EXPECT_EQ(vkindexGatherElements(nullptr, nullptr, nullptr, 0, &tensor), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGatherElements: 'context' is NULL");
  VkindexContext ctx = nullptr;
  ASSERT_EQ(vkindexContextCreate(device().c_str(), 1, &ctx), VKINDEX_OK) << vkindexLastErrorMessage();
  EXPECT_EQ(vkindexGatherND(ctx, nullptr, nullptr, 0, &tensor), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGatherND: 'data' is NULL");
  EXPECT_EQ(vkindexGatherElements(ctx, nullptr, nullptr, 0, nullptr), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexGatherElements: 'data' is NULL");
  EXPECT_EQ(vkindexTensorCreate(ctx, static_cast<VkindexDataType>(15), nullptr, 0, nullptr, 0, &tensor),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexTensorCreate: unknown data type 15");
  EXPECT_EQ(vkindexScatterElements(nullptr, nullptr, nullptr, nullptr, 0, VKINDEX_REDUCTION_NONE, &tensor),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexScatterElements: 'context' is NULL");
  EXPECT_EQ(vkindexScatterNDInPlace(ctx, nullptr, nullptr, nullptr, VKINDEX_REDUCTION_NONE), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexScatterNDInPlace: 'data' is NULL");
  // Unknown reductions and a missing output, with valid tensors.
  const float values[2] = {1.f, 2.f};
  const int64_t ids[1] = {1};
  const int64_t shape[1] = {2};
  const int64_t update_shape[1] = {1};
  const int64_t index_shape[2] = {1, 1};
  VkindexTensor data = nullptr, indices = nullptr, updates = nullptr;
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_FLOAT32, shape, 1, values, sizeof(values), &data), VKINDEX_OK);
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_INT64, index_shape, 2, ids, sizeof(ids), &indices), VKINDEX_OK);
  ASSERT_EQ(vkindexTensorCreate(ctx, VKINDEX_FLOAT32, update_shape, 1, values, sizeof(float), &updates), VKINDEX_OK);
  EXPECT_EQ(vkindexScatterND(ctx, data, indices, updates, VKINDEX_REDUCTION_NONE, nullptr), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexScatterND: 'output' is NULL");
  EXPECT_EQ(vkindexScatterElementsInPlace(ctx, data, indices, updates, 0, static_cast<VkindexReduction>(5)),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexScatterElementsInPlace: unknown reduction 5");
  EXPECT_EQ(vkindexScatterND(ctx, data, indices, updates, static_cast<VkindexReduction>(7), &tensor),
            VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexScatterND: unknown reduction 7");
  vkindexTensorDestroy(updates);
  vkindexTensorDestroy(indices);
  vkindexTensorDestroy(data);
  vkindexContextDestroy(ctx);
  EXPECT_EQ(vkindexContextCreate("no such device", 0, &ctx), VKINDEX_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vkindexLastErrorMessage()).find("no Vulkan device matches 'no such device'"),
            std::string::npos);
}

}  // namespace
}  // namespace vkindex::test
