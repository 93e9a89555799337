// Shows that the GPU-assisted validation runs can fail: a shader read past the end of a buffer is
// planted on purpose (the library's copy kernel told to move more than its source holds), and the
// layer must report it. Without this, silence in the bad-index runs would prove nothing.
//
// What GPU-AV checks here: the Khronos layer of this era (1.3.239) bounds storage-buffer accesses by
// the whole VkBuffer's size, not by the bound range. vkindex tensors own buffers of their own size
// (rounded up to 16 bytes), so in the bad-index runs that is a per-tensor bound.
#include <cstdlib>

#include "core/context_impl.hpp"
#include "kernels/recorder.hpp"
#include "support/gpu_test.hpp"
#include "vk/buffer.hpp"

namespace vkindex::test {
namespace {

class GpuAssistedProbeTest : public GpuTest {};

TEST_F(GpuAssistedProbeTest, PlantedOverrunIsReported) {
  const char* enabled = std::getenv("VKINDEX_GPU_ASSISTED_VALIDATION");
  if (enabled == nullptr || std::string(enabled) != "1") {
    GTEST_SKIP() << "needs GPU-assisted validation; ctest runs it in the *.gpu_assisted.* registration";
  }
  Context::Impl& impl = implOf(context());
  const vk::Device& device = *impl.device;
  // A 256-byte source read as 32 uvec4s (512 bytes) into a 4 KiB target: only reads overrun, so
  // nothing outside the buffers is written even if the instrumentation let the access through.
  const VkDeviceSize binding = 256;
  VKINDEX_ASSERT_OK_AND_ASSIGN(vk::Buffer source,
                               vk::Buffer::create(device, binding, vk::Buffer::Kind::kDevice, "probe source"));
  VKINDEX_ASSERT_OK_AND_ASSIGN(vk::Buffer target,
                               vk::Buffer::create(device, 4096, vk::Buffer::Kind::kDevice, "probe target"));
  VKINDEX_ASSERT_OK_AND_ASSIGN(kernels::DescriptorPool pool, kernels::DescriptorPool::create(device, 1, 2));
  VKINDEX_ASSERT_OK_AND_ASSIGN(VkCommandBuffer cmd, impl.submitter->begin());
  kernels::Recorder recorder(device, *impl.pipelines, pool, cmd);
  const uint32_t quad_count = 32;
  const kernels::SpecValues spec{impl.tuning.values.workgroup_size, 0, 0, /*items=*/1, /*lanes=*/1};
  VKINDEX_ASSERT_OK(recorder.dispatch(kernels::ShaderId::kCopy, spec,
                                      {{source.handle(), 0, binding}, {target.handle(), 0, 4096}}, &quad_count,
                                      sizeof(quad_count), 1, 1));
  VKINDEX_ASSERT_OK(impl.submitter->submitAndWait());
  EXPECT_GT(newValidationMessages(), 0u) << "GPU-assisted validation did not report a read past the end of a buffer";
  acceptValidationMessages();
}

}  // namespace
}  // namespace vkindex::test
