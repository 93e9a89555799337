// The C API (include/vkindex/vkindex.h), driven from C code: results, status codes and messages.
#include <cstring>

#include "c_api/gather_from_c.h"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

class CApiTest : public GpuTest {
 protected:
  // The device the fixture's context runs on, so the C API uses the same driver.
  std::string device() const { return std::to_string(context().device().index); }
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

TEST_F(CApiTest, NullArgumentsAndUnknownTypesAreInvalidArguments) {
  EXPECT_EQ(vkindexContextCreate(nullptr, 0, nullptr), VKINDEX_INVALID_ARGUMENT);
  EXPECT_STREQ(vkindexLastErrorMessage(), "vkindexContextCreate: 'context' is NULL");
  VkindexTensor tensor = nullptr;
  EXPECT_EQ(vkindexTensorCreate(nullptr, VKINDEX_FLOAT32, nullptr, 0, nullptr, 0, &tensor), VKINDEX_INVALID_ARGUMENT);
  EXPECT_EQ(vkindexGather(nullptr, nullptr, nullptr, 0, &tensor), VKINDEX_INVALID_ARGUMENT);
  VkindexContext ctx = nullptr;
  ASSERT_EQ(vkindexContextCreate(device().c_str(), 1, &ctx), VKINDEX_OK) << vkindexLastErrorMessage();
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
