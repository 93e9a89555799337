#include "ops/host_index_gather.hpp"

#include <algorithm>
#include <cctype>

#include "core/tensor_access.hpp"
#include "core/transfer.hpp"
#include "ops/gather_family.hpp"
#include "plan/gather_nd_plan.hpp"
#include "plan/gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex {
namespace {

using plan::HostIndexPath;
using plan::RowGather;

// A host-index call reduced to a row gather, with the output's shape.
struct HostRowGather {
  RowGather rows;
  Shape output_shape;
};

// One host-index operator: its name, how its call becomes a row gather, and its indices-tensor form
// (for string data, which is gathered on the host by that form).
struct HostIndexOp {
  const char* name;
  StatusOr<HostRowGather> (*infer)(const Tensor& data, const HostIndices& indices, int64_t attribute,
                                   IndexPolicy policy);
  Status (*tensor_form)(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute, Tensor& output,
                        IndexPolicy policy);
};

StatusOr<HostRowGather> inferGather(const Tensor& data, const HostIndices& indices, int64_t axis, IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkIndexPolicy("Gather", policy));
  VKINDEX_ASSIGN_OR_RETURN(plan::GatherShape shape,
                           plan::inferGatherShape(data.shape(), data.dtype(), indices.shape, indices.type, axis));
  shape.policy = policy;
  return HostRowGather{plan::gatherRows(shape, indices.type), shape.output_shape};
}

StatusOr<HostRowGather> inferGatherND(const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                                      IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkIndexPolicy("GatherND", policy));
  VKINDEX_ASSIGN_OR_RETURN(
      plan::GatherNDShape shape,
      plan::inferGatherNDShape(data.shape(), data.dtype(), indices.shape, indices.type, batch_dims));
  shape.policy = policy;
  return HostRowGather{plan::gatherNDRows(shape, indices.type), shape.output_shape};
}

constexpr HostIndexOp kHostGather{
    "Gather", inferGather,
    [](Context& context, const Tensor& data, const Tensor& indices, int64_t axis, Tensor& output, IndexPolicy policy) {
      return gather(context, data, indices, axis, output, policy);
    }};
constexpr HostIndexOp kHostGatherND{
    "GatherND", inferGatherND,
    [](Context& context, const Tensor& data, const Tensor& indices, int64_t batch_dims, Tensor& output,
       IndexPolicy policy) { return gatherND(context, data, indices, batch_dims, output, policy); }};

// Checks every index value on the host: the same messages the kernel path's device check gives. Under
// the skip policy no value is an error.
Status checkValues(const HostIndexOp& op, const RowGather& rows, const HostIndices& indices) {
  if (indices.values == nullptr && rows.check.tuple_count > 0) {
    return invalidArgument(std::string(op.name) + ": input 'indices' (host) has shape " +
                           plan::shapeString(indices.shape) + " but its values pointer is null");
  }
  if (rows.check.policy == IndexPolicy::kSkip) return Status::Ok();
  if (std::optional<plan::BadIndex> bad = plan::findBadIndex(rows.check, indices.values)) {
    return indexOutOfRange(rows.report, bad->position, bad->value);
  }
  return Status::Ok();
}

// Whether the rows are few enough for the copy path (plan::kMaxCopyRows) and every tuple addresses a
// row: a tuple the skip policy skips needs the kernel, which writes its zeros.
bool copyPathPossible(const RowGather& rows, const HostIndices& indices) {
  if (rows.outer * rows.index_count > plan::kMaxCopyRows) return false;
  return rows.check.policy == IndexPolicy::kError || !plan::findBadIndex(rows.check, indices.values);
}

Status checkContexts(Context& context, const HostIndexOp& op, const Tensor& data, const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(checkTensorContext(context, data, op.name, "data"));
  return checkTensorContext(context, output, op.name, "output");
}

// Checks a call whose problem is inferred: the output, then every index value.
Status checkInferred(const HostIndexOp& op, const HostRowGather& gather, const Tensor& data, const HostIndices& indices,
                     const Tensor& output) {
  VKINDEX_RETURN_IF_ERROR(validateGatherOutput(op.name, output, data, gather.output_shape));
  return checkValues(op, gather.rows, indices);
}

// Checks the call, then every index value. Returns the row gather to run.
StatusOr<RowGather> prepare(Context& context, const HostIndexOp& op, const Tensor& data, const HostIndices& indices,
                            int64_t attribute, const Tensor& output, IndexPolicy policy) {
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, op, data, output));
  VKINDEX_ASSIGN_OR_RETURN(HostRowGather gather, op.infer(data, indices, attribute, policy));
  VKINDEX_RETURN_IF_ERROR(checkInferred(op, gather, data, indices, output));
  return gather.rows;
}

// The kernel path's plan and tensors: the values go into a device tensor the state keeps, recorded into
// the command buffer by the plan's first step, and the row gather reads them there.
StatusOr<std::unique_ptr<RecordedOp::State>> recordKernel(Context& context, VkCommandBuffer cmd, const HostIndexOp& op,
                                                          const RowGather& rows, const HostIndices& indices,
                                                          const Tensor& data, Tensor& output) {
  VKINDEX_ASSIGN_OR_RETURN(Tensor uploaded,
                           internal::TensorAccess::create(context, indices.type, indices.shape,
                                                          std::string(op.name) + " indices (from the host)"));
  VKINDEX_RETURN_IF_ERROR(checkWindowPairs(op.name, {&data, &uploaded, &output}, context.device()));
  VKINDEX_ASSIGN_OR_RETURN(plan::OpPlan op_plan,
                           plan::uploadedIndicesPlan(rows, indices.values, placementOf(data), placementOf(uploaded),
                                                     placementOf(output), context.device(), tuningOf(context)));
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state,
                           recordPlan(context, cmd, op_plan, {&data, &uploaded, nullptr, &output}));
  state->uploaded_indices = std::move(uploaded);
  return state;
}

// Records a prepared call on the chosen path.
StatusOr<std::unique_ptr<RecordedOp::State>> record(Context& context, VkCommandBuffer cmd, const HostIndexOp& op,
                                                    const RowGather& rows, const HostIndices& indices,
                                                    const Tensor& data, Tensor& output, internal::ForcedPath forced) {
  const bool copy_possible = copyPathPossible(rows, indices);
  std::vector<plan::CopyRegion> regions;
  if (copy_possible && forced != HostIndexPath::kKernel) {
    regions = plan::rowCopyRegions(rows, indices.values, data.offset(), output.offset());
  }
  const plan::Tuning& tuning = tuningOf(context);
  const HostIndexPath path = forced.value_or(
      plan::chooseHostIndexPath(rows, regions.size(), {tuning.few_copy_regions, tuning.min_copy_region_bytes}));
  if (path == HostIndexPath::kCopyRegions && copy_possible) {
    return recordPlan(context, cmd, plan::copyRegionsPlan(std::move(regions)), {&data, nullptr, nullptr, &output});
  }
  return recordKernel(context, cmd, op, rows, indices, data, output);
}

// Runs a checked call.
Status runChecked(Context& context, const HostIndexOp& op, const RowGather& rows, const Tensor& data,
                  const HostIndices& indices, int64_t attribute, Tensor& output, internal::ForcedPath forced) {
  if (data.dtype() == DataType::kString) {
    // Strings live on the host: the indices-tensor form picks them.
    VKINDEX_ASSIGN_OR_RETURN(Tensor index_tensor, Tensor::fromHost(context, indices.type, indices.shape, indices.values,
                                                                   plan::hostIndexBytes(rows)));
    return op.tensor_form(context, data, index_tensor, attribute, output, rows.check.policy);
  }
  return runRecorded(context, {&data, nullptr, nullptr, &output}, [&](VkCommandBuffer cmd) {
    return record(context, cmd, op, rows, indices, data, output, forced);
  });
}

Status run(Context& context, const HostIndexOp& op, const Tensor& data, const HostIndices& indices, int64_t attribute,
           Tensor& output, internal::ForcedPath forced, IndexPolicy policy) {
  VKINDEX_ASSIGN_OR_RETURN(RowGather rows, prepare(context, op, data, indices, attribute, output, policy));
  return runChecked(context, op, rows, data, indices, attribute, output, forced);
}

// The new-output form: the call's shape inferred once, for the output and the run.
StatusOr<Tensor> runWithNewOutput(Context& context, const HostIndexOp& op, const Tensor& data,
                                  const HostIndices& indices, int64_t attribute, IndexPolicy policy) {
  VKINDEX_ASSIGN_OR_RETURN(HostRowGather gather, op.infer(data, indices, attribute, policy));
  Tensor output;
  if (data.dtype() == DataType::kString) {
    std::vector<std::string> empty(*plan::elementCount(gather.output_shape));
    VKINDEX_ASSIGN_OR_RETURN(output, Tensor::fromStrings(context, gather.output_shape, std::move(empty)));
  } else {
    VKINDEX_ASSIGN_OR_RETURN(output, createOutput(context, op.name, data.dtype(), gather.output_shape));
  }
  VKINDEX_RETURN_IF_ERROR(checkContexts(context, op, data, output));
  VKINDEX_RETURN_IF_ERROR(checkInferred(op, gather, data, indices, output));
  VKINDEX_RETURN_IF_ERROR(runChecked(context, op, gather.rows, data, indices, attribute, output, std::nullopt));
  return output;
}

StatusOr<RecordedOp> recordForm(Context& context, const HostIndexOp& op, VkCommandBuffer command_buffer,
                                const Tensor& data, const HostIndices& indices, int64_t attribute, Tensor& output,
                                internal::ForcedPath forced, IndexPolicy policy) {
  const std::string form = std::string("record") + op.name;
  if (data.dtype() == DataType::kString) {
    return unsupported(form + ": string tensors live on the host and cannot be recorded; use " +
                       std::string(1, static_cast<char>(std::tolower(op.name[0]))) + (op.name + 1) + "()");
  }
  if (command_buffer == VK_NULL_HANDLE) return invalidArgument(form + ": the VkCommandBuffer is null");
  VKINDEX_ASSIGN_OR_RETURN(RowGather rows, prepare(context, op, data, indices, attribute, output, policy));
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<RecordedOp::State> state,
                           record(context, command_buffer, op, rows, indices, data, output, forced));
  return RecordedOpAccess::wrap(std::move(state));
}

}  // namespace

namespace internal {

Status gatherWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                             Tensor& output, ForcedPath path, IndexPolicy policy) {
  return run(context, kHostGather, data, indices, axis, output, path, policy);
}

Status gatherNDWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                               Tensor& output, ForcedPath path, IndexPolicy policy) {
  return run(context, kHostGatherND, data, indices, batch_dims, output, path, policy);
}

StatusOr<RecordedOp> recordGatherWithHostIndices(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                 const HostIndices& indices, int64_t axis, Tensor& output,
                                                 ForcedPath path, IndexPolicy policy) {
  return recordForm(context, kHostGather, command_buffer, data, indices, axis, output, path, policy);
}

Status gatherWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t axis,
                             Tensor& output, ForcedPath path) {
  return gatherWithHostIndices(context, data, indices, axis, output, path, IndexPolicy::kError);
}

Status gatherNDWithHostIndices(Context& context, const Tensor& data, const HostIndices& indices, int64_t batch_dims,
                               Tensor& output, ForcedPath path) {
  return gatherNDWithHostIndices(context, data, indices, batch_dims, output, path, IndexPolicy::kError);
}

StatusOr<RecordedOp> recordGatherWithHostIndices(Context& context, VkCommandBuffer command_buffer, const Tensor& data,
                                                 const HostIndices& indices, int64_t axis, Tensor& output,
                                                 ForcedPath path) {
  return recordGatherWithHostIndices(context, command_buffer, data, indices, axis, output, path, IndexPolicy::kError);
}

StatusOr<std::vector<plan::CopyRegion>> hostIndexCopyRegions(const Tensor& data, const HostIndices& indices,
                                                             int64_t attribute, bool nd) {
  const HostIndexOp& op = nd ? kHostGatherND : kHostGather;
  VKINDEX_ASSIGN_OR_RETURN(HostRowGather gather, op.infer(data, indices, attribute, IndexPolicy::kError));
  VKINDEX_RETURN_IF_ERROR(checkValues(op, gather.rows, indices));
  if (!copyPathPossible(gather.rows, indices)) return std::vector<plan::CopyRegion>{};
  return plan::rowCopyRegions(gather.rows, indices.values, 0, 0);
}

}  // namespace internal

// The three public forms (vkindex/ops.hpp) of a host-index operator: a macro because they differ only
// in their names, as VKINDEX_DEFINE_GATHER_FAMILY_FORMS does for the device-index forms.
#define VKINDEX_DEFINE_HOST_INDEX_FORMS(op_function, record_function, definition, attribute)                          \
  StatusOr<Tensor> op_function(Context& context, const Tensor& data, const HostIndices& indices, int64_t attribute,   \
                               IndexPolicy policy) {                                                                  \
    return runWithNewOutput(context, definition, data, indices, attribute, policy);                                   \
  }                                                                                                                   \
  Status op_function(Context& context, const Tensor& data, const HostIndices& indices, int64_t attribute,             \
                     Tensor& output, IndexPolicy policy) {                                                            \
    return run(context, definition, data, indices, attribute, output, std::nullopt, policy);                          \
  }                                                                                                                   \
  StatusOr<RecordedOp> record_function(Context& context, VkCommandBuffer command_buffer, const Tensor& data,          \
                                       const HostIndices& indices, int64_t attribute, Tensor& output,                 \
                                       IndexPolicy policy) {                                                          \
    return recordForm(context, definition, command_buffer, data, indices, attribute, output, std::nullopt, policy);   \
  }                                                                                                                   \
  StatusOr<Tensor> op_function(Context& context, const Tensor& data, const HostIndices& indices, int64_t attribute) { \
    return op_function(context, data, indices, attribute, IndexPolicy::kError);                                       \
  }                                                                                                                   \
  Status op_function(Context& context, const Tensor& data, const HostIndices& indices, int64_t attribute,             \
                     Tensor& output) {                                                                                \
    return op_function(context, data, indices, attribute, output, IndexPolicy::kError);                               \
  }                                                                                                                   \
  StatusOr<RecordedOp> record_function(Context& context, VkCommandBuffer command_buffer, const Tensor& data,          \
                                       const HostIndices& indices, int64_t attribute, Tensor& output) {               \
    return record_function(context, command_buffer, data, indices, attribute, output, IndexPolicy::kError);           \
  }

VKINDEX_DEFINE_HOST_INDEX_FORMS(gather, recordGather, kHostGather, axis)
VKINDEX_DEFINE_HOST_INDEX_FORMS(gatherND, recordGatherND, kHostGatherND, batch_dims)

}  // namespace vkindex
