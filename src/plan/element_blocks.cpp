#include "plan/element_blocks.hpp"

#include <algorithm>
#include <cstddef>

#include "common/gather_elements_params.h"

namespace vkindex::plan {

StatusOr<ElementBlocks> elementBlocks(const std::string& op, const std::vector<ElementDim>& dims, uint32_t axis_dim,
                                      uint64_t axis_size, uint64_t index_elements, uint64_t data_elements,
                                      size_t min_peel) {
  ElementBlocks blocks;
  const size_t dim_count = dims.size();
  if (dim_count <= VKINDEX_MAX_ELEMENT_DIMS && min_peel == 0) {
    blocks.kernel_dims = dims;
    blocks.kernel_axis_dim = axis_dim;
    blocks.elements = index_elements;
    blocks.reach = data_elements;  // one block: every data element, as without peeling
    return blocks;
  }
  const size_t needed = dim_count > VKINDEX_MAX_ELEMENT_DIMS ? dim_count - VKINDEX_MAX_ELEMENT_DIMS : 0;
  size_t peel = std::min(dim_count, std::max(min_peel, needed));
  // A peeled axis stays in the kernel as an extent-1 dim: room for it.
  if (axis_dim < peel && dim_count - peel + 1 > VKINDEX_MAX_ELEMENT_DIMS) ++peel;
  blocks.peeled.assign(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(peel));
  if (axis_dim < peel) {
    blocks.peeled_axis = axis_dim;
    blocks.kernel_dims.push_back({1, dims[axis_dim].data_extent, dims[axis_dim].data_stride});
  } else {
    blocks.kernel_axis_dim = static_cast<uint32_t>(axis_dim - peel);
  }
  blocks.kernel_dims.insert(blocks.kernel_dims.end(), dims.begin() + static_cast<std::ptrdiff_t>(peel), dims.end());
  for (const ElementDim& dim : blocks.peeled) blocks.count *= dim.extent;
  if (blocks.count > kMaxPeeledBlocks) {
    return unsupported(op + ": the tensors coalesce to " + std::to_string(dim_count) + " dims, whose " +
                       std::to_string(peel) + " outermost run one pass per coordinate (" +
                       std::to_string(blocks.count) + "); vkindex runs at most " + std::to_string(kMaxPeeledBlocks));
  }
  blocks.elements = blocks.count == 0 ? 0 : index_elements / blocks.count;
  blocks.reach = 1;
  for (size_t j = 0; j < blocks.kernel_dims.size(); ++j) {
    const ElementDim& dim = blocks.kernel_dims[j];
    const uint64_t last = j == blocks.kernel_axis_dim ? axis_size : dim.extent;
    blocks.reach += (last - 1) * dim.data_stride;
  }
  return blocks;
}

uint64_t blockBase(const ElementBlocks& blocks, uint64_t block) {
  uint64_t base = 0;
  for (size_t j = blocks.peeled.size(); j-- > 0;) {
    const uint64_t coordinate = block % blocks.peeled[j].extent;
    block /= blocks.peeled[j].extent;
    if (j != blocks.peeled_axis) base += coordinate * blocks.peeled[j].data_stride;
  }
  return base;
}

}  // namespace vkindex::plan
