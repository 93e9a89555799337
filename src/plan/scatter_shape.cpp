// The scatter operators' validation and output shapes: types, ranks, the axis or tuple length, the
// updates' shape, and the reductions a type admits (scatter_plan.hpp).
#include <string>
#include <vector>

#include "common/spec_ids.h"
#include "plan/scatter_plan.hpp"

namespace vkindex::plan {
namespace {

// The element kind of each type with arithmetic: VKINDEX_KIND_*, the arithmetic the shaders compile in.
struct TypeArithmetic {
  DataType type;
  uint32_t kind;
};
constexpr TypeArithmetic kTypeArithmetic[] = {
    {DataType::kInt32, VKINDEX_KIND_INT32},         {DataType::kUInt32, VKINDEX_KIND_UINT32},
    {DataType::kFloat32, VKINDEX_KIND_FLOAT32},     {DataType::kInt64, VKINDEX_KIND_INT64},
    {DataType::kUInt64, VKINDEX_KIND_UINT64},       {DataType::kInt8, VKINDEX_KIND_INT8},
    {DataType::kUInt8, VKINDEX_KIND_UINT8},         {DataType::kInt16, VKINDEX_KIND_INT16},
    {DataType::kUInt16, VKINDEX_KIND_UINT16},       {DataType::kFloat16, VKINDEX_KIND_FLOAT16},
    {DataType::kBFloat16, VKINDEX_KIND_BFLOAT16},   {DataType::kFloat64, VKINDEX_KIND_FLOAT64},
    {DataType::kComplex64, VKINDEX_KIND_COMPLEX64}, {DataType::kComplex128, VKINDEX_KIND_COMPLEX128}};

// What the kernels run for a (type, reduction) pair: the element arithmetic (VKINDEX_KIND_*) and the
// reduction its scatter passes apply.
struct Arithmetic {
  uint32_t kind;
  Reduction reduction;
};

// Which reductions this type admits, and what the kernels run for them. ONNX defines add, mul, max and
// min on numeric tensors (max and min need an order, which complex lacks). On bool and string, ONNX
// Runtime's CPU kernels of both operators define add and mul on bool (OR and AND) and add on string
// (concatenation) and refuse the rest; vkindex defines the same pairs.
// - bool add and mul run as uint8 max and min: on ONNX's bool bytes 0 and 1 those are OR and AND, with
//   the same strategies (and bits) as any uint8 max and min. Other byte values keep their truth (the
//   result is nonzero iff either, or both, operands are) but not a canonical byte: docs/reductions.md.
// - string add has no kernel arithmetic: the host concatenates, the device only checks the indices
//   (ops/string_concatenation.hpp), so the kind is MOVE.
StatusOr<Arithmetic> arithmeticOf(const std::string& op, Reduction reduction, DataType type) {
  if (static_cast<unsigned>(reduction) > static_cast<unsigned>(Reduction::kMin)) {
    return invalidArgument(op + ": unknown reduction " + std::to_string(static_cast<int>(reduction)) +
                           " (allowed none, add, mul, max, min)");
  }
  if (reduction == Reduction::kNone) return Arithmetic{VKINDEX_KIND_MOVE, reduction};
  const std::string undefined =
      op + ": reduction '" + reductionName(reduction) + "' is not defined for " + dataTypeName(type);
  if (type == DataType::kBool) {
    if (reduction == Reduction::kAdd) return Arithmetic{VKINDEX_KIND_UINT8, Reduction::kMax};
    if (reduction == Reduction::kMul) return Arithmetic{VKINDEX_KIND_UINT8, Reduction::kMin};
    return invalidArgument(undefined + " (bool allows none, add as OR, mul as AND)");
  }
  if (type == DataType::kString) {
    if (reduction == Reduction::kAdd) return Arithmetic{VKINDEX_KIND_MOVE, reduction};
    return invalidArgument(undefined + " (string allows none, add as concatenation)");
  }
  const bool ordered = reduction == Reduction::kMax || reduction == Reduction::kMin;
  const bool complex = type == DataType::kComplex64 || type == DataType::kComplex128;
  for (const TypeArithmetic& entry : kTypeArithmetic) {
    if (entry.type == type && !(ordered && complex)) return Arithmetic{entry.kind, reduction};
  }
  if (complex) return invalidArgument(undefined + " (complex allows none, add, mul)");
  return invalidArgument(undefined + " (" + dataTypeName(type) + " allows none only)");
}

Status checkUpdatesType(const std::string& op, DataType data_type, DataType updates_type) {
  if (updates_type != data_type) {
    return invalidArgument(op + ": input 'updates' has type " + dataTypeName(updates_type) +
                           " but input 'data' has type " + dataTypeName(data_type));
  }
  return Status::Ok();
}

}  // namespace

std::string scatterName(ScatterKind kind) { return kind == ScatterKind::kElements ? "ScatterElements" : "ScatterND"; }

StatusOr<ScatterShape> inferScatterElementsShape(const Shape& data_shape, DataType data_type,
                                                 const Shape& indices_shape, DataType index_type,
                                                 const Shape& updates_shape, DataType updates_type, int64_t axis,
                                                 Reduction reduction) {
  const ScatterKind kind = ScatterKind::kElements;
  const std::string op = scatterName(kind);
  VKINDEX_RETURN_IF_ERROR(checkClassicType(op, "data", data_type));
  VKINDEX_RETURN_IF_ERROR(checkElementRanksAndAxis(op, data_shape, indices_shape, index_type, axis));
  VKINDEX_RETURN_IF_ERROR(checkUpdatesType(op, data_type, updates_type));
  if (updates_shape != indices_shape) {
    return invalidArgument(op + ": input 'updates' has shape " + shapeString(updates_shape) +
                           " but input 'indices' has shape " + shapeString(indices_shape) + "; they must be equal");
  }
  VKINDEX_RETURN_IF_ERROR(checkElementExtents(op, data_shape, indices_shape, axis));
  ScatterShape shape;
  shape.kind = kind;
  VKINDEX_ASSIGN_OR_RETURN(const Arithmetic arithmetic, arithmeticOf(op, reduction, data_type));
  shape.element_kind = arithmetic.kind;
  const int64_t rank = static_cast<int64_t>(data_shape.size());
  const int64_t a = axis < 0 ? axis + rank : axis;
  shape.output_shape = data_shape;
  shape.indices_shape = indices_shape;
  shape.element_bytes = elementSize(data_type);
  shape.reduction = arithmetic.reduction;
  const uint64_t axis_size = static_cast<uint64_t>(data_shape[static_cast<size_t>(a)]);
  shape.check = {index_type, *elementCount(indices_shape), {axis_size}};
  shape.report = {op, "indices", indices_shape, false, {axis_size}, {a}};
  shape.dims = coalesceElementDims(data_shape, indices_shape, static_cast<size_t>(a), &shape.axis_dim);
  shape.axis_extent = shape.dims[shape.axis_dim].extent;
  shape.lines = shape.axis_extent == 0 ? 0 : shape.check.tuple_count / shape.axis_extent;
  return shape;
}

StatusOr<ScatterShape> inferScatterNDShape(const Shape& data_shape, DataType data_type, const Shape& indices_shape,
                                           DataType index_type, const Shape& updates_shape, DataType updates_type,
                                           Reduction reduction) {
  const ScatterKind kind = ScatterKind::kND;
  const std::string op = scatterName(kind);
  VKINDEX_RETURN_IF_ERROR(checkClassicType(op, "data", data_type));
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    return invalidArgument(op + ": input 'indices' has type " + dataTypeName(index_type) +
                           "; allowed types are int32 and int64");
  }
  const int64_t r = static_cast<int64_t>(data_shape.size());
  if (r == 0) return invalidArgument(op + ": input 'data' must have rank >= 1, got a scalar (rank 0)");
  if (indices_shape.empty())
    return invalidArgument(op + ": input 'indices' must have rank >= 1, got a scalar (rank 0)");
  // k = 0 is valid (ONNX bounds k by r only; GatherND's k >= 1 is GatherND's own rule): every tuple is
  // empty and addresses the whole of data, so updates holds one data-shaped slice per tuple.
  const int64_t k = indices_shape.back();
  if (k < 0 || k > r) {
    return invalidArgument(op + ": the last dim of input 'indices' is " + str(k) +
                           ", the length of each index tuple, which must lie in [0, " + str(r) + "] (data's rank " +
                           str(r) + ")");
  }
  VKINDEX_RETURN_IF_ERROR(checkUpdatesType(op, data_type, updates_type));
  Shape expected(indices_shape.begin(), indices_shape.end() - 1);
  expected.insert(expected.end(), data_shape.begin() + k, data_shape.end());
  if (updates_shape != expected) {
    return invalidArgument(op + ": input 'updates' has shape " + shapeString(updates_shape) + ", expected " +
                           shapeString(expected) + " (indices.shape[:-1] + data.shape[k:])");
  }
  if (!elementCount(data_shape) || !elementCount(indices_shape)) {
    return invalidArgument(op + ": the inputs' shapes are too large");
  }
  ScatterShape shape;
  shape.kind = kind;
  VKINDEX_ASSIGN_OR_RETURN(const Arithmetic arithmetic, arithmeticOf(op, reduction, data_type));
  shape.element_kind = arithmetic.kind;
  shape.output_shape = data_shape;
  shape.indices_shape = indices_shape;
  shape.element_bytes = elementSize(data_type);
  shape.reduction = arithmetic.reduction;
  const size_t kk = static_cast<size_t>(k);
  std::vector<uint64_t> extents(data_shape.begin(), data_shape.begin() + k);
  shape.check = {index_type, *productOf(indices_shape, 0, indices_shape.size() - 1), extents};
  std::vector<int64_t> data_dims;
  for (size_t c = 0; c < kk; ++c) data_dims.push_back(int64_t(c));
  shape.report = {op, "indices", indices_shape, true, extents, data_dims};
  shape.slice_elements = *productOf(data_shape, kk, data_shape.size());
  return shape;
}

}  // namespace vkindex::plan
