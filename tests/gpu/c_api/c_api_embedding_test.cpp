// The C API's embedding surface driven from C (c_api/embedding_from_c.c): a C application adopting its
// own Vulkan objects and recording Gather into its own command buffer (the fixture plays the rest of the
// application), the pipeline-cache folder option, and the version query.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "c_api/embedding_from_c.h"
#include "gpu/embedding/embedding_fixture.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/scoped_temp_dir.hpp"

namespace vkindex::test {
namespace {

namespace fs = std::filesystem;

class CApiEmbeddingTest : public EmbeddingTest {
 protected:
  VkindexExternalVulkan externalForC() const {
    const ExternalVulkan vulkan = external();
    VkindexExternalVulkan external_c{};
    external_c.api_version = vulkan.api_version;
    external_c.instance = vulkan.instance;
    external_c.physical_device = vulkan.physical_device;
    external_c.device = vulkan.device;
    external_c.queue = vulkan.queue;
    external_c.queue_family = vulkan.queue_family;
    return external_c;
  }

  static PlacedInC inC(const Shape& shape, VkDeviceSize offset) {
    PlacedInC placed{};
    for (size_t d = 0; d < shape.size(); ++d) placed.shape[d] = shape[d];
    placed.rank = shape.size();
    placed.offset = offset;
    return placed;
  }

  // Records Gather (axis 0) of `indices` into one command buffer from C (`batched`: in a status batch),
  // submits it between the contract's barriers, and returns what finishing it from C says.
  int gatherRecordedFromC(const Placed& data, const Placed& indices, const Shape& output_shape,
                          VkDeviceSize output_offset, char* message, size_t message_size, bool batched = false) {
    const VkindexExternalVulkan external_c = externalForC();
    const PlacedInC data_c = inC(data.host.shape, data.offset);
    const PlacedInC indices_c = inC(indices.host.shape, indices.offset);
    const PlacedInC output_c = inC(output_shape, output_offset);
    VkCommandBuffer cmd = newCommandBuffer();
    begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    barrierBeforeOps(cmd);
    RecordingInC recording{};
    const int recorded = recordGatherFromC(&external_c, cmd, buffer_, image_.size(), &data_c, &indices_c, &output_c,
                                           batched ? 1 : 0, &recording, message, message_size);
    barrierAfterOps(cmd);
    end(cmd);
    if (recorded != VKINDEX_OK) return recorded;
    submitAndWait(cmd);
    return finishFromC(&recording, message, message_size);
  }
};

TEST_F(CApiEmbeddingTest, GatherRecordedFromCIntoTheApplicationsCommandBuffer) {
  Rng rng(57);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {6, 3}));
  const Placed indices = place(indexTensor(DataType::kInt64, {2, 2}, {5, -6, 0, 3}));
  const VkDeviceSize output_offset = reserve(2 * 2 * 3 * 4);
  char message[256] = {};
  ASSERT_EQ(gatherRecordedFromC(data, indices, {2, 2, 3}, output_offset, message, sizeof(message)), VKINDEX_OK)
      << message;
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, indices, 0, output_offset));
  EXPECT_TRUE(bufferMatchesImage());
}

TEST_F(CApiEmbeddingTest, BadIndexRecordedFromCIsReportedAtFinishAndWritesNothing) {
  Rng rng(58);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {4, 2}));
  const Placed indices = place(indexTensor(DataType::kInt64, {3}, {1, 4, 0}));
  const VkDeviceSize output_offset = reserve(3 * 2 * 4);
  char message[256] = {};
  EXPECT_EQ(gatherRecordedFromC(data, indices, {3, 2}, output_offset, message, sizeof(message)), VKINDEX_OUT_OF_RANGE);
  EXPECT_STREQ(message, "Gather: indices[1] = 4 is out of range for axis 0 of size 4 (allowed [-4, 3])");
  EXPECT_TRUE(bufferMatchesImage()) << "the output must still hold the canary";
}

// The same two in a status batch: the batch's one barrier makes the status visible.
TEST_F(CApiEmbeddingTest, GatherRecordedFromCInAStatusBatch) {
  Rng rng(59);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {6, 3}));
  const Placed good = place(indexTensor(DataType::kInt64, {1}, {-2}));
  const Placed bad = place(indexTensor(DataType::kInt64, {1}, {-7}));
  const VkDeviceSize good_offset = reserve(3 * 4), bad_offset = reserve(3 * 4);
  char message[256] = {};
  ASSERT_EQ(gatherRecordedFromC(data, good, {1, 3}, good_offset, message, sizeof(message), true), VKINDEX_OK)
      << message;
  ASSERT_NO_FATAL_FAILURE(expectOutput(data, good, 0, good_offset));
  EXPECT_EQ(gatherRecordedFromC(data, bad, {1, 3}, bad_offset, message, sizeof(message), true), VKINDEX_OUT_OF_RANGE);
  EXPECT_STREQ(message, "Gather: indices[0] = -7 is out of range for axis 0 of size 6 (allowed [-6, 5])");
  EXPECT_TRUE(bufferMatchesImage()) << "the bad gather's output must still hold the canary";
}

class CApiContextTest : public GpuTest {
 protected:
  std::string device() const { return std::to_string(context().device().index); }
};

// Android has no HOME: the application names the folder, and the cache file lands there.
TEST_F(CApiContextTest, PipelineCacheFolderFromC) {
  const ScopedTempDir temp_dir("vkindex_c_cache_");
  const std::string folder = temp_dir.path().string();
  ASSERT_FALSE(folder.empty());
  char message[256] = {};
  ASSERT_EQ(gatherWithCacheFolderFromC(device().c_str(), folder.c_str(), message, sizeof(message)), VKINDEX_OK)
      << message;
  size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    EXPECT_TRUE(entry.is_regular_file()) << entry.path();
    EXPECT_GT(entry.file_size(), 0u) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 1u) << "one cache file in " << folder;
}

TEST_F(CApiContextTest, OptionsWithAShortStructSizeAreRefused) {
  char message[256] = {};
  EXPECT_EQ(createWithShortOptionsFromC(device().c_str(), message, sizeof(message)), VKINDEX_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(message, "vkindexContextCreateWithOptions: options->struct_size is "), nullptr) << message;
}

TEST_F(CApiContextTest, VersionFromCMatchesTheHeaders) { EXPECT_EQ(versionMatchesFromC(), 1); }

}  // namespace
}  // namespace vkindex::test
