// Temporary: declarations land before the implementations (replaced by gather_elements.cpp and
// gather_nd.cpp on the shared operator pipeline).
#include "vkindex/ops.hpp"

namespace vkindex {
namespace {
Status notYet(const char* op) { return unsupported(std::string(op) + " is not implemented yet in vkindex"); }
}  // namespace

StatusOr<Tensor> gatherElements(Context&, const Tensor&, const Tensor&, int64_t) { return notYet("GatherElements"); }
Status gatherElements(Context&, const Tensor&, const Tensor&, int64_t, Tensor&) { return notYet("GatherElements"); }
StatusOr<RecordedOp> recordGatherElements(Context&, VkCommandBuffer, const Tensor&, const Tensor&, int64_t, Tensor&) {
  return notYet("GatherElements");
}
StatusOr<Tensor> gatherND(Context&, const Tensor&, const Tensor&, int64_t) { return notYet("GatherND"); }
Status gatherND(Context&, const Tensor&, const Tensor&, int64_t, Tensor&) { return notYet("GatherND"); }
StatusOr<RecordedOp> recordGatherND(Context&, VkCommandBuffer, const Tensor&, const Tensor&, int64_t, Tensor&) {
  return notYet("GatherND");
}

}  // namespace vkindex
