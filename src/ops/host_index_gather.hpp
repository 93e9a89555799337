// Gather and GatherND with index values in host memory (vkindex/ops.hpp, HostIndices): checked on the
// host, then copied as vkCmdCopyBuffer regions or, for small regions, by the row gather kernel on
// values recorded into the command buffer (src/plan/host_index_copy chooses). Tests and the bench
// force either path through these entry points; the public forms take the planner's choice.
#pragma once

#include <optional>
#include <vector>

#include "plan/host_index_copy.hpp"
#include "vkindex/ops.hpp"

namespace vkindex::internal {

// nullopt: the planner's choice.
using ForcedPath = std::optional<plan::HostIndexPath>;

// The same with ONNX's rule (IndexPolicy::kError), as plain functions for the tests' function pointers.
Status gatherWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                             Tensor& output, ForcedPath path);
Status gatherNDWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                               Tensor& output, ForcedPath path);
StatusOr<RecordedOp> recordGatherWithHostIndices(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                 const HostIndices& indices, int64_t axis, Tensor& output,
                                                 ForcedPath path);
// With an index policy.
Status gatherWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                             Tensor& output, ForcedPath path, IndexPolicy policy);
Status gatherNDWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                               Tensor& output, ForcedPath path, IndexPolicy policy);
StatusOr<RecordedOp> recordGatherWithHostIndices(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                 const HostIndices& indices, int64_t axis, Tensor& output,
                                                 ForcedPath path, IndexPolicy policy);

// The copy regions a host-index Gather (`nd` false, `attribute` its axis) or GatherND (`nd` true,
// `attribute` its batch_dims) of `data` records on the copy path, whichever path the planner takes,
// with offsets from data's and the output's first bytes. Empty where the rows are too many for the
// copy path (plan::kMaxCopyRows). The bench times the host's own memcpy of them.
StatusOr<std::vector<plan::CopyRegion>> hostIndexCopyRegions(const Tensor& data, const HostIndices& indices,
                                                             int64_t attribute, bool nd);

}  // namespace vkindex::internal
