// The C API's shared pieces (c_api_support.hpp).
#include "capi/c_api_support.hpp"

#include <utility>

namespace vkindex::capi {
namespace {

thread_local std::string last_error;

}  // namespace

static_assert(static_cast<int>(StatusCode::kInternal) == VKINDEX_INTERNAL, "status codes drifted");
static_assert(static_cast<int>(StatusCode::kResourceExhausted) == VKINDEX_RESOURCE_EXHAUSTED, "status codes drifted");
static_assert(static_cast<int>(DataType::kComplex128) == VKINDEX_COMPLEX128, "data types drifted");
static_assert(static_cast<int>(DataType::kFloat8E4M3FN) == VKINDEX_FLOAT8E4M3FN, "data types drifted");
static_assert(static_cast<int>(DataType::kFloat4E2M1) == VKINDEX_FLOAT4E2M1, "data types drifted");
static_assert(static_cast<int>(Reduction::kMin) == VKINDEX_REDUCTION_MIN, "reductions drifted");

VkindexStatus fail(const Status& status) {
  last_error = status.message();
  return static_cast<VkindexStatus>(status.code());
}

VkindexStatus nullArgument(const char* function, const char* argument) {
  return fail(invalidArgument(std::string(function) + ": '" + argument + "' is NULL"));
}

const char* lastErrorMessage() { return last_error.c_str(); }

VkindexTensor wrap(Tensor tensor) { return new VkindexTensor_T{std::move(tensor)}; }

std::optional<DataType> toDataType(VkindexDataType type) {
  const bool classic = type >= VKINDEX_BOOL && type <= VKINDEX_COMPLEX128;
  if (!classic && (type < VKINDEX_FLOAT8E4M3FN || type > VKINDEX_FLOAT4E2M1)) return std::nullopt;
  return static_cast<DataType>(type);
}

std::optional<Reduction> toReduction(VkindexReduction reduction) {
  if (reduction < VKINDEX_REDUCTION_NONE || reduction > VKINDEX_REDUCTION_MIN) return std::nullopt;
  return static_cast<Reduction>(reduction);
}

StatusOr<IndexPolicy> toIndexPolicy(const char* function, VkindexIndexPolicy policy) {
  if (policy == VKINDEX_INDEX_POLICY_ERROR) return IndexPolicy::kError;
  if (policy == VKINDEX_INDEX_POLICY_SKIP) return IndexPolicy::kSkip;
  return invalidArgument(std::string(function) + ": unknown index policy " + std::to_string(policy) +
                         " (allowed VKINDEX_INDEX_POLICY_ERROR, VKINDEX_INDEX_POLICY_SKIP)");
}

StatusOr<HostIndices> toHostIndices(const char* function, const VkindexHostIndices& indices) {
  std::optional<vkindex::DataType> type = toDataType(indices.type);
  if (!type) {
    return invalidArgument(std::string(function) + ": unknown index type " + std::to_string(indices.type));
  }
  if (indices.rank > 0 && indices.shape == nullptr) {
    return invalidArgument(std::string(function) + ": 'indices->shape' is NULL for rank " +
                           std::to_string(indices.rank));
  }
  Shape shape;
  if (indices.rank > 0) shape.assign(indices.shape, indices.shape + indices.rank);
  return HostIndices{*type, std::move(shape), indices.values};
}

}  // namespace vkindex::capi
