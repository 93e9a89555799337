// The element operators (GatherElements, ScatterElements) beyond VKINDEX_MAX_ELEMENT_DIMS coalesced
// dims: the push block's extents and strides fill the 128 bytes every device offers, so the planner
// peels the outermost dims. The kernels run once per coordinate tuple of them, a block of contiguous
// indices (= output for GatherElements, updates for ScatterElements) elements, over the innermost dims
// alone, and the planner adds the peeled coordinates' data offset. A peeled axis stays in the kernel
// as a dim of extent 1 (the index supplies its data coordinate), so any axis works.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/gather_elements_plan.hpp"

namespace vkindex::plan {

// Each block is a pass or more, so blocks are bounded: more get kUnsupported.
inline constexpr uint64_t kMaxPeeledBlocks = 4096;

// The kernel's view of each block: the whole tensor as one block where the dims fit the push block.
struct ElementBlocks {
  std::vector<ElementDim> kernel_dims;  // at most VKINDEX_MAX_ELEMENT_DIMS
  uint32_t kernel_axis_dim = 0;
  std::vector<ElementDim> peeled;  // outermost dims, row-major: one block per coordinate tuple
  size_t peeled_axis = SIZE_MAX;   // the axis' place in `peeled`, if it is there
  uint64_t count = 1;              // blocks
  uint64_t elements = 0;           // index elements per block
  uint64_t reach = 0;              // data elements a block's targets span from its base
};

// The blocks of coalesced `dims` (coalesceElementDims) with the axis at `axis_dim`, `axis_size` =
// data.shape[axis], over `index_elements` indices and `data_elements` data elements, peeling at least
// `min_peel` dims (smaller blocks; at most all of them). `op` names the operator in the kUnsupported
// message for more than kMaxPeeledBlocks blocks.
StatusOr<ElementBlocks> elementBlocks(const std::string& op, const std::vector<ElementDim>& dims, uint32_t axis_dim,
                                      uint64_t axis_size, uint64_t index_elements, uint64_t data_elements,
                                      size_t min_peel = 0);

// The data element block `block`'s targets count from: its peeled coordinates (the axis' excepted)
// times their strides.
uint64_t blockBase(const ElementBlocks& blocks, uint64_t block);

}  // namespace vkindex::plan
