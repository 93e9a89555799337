// What the C API's files share: the handles' definitions and how errors become a status code plus the
// calling thread's message.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "vkindex/vkindex.h"
#include "vkindex/vkindex.hpp"

struct VkindexContext_T {
  std::unique_ptr<vkindex::Context> context;
};

struct VkindexTensor_T {
  vkindex::Tensor tensor;
};

struct VkindexRecordedOp_T {
  vkindex::RecordedOp op;
};

struct VkindexStatusBatch_T {
  vkindex::StatusBatch batch;
};

namespace vkindex::capi {

// Stores `status`'s message as the calling thread's last error and returns its code.
VkindexStatus fail(const Status& status);
// "function: 'argument' is NULL", an invalid argument.
VkindexStatus nullArgument(const char* function, const char* argument);
// The calling thread's last error message ("" if none).
const char* lastErrorMessage();

VkindexTensor wrap(Tensor tensor);

// The C enums mirror vkindex::DataType (without strings) and vkindex::Reduction; anything else gives
// nullopt.
std::optional<DataType> toDataType(VkindexDataType type);
std::optional<Reduction> toReduction(VkindexReduction reduction);
// VkindexIndexPolicy as vkindex::IndexPolicy, or kInvalidArgument naming `function` for another value.
StatusOr<IndexPolicy> toIndexPolicy(const char* function, VkindexIndexPolicy policy);
// `indices` as vkindex::HostIndices, or kInvalidArgument naming `function`.
StatusOr<HostIndices> toHostIndices(const char* function, const VkindexHostIndices& indices);

}  // namespace vkindex::capi
