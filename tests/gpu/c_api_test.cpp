// The C API (include/vkindex/vkindex.h), driven from C code: results, status codes and messages.
#include <array>
#include <cstring>

#include "c_api/gather_from_c.h"
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
  vkindexContextDestroy(ctx);
  EXPECT_EQ(vkindexContextCreate("no such device", 0, &ctx), VKINDEX_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vkindexLastErrorMessage()).find("no Vulkan device matches 'no such device'"),
            std::string::npos);
}

}  // namespace
}  // namespace vkindex::test
