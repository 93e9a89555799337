// The C API's operators (include/vkindex/vkindex.h) that submit and wait: each checks its handles, runs
// the C++ operator and wraps the new output.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "capi/c_api_support.hpp"

using vkindex::capi::fail;
using vkindex::capi::nullArgument;
using vkindex::capi::toIndexPolicy;
using vkindex::capi::toReduction;
using vkindex::capi::wrap;

namespace {

// The C++ form every C gather wraps: (data, indices, one integer attribute, policy) -> a new tensor.
using GatherOp = vkindex::StatusOr<vkindex::Tensor> (*)(vkindex::Context&, const vkindex::Tensor&,
                                                        const vkindex::Tensor&, int64_t, vkindex::IndexPolicy);

// Checks the handles and the policy `function` received, runs `op` and wraps its result in `*output`.
VkindexStatus runGatherOp(const char* function, GatherOp op, VkindexContext context, VkindexTensor data,
                          VkindexTensor indices, int64_t attribute, VkindexIndexPolicy policy, VkindexTensor* output) {
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (output == nullptr) return nullArgument(function, "output");
  vkindex::StatusOr<vkindex::IndexPolicy> converted = toIndexPolicy(function, policy);
  if (!converted.ok()) return fail(converted.status());
  vkindex::StatusOr<vkindex::Tensor> result =
      op(*context->context, data->tensor, indices->tensor, attribute, converted.value());
  if (!result.ok()) return fail(result.status());
  *output = wrap(std::move(result).value());
  return VKINDEX_OK;
}

// Checks the handles, the reduction and the policy `function` received, then runs `op`: (context, data,
// indices, updates, reduction, policy) -> a new tensor, wrapped in `*output` (which must then be
// non-NULL), or a Status for the in-place forms (which pass `output` NULL).
template <typename Op>
VkindexStatus runScatterOp(const char* function, VkindexContext context, VkindexTensor data, VkindexTensor indices,
                           VkindexTensor updates, VkindexReduction reduction, VkindexIndexPolicy policy,
                           VkindexTensor* output, Op op) {
  using Result = decltype(op(std::declval<vkindex::Context&>(), std::declval<vkindex::Tensor&>(),
                             std::declval<const vkindex::Tensor&>(), std::declval<const vkindex::Tensor&>(),
                             vkindex::Reduction::kNone, vkindex::IndexPolicy::kError));
  constexpr bool kInPlace = std::is_same_v<Result, vkindex::Status>;
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (updates == nullptr) return nullArgument(function, "updates");
  if (!kInPlace && output == nullptr) return nullArgument(function, "output");
  std::optional<vkindex::Reduction> converted = toReduction(reduction);
  if (!converted) {
    return fail(vkindex::invalidArgument(std::string(function) + ": unknown reduction " + std::to_string(reduction)));
  }
  vkindex::StatusOr<vkindex::IndexPolicy> rule = toIndexPolicy(function, policy);
  if (!rule.ok()) return fail(rule.status());
  Result result = op(*context->context, data->tensor, indices->tensor, updates->tensor, *converted, rule.value());
  if constexpr (kInPlace) {
    return result.ok() ? VKINDEX_OK : fail(result);
  } else {
    if (!result.ok()) return fail(result.status());
    *output = wrap(std::move(result).value());
    return VKINDEX_OK;
  }
}

}  // namespace

extern "C" {

VkindexStatus vkindexGather(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                            VkindexTensor* output) {
  return runGatherOp("vkindexGather", vkindex::gather, context, data, indices, axis, VKINDEX_INDEX_POLICY_ERROR,
                     output);
}

VkindexStatus vkindexGatherElements(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                                    VkindexTensor* output) {
  return runGatherOp("vkindexGatherElements", vkindex::gatherElements, context, data, indices, axis,
                     VKINDEX_INDEX_POLICY_ERROR, output);
}

VkindexStatus vkindexGatherND(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t batch_dims,
                              VkindexTensor* output) {
  return runGatherOp("vkindexGatherND", vkindex::gatherND, context, data, indices, batch_dims,
                     VKINDEX_INDEX_POLICY_ERROR, output);
}

VkindexStatus vkindexGatherWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                                      VkindexIndexPolicy policy, VkindexTensor* output) {
  return runGatherOp("vkindexGatherWithPolicy", vkindex::gather, context, data, indices, axis, policy, output);
}

VkindexStatus vkindexGatherElementsWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                              int64_t axis, VkindexIndexPolicy policy, VkindexTensor* output) {
  return runGatherOp("vkindexGatherElementsWithPolicy", vkindex::gatherElements, context, data, indices, axis, policy,
                     output);
}

VkindexStatus vkindexGatherNDWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                        int64_t batch_dims, VkindexIndexPolicy policy, VkindexTensor* output) {
  return runGatherOp("vkindexGatherNDWithPolicy", vkindex::gatherND, context, data, indices, batch_dims, policy,
                     output);
}

VkindexStatus vkindexScatterElements(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                     VkindexTensor updates, int64_t axis, VkindexReduction reduction,
                                     VkindexTensor* output) {
  return runScatterOp("vkindexScatterElements", context, data, indices, updates, reduction, VKINDEX_INDEX_POLICY_ERROR,
                      output,
                      [axis](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                             const vkindex::Tensor& ups, vkindex::Reduction how, vkindex::IndexPolicy rule) {
                        return vkindex::scatterElements(ctx, in, ids, ups, axis, how, rule);
                      });
}

VkindexStatus vkindexScatterElementsInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                            VkindexTensor updates, int64_t axis, VkindexReduction reduction) {
  return runScatterOp("vkindexScatterElementsInPlace", context, data, indices, updates, reduction,
                      VKINDEX_INDEX_POLICY_ERROR, nullptr,
                      [axis](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                             const vkindex::Tensor& ups, vkindex::Reduction how, vkindex::IndexPolicy rule) {
                        return vkindex::scatterElementsInPlace(ctx, in, ids, ups, axis, how, rule);
                      });
}

VkindexStatus vkindexScatterND(VkindexContext context, VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                               VkindexReduction reduction, VkindexTensor* output) {
  return runScatterOp("vkindexScatterND", context, data, indices, updates, reduction, VKINDEX_INDEX_POLICY_ERROR,
                      output,
                      [](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                         const vkindex::Tensor& ups, vkindex::Reduction how,
                         vkindex::IndexPolicy rule) { return vkindex::scatterND(ctx, in, ids, ups, how, rule); });
}

VkindexStatus vkindexScatterNDInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                      VkindexTensor updates, VkindexReduction reduction) {
  return runScatterOp("vkindexScatterNDInPlace", context, data, indices, updates, reduction, VKINDEX_INDEX_POLICY_ERROR,
                      nullptr,
                      [](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                         const vkindex::Tensor& ups, vkindex::Reduction how, vkindex::IndexPolicy rule) {
                        return vkindex::scatterNDInPlace(ctx, in, ids, ups, how, rule);
                      });
}

VkindexStatus vkindexScatterElementsWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                               VkindexTensor updates, int64_t axis, VkindexReduction reduction,
                                               VkindexIndexPolicy policy, VkindexTensor* output) {
  return runScatterOp("vkindexScatterElementsWithPolicy", context, data, indices, updates, reduction, policy, output,
                      [axis](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                             const vkindex::Tensor& ups, vkindex::Reduction how, vkindex::IndexPolicy rule) {
                        return vkindex::scatterElements(ctx, in, ids, ups, axis, how, rule);
                      });
}

VkindexStatus vkindexScatterElementsInPlaceWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                      VkindexTensor updates, int64_t axis, VkindexReduction reduction,
                                                      VkindexIndexPolicy policy) {
  return runScatterOp("vkindexScatterElementsInPlaceWithPolicy", context, data, indices, updates, reduction, policy,
                      nullptr,
                      [axis](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                             const vkindex::Tensor& ups, vkindex::Reduction how, vkindex::IndexPolicy rule) {
                        return vkindex::scatterElementsInPlace(ctx, in, ids, ups, axis, how, rule);
                      });
}

VkindexStatus vkindexScatterNDWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                         VkindexTensor updates, VkindexReduction reduction, VkindexIndexPolicy policy,
                                         VkindexTensor* output) {
  return runScatterOp("vkindexScatterNDWithPolicy", context, data, indices, updates, reduction, policy, output,
                      [](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                         const vkindex::Tensor& ups, vkindex::Reduction how,
                         vkindex::IndexPolicy rule) { return vkindex::scatterND(ctx, in, ids, ups, how, rule); });
}

VkindexStatus vkindexScatterNDInPlaceWithPolicy(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                                VkindexTensor updates, VkindexReduction reduction,
                                                VkindexIndexPolicy policy) {
  return runScatterOp("vkindexScatterNDInPlaceWithPolicy", context, data, indices, updates, reduction, policy, nullptr,
                      [](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids,
                         const vkindex::Tensor& ups, vkindex::Reduction how, vkindex::IndexPolicy rule) {
                        return vkindex::scatterNDInPlace(ctx, in, ids, ups, how, rule);
                      });
}

}  // extern "C"
