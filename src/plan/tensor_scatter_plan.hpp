// TensorScatter (ONNX opset 24): the call's validation on the host (shapes, types, attributes) and its
// plan: an optional check pass, the out-of-place copy of past_cache, and the write of the update's rows
// (shaders/tensor_scatter.comp).
#pragma once

#include <optional>

#include "plan/op_plan.hpp"
#include "plan/tuning.hpp"
#include "plan/windows.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/tensor_scatter.hpp"

namespace vkindex::plan {

// The cache as batch x rows_per_batch x max_seq rows of row_elements elements; the update has seq_len
// rows where the cache has max_seq.
struct TensorScatterShape {
  DataType type = DataType::kFloat32;
  Shape cache_shape;
  int64_t axis = 0;  // normalized: in [1, rank - 1]
  uint64_t batch = 0;
  uint64_t rows_per_batch = 0;
  uint64_t seq_len = 0;
  uint64_t max_seq = 0;
  uint64_t row_elements = 0;
  bool has_indices = false;
  TensorScatterOptions options;
};

// The write indices' shape and type, when the input is given.
struct WriteIndicesInput {
  Shape shape;
  DataType type = DataType::kInt64;
};

StatusOr<TensorScatterShape> inferTensorScatterShape(const Shape& past_shape, DataType past_type,
                                                     const Shape& update_shape, DataType update_type,
                                                     const std::optional<WriteIndicesInput>& write_indices,
                                                     const TensorScatterOptions& options);

// The plan. `indices` is unset when write indices are absent; in place, `output` is past_cache itself.
StatusOr<OpPlan> planTensorScatter(const TensorScatterShape& shape, const Placement& past,
                                   const std::optional<Placement>& indices, const Placement& update,
                                   const Placement& output, bool in_place, const DeviceInfo& device,
                                   const Tuning& tuning);

}  // namespace vkindex::plan
