#include "plan/gather_nd_plan.hpp"

#include <algorithm>

#include "plan/row_gather_plan.hpp"

namespace vkindex::plan {
namespace {

Status checkRanks(const Shape& data_shape, const Shape& indices_shape, DataType index_type, int64_t batch_dims) {
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(std::string("GatherND: input 'indices' has type ") + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t r = static_cast<int64_t>(data_shape.size()), q = static_cast<int64_t>(indices_shape.size());
  if (r == 0) return invalidArgument("GatherND: input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (q == 0) return invalidArgument("GatherND: input 'indices' must have rank >= 1, got a scalar (rank 0)");
  if (batch_dims < 0 || batch_dims >= std::min(r, q)) {
    return invalidArgument("GatherND: attribute 'batch_dims' = " + str(batch_dims) +
                           " is out of range for input 'data' of rank " + str(r) + " and input 'indices' of rank " +
                           str(q) + " (allowed [0, " + str(std::min(r, q) - 1) + "])");
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    const size_t i = static_cast<size_t>(d);
    if (indices_shape[i] != data_shape[i]) {
      return invalidArgument("GatherND: input 'indices' dim " + str(d) + " = " + str(indices_shape[i]) +
                             " differs from input 'data' dim " + str(d) + " = " + str(data_shape[i]) + " (the first " +
                             str(batch_dims) + " batch dims must be equal)");
    }
  }
  const int64_t k = indices_shape.back();
  if (k < 1 || k > r - batch_dims) {
    return invalidArgument("GatherND: the last dim of input 'indices' is " + str(k) +
                           ", the length of each index tuple, which must lie in [1, " + str(r - batch_dims) +
                           "] (data's rank " + str(r) + " minus batch_dims " + str(batch_dims) + ")");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<GatherNDShape> inferGatherNDShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                           DataType index_type, int64_t batch_dims) {
  VKINDEX_RETURN_IF_ERROR(checkClassicType("GatherND", "data", data_type));
  VKINDEX_RETURN_IF_ERROR(checkRanks(data_shape, indices_shape, index_type, batch_dims));
  const size_t b = static_cast<size_t>(batch_dims), k = static_cast<size_t>(indices_shape.back());
  if (!elementCount(data_shape))
    return invalidArgument("GatherND: input 'data' has an invalid shape " + shapeString(data_shape));
  if (!elementCount(indices_shape)) {
    return invalidArgument("GatherND: input 'indices' has an invalid shape " + shapeString(indices_shape));
  }
  GatherNDShape shape;
  shape.indices_shape = indices_shape;
  shape.batch_dims = batch_dims;
  shape.batch = *productOf(data_shape, 0, b);
  shape.tuples = *productOf(indices_shape, b, indices_shape.size() - 1);
  shape.extents.assign(data_shape.begin() + batch_dims, data_shape.begin() + batch_dims + static_cast<int64_t>(k));
  shape.row_bytes = *productOf(data_shape, b + k, data_shape.size()) * elementSize(data_type);
  shape.output_shape.assign(indices_shape.begin(), indices_shape.end() - 1);
  shape.output_shape.insert(shape.output_shape.end(), data_shape.begin() + static_cast<int64_t>(b + k),
                            data_shape.end());
  VKINDEX_RETURN_IF_ERROR(checkOutputShape("GatherND", shape.output_shape));
  return shape;
}

RowGather gatherNDRows(const GatherNDShape& shape, DataType index_type) {
  std::vector<int64_t> data_dims;  // the data dim each tuple component addresses
  for (size_t c = 0; c < shape.extents.size(); ++c) data_dims.push_back(shape.batch_dims + int64_t(c));
  // Each batch has its own tuples: index_outer_stride = tuples per batch.
  return {"GatherND",
          "one slice after the indexed dims",
          shape.batch,
          shape.tuples,
          shape.row_bytes,
          shape.tuples,
          {index_type, shape.batch * shape.tuples, shape.extents, shape.policy},
          {"GatherND", "indices", shape.indices_shape, true, shape.extents, data_dims}};
}

StatusOr<OpPlan> planGatherND(const GatherNDShape& shape, DataType index_type, const Placement& data,
                              const Placement& indices, const Placement& output, const DeviceInfo& device,
                              const Tuning& tuning) {
  return planRowGather(gatherNDRows(shape, index_type), data, indices, output, device, tuning);
}

}  // namespace vkindex::plan
