// Shows that the "+sync" runs can fail: a read-after-write hazard is planted on purpose (one copy
// dispatch reads what the previous one wrote, with no barrier between them), and synchronization
// validation must report it. Without this, silence in the sync runs would prove nothing: the mode is
// switched on through the layer's environment variable (VK_LAYER_ENABLES), which a misspelt value
// turns into a silent no-op.
//
// Read after write, not write after write: the layer of this era (1.3.239) did not report two
// dispatches writing the same range of a writeonly binding without a barrier (tried on lavapipe).
#include "core/context_impl.hpp"
#include "kernels/recorder.hpp"
#include "support/gpu_test.hpp"
#include "vk/buffer.hpp"

namespace vkindex::test {
namespace {

class SyncValidationProbeTest : public GpuTest {};

TEST_F(SyncValidationProbeTest, PlantedReadAfterWriteIsReported) {
  if (!syncValidationRequested()) {
    GTEST_SKIP() << "needs synchronization validation; ctest runs it in the sync.* registration";
  }
  Context::Impl& impl = implOf(context());
  const vk::Device& device = *impl.device;
  // first -> middle -> last, 256 bytes each, all in bounds: only the missing barrier is wrong.
  const VkDeviceSize bytes = 256;
  VKINDEX_ASSERT_OK_AND_ASSIGN(vk::Buffer first,
                               vk::Buffer::create(device, bytes, vk::Buffer::Kind::kDevice, "probe buffer"));
  VKINDEX_ASSERT_OK_AND_ASSIGN(vk::Buffer middle,
                               vk::Buffer::create(device, bytes, vk::Buffer::Kind::kDevice, "probe buffer"));
  VKINDEX_ASSERT_OK_AND_ASSIGN(vk::Buffer last,
                               vk::Buffer::create(device, bytes, vk::Buffer::Kind::kDevice, "probe buffer"));
  VKINDEX_ASSERT_OK_AND_ASSIGN(kernels::DescriptorPool pool, kernels::DescriptorPool::create(device, 2, 4));
  VKINDEX_ASSERT_OK_AND_ASSIGN(VkCommandBuffer cmd, impl.submitter->begin());
  kernels::Recorder recorder(device, *impl.pipelines, pool, cmd);
  const uint32_t quad_count = static_cast<uint32_t>(bytes / 16);
  const kernels::SpecValues spec{impl.tuning.values.workgroup_size, 0, 0, 1};
  VKINDEX_ASSERT_OK(recorder.dispatch(kernels::ShaderId::kCopy, spec,
                                      {{first.handle(), 0, bytes}, {middle.handle(), 0, bytes}}, &quad_count,
                                      sizeof(quad_count), 1, 1));
  VKINDEX_ASSERT_OK(recorder.dispatch(kernels::ShaderId::kCopy, spec,
                                      {{middle.handle(), 0, bytes}, {last.handle(), 0, bytes}}, &quad_count,
                                      sizeof(quad_count), 1, 1));
  VKINDEX_ASSERT_OK(impl.submitter->submitAndWait());
  EXPECT_GT(newValidationMessages(), 0u) << "synchronization validation did not report a read after write";
  EXPECT_NE(context().firstValidationMessage().find("SYNC-HAZARD-READ-AFTER-WRITE"), std::string::npos)
      << context().firstValidationMessage();
  acceptValidationMessages();
}

}  // namespace
}  // namespace vkindex::test
