// The C API (include/vkindex/vkindex.h) over the C++ one: handles own C++ objects, errors become a
// status code plus a thread-local message.
#include "vkindex/vkindex.h"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "vkindex/vkindex.hpp"

struct VkindexContext_T {
  std::unique_ptr<vkindex::Context> context;
};

struct VkindexTensor_T {
  vkindex::Tensor tensor;
};

namespace {

thread_local std::string last_error;

VkindexStatus fail(const vkindex::Status& status) {
  last_error = status.message();
  return static_cast<VkindexStatus>(status.code());
}

VkindexStatus nullArgument(const char* function, const char* argument) {
  return fail(vkindex::invalidArgument(std::string(function) + ": '" + argument + "' is NULL"));
}

VkindexTensor wrap(vkindex::Tensor tensor) { return new VkindexTensor_T{std::move(tensor)}; }

// The C enum mirrors vkindex::DataType without strings; anything else is rejected.
bool toDataType(VkindexDataType type, vkindex::DataType* out) {
  if (type < VKINDEX_BOOL || type > VKINDEX_COMPLEX128) return false;
  *out = static_cast<vkindex::DataType>(type);
  return true;
}

// The C++ form every C gather wraps: (data, indices, one integer attribute) -> a new tensor.
using GatherOp = vkindex::StatusOr<vkindex::Tensor> (*)(vkindex::Context&, const vkindex::Tensor&,
                                                        const vkindex::Tensor&, int64_t);

// Checks the handles `function` received, runs `op` and wraps its result in `*output`.
VkindexStatus runGatherOp(const char* function, GatherOp op, VkindexContext context, VkindexTensor data,
                          VkindexTensor indices, int64_t attribute, VkindexTensor* output) {
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (output == nullptr) return nullArgument(function, "output");
  vkindex::StatusOr<vkindex::Tensor> result = op(*context->context, data->tensor, indices->tensor, attribute);
  if (!result.ok()) return fail(result.status());
  *output = wrap(std::move(result).value());
  return VKINDEX_OK;
}

// The C enum mirrors vkindex::Reduction; anything else is rejected.
bool toReduction(VkindexReduction reduction, vkindex::Reduction* out) {
  if (reduction < VKINDEX_REDUCTION_NONE || reduction > VKINDEX_REDUCTION_MIN) return false;
  *out = static_cast<vkindex::Reduction>(reduction);
  return true;
}

// Checks the handles and the reduction `function` received, then runs `op`: (context, data, indices,
// updates, reduction) -> a new tensor, wrapped in `*output` (which must then be non-NULL), or a Status
// for the in-place forms (which pass `output` NULL).
template <typename Op>
VkindexStatus runScatterOp(const char* function, VkindexContext context, VkindexTensor data, VkindexTensor indices,
                           VkindexTensor updates, VkindexReduction reduction, VkindexTensor* output, Op op) {
  using Result = decltype(op(std::declval<vkindex::Context&>(), std::declval<vkindex::Tensor&>(),
                             std::declval<const vkindex::Tensor&>(), std::declval<const vkindex::Tensor&>(),
                             vkindex::Reduction::kNone));
  constexpr bool kInPlace = std::is_same_v<Result, vkindex::Status>;
  if (context == nullptr) return nullArgument(function, "context");
  if (data == nullptr) return nullArgument(function, "data");
  if (indices == nullptr) return nullArgument(function, "indices");
  if (updates == nullptr) return nullArgument(function, "updates");
  if (!kInPlace && output == nullptr) return nullArgument(function, "output");
  vkindex::Reduction converted;
  if (!toReduction(reduction, &converted)) {
    return fail(vkindex::invalidArgument(std::string(function) + ": unknown reduction " + std::to_string(reduction)));
  }
  Result result = op(*context->context, data->tensor, indices->tensor, updates->tensor, converted);
  if constexpr (kInPlace) {
    return result.ok() ? VKINDEX_OK : fail(result);
  } else {
    if (!result.ok()) return fail(result.status());
    *output = wrap(std::move(result).value());
    return VKINDEX_OK;
  }
}

}  // namespace

static_assert(static_cast<int>(vkindex::StatusCode::kInternal) == VKINDEX_INTERNAL, "status codes drifted");
static_assert(static_cast<int>(vkindex::DataType::kComplex128) == VKINDEX_COMPLEX128, "data types drifted");
static_assert(static_cast<int>(vkindex::Reduction::kMin) == VKINDEX_REDUCTION_MIN, "reductions drifted");

extern "C" {

uint32_t vkindexVersion(void) { return VKINDEX_VERSION; }

const char* vkindexVersionString(void) { return vkindex::libraryVersion(); }

const char* vkindexLastErrorMessage(void) { return last_error.c_str(); }

VkindexStatus vkindexContextCreate(const char* device_selector, int validation, VkindexContext* context) {
  if (context == nullptr) return nullArgument("vkindexContextCreate", "context");
  vkindex::ContextOptions options;
  options.device = device_selector != nullptr ? device_selector : "";
  options.validation = validation != 0;
  vkindex::StatusOr<std::unique_ptr<vkindex::Context>> created = vkindex::Context::create(options);
  if (!created.ok()) return fail(created.status());
  *context = new VkindexContext_T{std::move(created).value()};
  return VKINDEX_OK;
}

void vkindexContextDestroy(VkindexContext context) { delete context; }

VkindexStatus vkindexTensorCreate(VkindexContext context, VkindexDataType type, const int64_t* shape, size_t rank,
                                  const void* data, size_t byte_count, VkindexTensor* tensor) {
  if (context == nullptr) return nullArgument("vkindexTensorCreate", "context");
  if (tensor == nullptr) return nullArgument("vkindexTensorCreate", "tensor");
  if (shape == nullptr && rank > 0) return nullArgument("vkindexTensorCreate", "shape");
  vkindex::DataType dtype;
  if (!toDataType(type, &dtype)) {
    return fail(vkindex::invalidArgument("vkindexTensorCreate: unknown data type " + std::to_string(type)));
  }
  vkindex::Shape dims(shape, shape + rank);
  vkindex::StatusOr<vkindex::Tensor> created =
      data != nullptr ? vkindex::Tensor::fromHost(*context->context, dtype, dims, data, byte_count)
                      : vkindex::Tensor::create(*context->context, dtype, dims);
  if (!created.ok()) return fail(created.status());
  *tensor = wrap(std::move(created).value());
  return VKINDEX_OK;
}

void vkindexTensorDestroy(VkindexTensor tensor) { delete tensor; }

size_t vkindexTensorRank(VkindexTensor tensor) { return tensor != nullptr ? tensor->tensor.rank() : 0; }

const int64_t* vkindexTensorShape(VkindexTensor tensor) {
  return tensor != nullptr ? tensor->tensor.shape().data() : nullptr;
}

uint64_t vkindexTensorByteSize(VkindexTensor tensor) { return tensor != nullptr ? tensor->tensor.byteSize() : 0; }

VkindexStatus vkindexTensorDownload(VkindexTensor tensor, void* data, size_t byte_count) {
  if (tensor == nullptr) return nullArgument("vkindexTensorDownload", "tensor");
  if (data == nullptr && byte_count > 0) return nullArgument("vkindexTensorDownload", "data");
  vkindex::Status status = tensor->tensor.download(data, byte_count);
  return status.ok() ? VKINDEX_OK : fail(status);
}

VkindexStatus vkindexGather(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                            VkindexTensor* output) {
  return runGatherOp("vkindexGather", vkindex::gather, context, data, indices, axis, output);
}

VkindexStatus vkindexGatherElements(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t axis,
                                    VkindexTensor* output) {
  return runGatherOp("vkindexGatherElements", vkindex::gatherElements, context, data, indices, axis, output);
}

VkindexStatus vkindexGatherND(VkindexContext context, VkindexTensor data, VkindexTensor indices, int64_t batch_dims,
                              VkindexTensor* output) {
  return runGatherOp("vkindexGatherND", vkindex::gatherND, context, data, indices, batch_dims, output);
}

VkindexStatus vkindexScatterElements(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                     VkindexTensor updates, int64_t axis, VkindexReduction reduction,
                                     VkindexTensor* output) {
  return runScatterOp(
      "vkindexScatterElements", context, data, indices, updates, reduction, output,
      [axis](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids, const vkindex::Tensor& ups,
             vkindex::Reduction how) { return vkindex::scatterElements(ctx, in, ids, ups, axis, how); });
}

VkindexStatus vkindexScatterElementsInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                            VkindexTensor updates, int64_t axis, VkindexReduction reduction) {
  return runScatterOp(
      "vkindexScatterElementsInPlace", context, data, indices, updates, reduction, nullptr,
      [axis](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids, const vkindex::Tensor& ups,
             vkindex::Reduction how) { return vkindex::scatterElementsInPlace(ctx, in, ids, ups, axis, how); });
}

VkindexStatus vkindexScatterND(VkindexContext context, VkindexTensor data, VkindexTensor indices, VkindexTensor updates,
                               VkindexReduction reduction, VkindexTensor* output) {
  return runScatterOp(
      "vkindexScatterND", context, data, indices, updates, reduction, output,
      [](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids, const vkindex::Tensor& ups,
         vkindex::Reduction how) { return vkindex::scatterND(ctx, in, ids, ups, how); });
}

VkindexStatus vkindexScatterNDInPlace(VkindexContext context, VkindexTensor data, VkindexTensor indices,
                                      VkindexTensor updates, VkindexReduction reduction) {
  return runScatterOp(
      "vkindexScatterNDInPlace", context, data, indices, updates, reduction, nullptr,
      [](vkindex::Context& ctx, vkindex::Tensor& in, const vkindex::Tensor& ids, const vkindex::Tensor& ups,
         vkindex::Reduction how) { return vkindex::scatterNDInPlace(ctx, in, ids, ups, how); });
}

}  // extern "C"
