// The status board (src/kernels/status_board): each operation's slot is bound on its own, so the
// ranges of independent operations never overlap, whatever the device's binding alignment.
#include <algorithm>
#include <vector>

#include "core/context_impl.hpp"
#include "ops/op_state.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

class StatusBoardTest : public GpuTest {};

// A binding aligned down to a neighbour's slot put that slot inside this operation's bound range, which
// its 16-byte reset and barriers do not cover: synchronization validation reported hazards between two
// operations recorded into one command buffer on SwiftShader (alignment 256), where lavapipe (16) and
// so the sync registrations were silent.
TEST_F(StatusBoardTest, EachSlotIsBoundOnItsOwn) {
  const Context::Impl& impl = implOf(context());
  const uint64_t alignment = std::max<uint64_t>(16, context().device().min_storage_buffer_offset_alignment);
  std::vector<uint32_t> slots;
  for (int i = 0; i < 40; ++i) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(uint32_t slot, impl.status->acquire());
    slots.push_back(slot);
  }
  std::vector<std::pair<VkDeviceSize, VkDeviceSize>> bound;
  for (uint32_t slot : slots) {
    const StatusBinding status = statusBinding(impl, slot);
    SCOPED_TRACE(slot);
    EXPECT_EQ(status.binding.offset % alignment, 0u);
    EXPECT_EQ(status.binding.offset, status.slot.offset) << "the binding starts at the slot";
    EXPECT_EQ(status.binding.size, status.slot.size) << "and ends with it";
    EXPECT_EQ(status.relative_slot, 0u);
    bound.emplace_back(status.binding.offset, status.binding.offset + status.binding.size);
  }
  std::sort(bound.begin(), bound.end());
  for (size_t i = 1; i < bound.size(); ++i) EXPECT_LE(bound[i - 1].second, bound[i].first) << "ranges overlap";
  for (uint32_t slot : slots) impl.status->release(slot);
}

}  // namespace
}  // namespace vkindex::test
