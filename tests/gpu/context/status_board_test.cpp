// The status board (src/kernels/status_board): each operation's slot is bound on its own, so the
// ranges of independent operations never overlap, whatever the device's binding alignment.
#include <algorithm>
#include <vector>

#include "core/context_impl.hpp"
#include "plan/windows.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

class StatusBoardTest : public GpuTest {};

// A binding aligned down to a neighbour's slot put that slot inside this operation's bound range, which
// its 16-byte reset and barriers do not cover: synchronization validation reported hazards between two
// operations recorded into one command buffer on SwiftShader (alignment 256), where lavapipe (16) and
// so the sync registrations were silent.
TEST_F(StatusBoardTest, EachSlotIsBoundOnItsOwn) {
  kernels::StatusBoard& board = *implOf(context()).status;
  const uint64_t alignment = plan::bindingAlignment(context().device());
  std::vector<uint32_t> slots;
  for (int i = 0; i < 40; ++i) {
    VKINDEX_ASSERT_OK_AND_ASSIGN(uint32_t slot, board.acquire());
    slots.push_back(slot);
  }
  std::vector<std::pair<VkDeviceSize, VkDeviceSize>> bound;
  for (uint32_t slot : slots) {
    const kernels::BufferRange range = board.slotRange(slot);
    SCOPED_TRACE(slot);
    EXPECT_EQ(range.offset % alignment, 0u) << "bindable where it starts";
    EXPECT_EQ(range.size, kernels::StatusBoard::kSlotBytes);
    bound.emplace_back(range.offset, range.offset + alignment);  // what a binding aligned down could reach
  }
  std::sort(bound.begin(), bound.end());
  for (size_t i = 1; i < bound.size(); ++i) EXPECT_LE(bound[i - 1].second, bound[i].first) << "slots share a block";
  for (uint32_t slot : slots) board.release(slot);
}

}  // namespace
}  // namespace vkindex::test
