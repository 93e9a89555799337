#include "plan/gather_plan.hpp"

#include <algorithm>

#include "plan/row_gather_plan.hpp"
#include "plan/shape.hpp"

namespace vkindex::plan {

StatusOr<GatherShape> inferGatherShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                       DataType index_type, int64_t axis) {
  VKINDEX_RETURN_IF_ERROR(checkClassicType("Gather", "data", data_type));
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(std::string("Gather: input 'indices' has type ") + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t rank = static_cast<int64_t>(data_shape.size());
  if (rank == 0) return invalidArgument("Gather: input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (axis < -rank || axis >= rank) {
    return invalidArgument("Gather: attribute 'axis' = " + std::to_string(axis) +
                           " is out of range for input "
                           "'data' of rank " +
                           std::to_string(rank) + " (allowed [" + std::to_string(-rank) + ", " +
                           std::to_string(rank - 1) + "])");
  }
  GatherShape shape;
  shape.axis = axis < 0 ? axis + rank : axis;
  const size_t a = static_cast<size_t>(shape.axis);

  std::optional<uint64_t> outer = productOf(data_shape, 0, a);
  std::optional<uint64_t> inner = productOf(data_shape, a + 1, data_shape.size());
  std::optional<uint64_t> index_count = elementCount(indices_shape);
  if (!outer || !inner || data_shape[a] < 0 || !elementCount(data_shape)) {
    return invalidArgument("Gather: input 'data' has an invalid shape " + shapeString(data_shape));
  }
  if (!index_count)
    return invalidArgument("Gather: input 'indices' has an invalid shape " + shapeString(indices_shape));
  shape.outer = *outer;
  shape.axis_size = static_cast<uint64_t>(data_shape[a]);
  shape.index_count = *index_count;
  shape.row_bytes = *inner * elementSize(data_type);

  shape.indices_shape = indices_shape;
  shape.output_shape.assign(data_shape.begin(), data_shape.begin() + shape.axis);
  shape.output_shape.insert(shape.output_shape.end(), indices_shape.begin(), indices_shape.end());
  shape.output_shape.insert(shape.output_shape.end(), data_shape.begin() + shape.axis + 1, data_shape.end());
  VKINDEX_RETURN_IF_ERROR(checkOutputShape("Gather", shape.output_shape));
  return shape;
}

RowGather gatherRows(const GatherShape& shape, DataType index_type) {
  // One-component tuples shared by every outer slice (index_outer_stride 0).
  return {"Gather",
          "one slice after the axis",
          shape.outer,
          shape.index_count,
          shape.row_bytes,
          0,
          {index_type, shape.index_count, {shape.axis_size}, shape.policy},
          {"Gather", "indices", shape.indices_shape, false, {shape.axis_size}, {shape.axis}}};
}

StatusOr<OpPlan> planGather(const GatherShape& shape, DataType index_type, const Placement& data,
                            const Placement& indices, const Placement& output, const DeviceInfo& device,
                            const Tuning& tuning) {
  return planRowGather(gatherRows(shape, index_type), data, indices, output, device, tuning);
}

}  // namespace vkindex::plan
