#include "workloads.hpp"

#include <memory>
#include <optional>
#include <utility>

#include "host_data.hpp"

namespace vkindex::bench {
namespace {

// How a row's index values are drawn: at random (the realistic case), or in ascending order (the same
// kernel reading its rows in order, which isolates its own cost from the random access pattern's).
enum class IndexOrder { kRandom, kAscending };

// One row's inputs. `attribute` is the operator's one attribute: axis (Gather, GatherElements, which take
// it non-negative here) or batch_dims (GatherND).
struct IndexingSpec {
  DataType data_type;
  Shape data_shape;
  DataType index_type;
  Shape indices_shape;
  int64_t attribute;
  IndexOrder order = IndexOrder::kRandom;
};

using RecordFunction = StatusOr<RecordedOp> (*)(Context&, VkCommandBuffer, const Tensor&, const Tensor&, int64_t,
                                                Tensor&);
// The host-index form (ops.hpp, HostIndices), for Gather and GatherND.
using RecordHostFunction = StatusOr<RecordedOp> (*)(Context&, VkCommandBuffer, const Tensor&, const HostIndices&,
                                                    int64_t, Tensor&);

// What distinguishes the operators: the ONNX name, the attribute's name, the record form, random valid
// indices, the output's shape and the CPU oracle.
struct OperatorRow {
  const char* op;
  bool nd;  // GatherND's attribute and index tuples
  const char* attribute_name;
  RecordFunction record;
  RecordHostFunction record_host;  // null where the operator has no host-index form
  std::vector<uint8_t> (*indices)(const IndexingSpec& spec, uint64_t seed);
  Shape (*output_shape)(const IndexingSpec& spec);
  std::vector<uint8_t> (*expected)(const std::vector<uint8_t>& data, const std::vector<uint8_t>& indices,
                                   const IndexingSpec& spec);
};

// Gather and GatherElements: every index addresses data's dim `axis`.
std::vector<uint8_t> axisIndices(const IndexingSpec& spec, uint64_t seed) {
  if (spec.order == IndexOrder::kAscending)
    return ascendingIndices(spec.index_type, elementCount(spec.indices_shape),
                            spec.data_shape[static_cast<size_t>(spec.attribute)]);
  return randomIndices(spec.index_type, elementCount(spec.indices_shape),
                       spec.data_shape[static_cast<size_t>(spec.attribute)], seed);
}

// GatherND: component c of each tuple addresses data's dim batch_dims + c.
std::vector<uint8_t> tupleIndices(const IndexingSpec& spec, uint64_t seed) {
  const int64_t k = spec.indices_shape.back();
  const Shape sizes(spec.data_shape.begin() + spec.attribute, spec.data_shape.begin() + spec.attribute + k);
  return randomIndexTuples(spec.index_type, elementCount(spec.indices_shape) / static_cast<uint64_t>(k), sizes, seed);
}

// data.shape[:axis] + indices.shape + data.shape[axis+1:].
Shape gatherShape(const IndexingSpec& spec) {
  Shape shape(spec.data_shape.begin(), spec.data_shape.begin() + spec.attribute);
  shape.insert(shape.end(), spec.indices_shape.begin(), spec.indices_shape.end());
  shape.insert(shape.end(), spec.data_shape.begin() + spec.attribute + 1, spec.data_shape.end());
  return shape;
}

Shape indicesShape(const IndexingSpec& spec) { return spec.indices_shape; }

// indices.shape[:-1] + data.shape[batch_dims + k:].
Shape gatherNDShape(const IndexingSpec& spec) {
  Shape shape(spec.indices_shape.begin(), spec.indices_shape.end() - 1);
  shape.insert(shape.end(), spec.data_shape.begin() + spec.attribute + spec.indices_shape.back(),
               spec.data_shape.end());
  return shape;
}

const OperatorRow kGather = {
    "Gather",
    false,
    "axis",
    recordGather,
    recordGather,
    axisIndices,
    gatherShape,
    [](const std::vector<uint8_t>& data, const std::vector<uint8_t>& indices, const IndexingSpec& spec) {
      return cpuGather(data, spec.data_shape, elementSize(spec.data_type), indices, spec.index_type, spec.attribute);
    }};

const OperatorRow kGatherElements = {
    "GatherElements",
    false,
    "axis",
    recordGatherElements,
    nullptr,
    axisIndices,
    indicesShape,
    [](const std::vector<uint8_t>& data, const std::vector<uint8_t>& indices, const IndexingSpec& spec) {
      return cpuGatherElements(data, spec.data_shape, elementSize(spec.data_type), indices, spec.indices_shape,
                               spec.index_type, spec.attribute);
    }};

const OperatorRow kGatherND = {
    "GatherND",
    true,
    "batch_dims",
    recordGatherND,
    recordGatherND,
    tupleIndices,
    gatherNDShape,
    [](const std::vector<uint8_t>& data, const std::vector<uint8_t>& indices, const IndexingSpec& spec) {
      return cpuGatherND(data, spec.data_shape, elementSize(spec.data_type), indices, spec.indices_shape,
                         spec.index_type, spec.attribute);
    }};

// `host_path`: nullopt for the indices-tensor form; else the host-index form, on the planner's path
// (a null inner optional) or a forced one (Gather only).
using HostPath = std::optional<internal::ForcedPath>;

StatusOr<PreparedCase> prepare(Context& context, const OperatorRow& row, const IndexingSpec& spec, uint64_t seed,
                               const HostPath& host_path) {
  std::vector<uint8_t> data = randomBytes(elementCount(spec.data_shape) * elementSize(spec.data_type), seed);
  auto indices = std::make_shared<std::vector<uint8_t>>(row.indices(spec, seed + 1));
  PreparedCase prepared;
  prepared.expected = row.expected(data, *indices, spec);

  VKINDEX_ASSIGN_OR_RETURN(Tensor data_tensor,
                           Tensor::fromHost(context, spec.data_type, spec.data_shape, data.data(), data.size()));
  VKINDEX_ASSIGN_OR_RETURN(prepared.output, Tensor::create(context, spec.data_type, row.output_shape(spec)));
  prepared.inputs.push_back(std::move(data_tensor));
  if (row.record_host) {
    // The same rows as copy regions, for the host floor: for a device-index row too, since it tells what
    // the rows' access pattern costs this machine's memory, apart from any kernel.
    prepared.copy_regions = [&row, spec, indices](const Tensor& data_input) {
      const HostIndices host{spec.index_type, spec.indices_shape, indices->data()};
      return internal::hostIndexCopyRegions(data_input, host, spec.attribute, row.nd);
    };
    prepared.host_data = std::move(data);
  }
  if (host_path) {
    prepared.record = [&row, spec, indices, forced = *host_path](Context& ctx, VkCommandBuffer cmd,
                                                                 const std::vector<Tensor>& inputs, Tensor& output) {
      const HostIndices host{spec.index_type, spec.indices_shape, indices->data()};
      if (forced)
        return internal::recordGatherWithHostIndices(ctx, cmd, inputs[0], host, spec.attribute, output, forced);
      return row.record_host(ctx, cmd, inputs[0], host, spec.attribute, output);
    };
    return prepared;
  }
  VKINDEX_ASSIGN_OR_RETURN(Tensor index_tensor, Tensor::fromHost(context, spec.index_type, spec.indices_shape,
                                                                 indices->data(), indices->size()));
  prepared.inputs.push_back(std::move(index_tensor));
  prepared.record = [record = row.record, attribute = spec.attribute](
                        Context& ctx, VkCommandBuffer cmd, const std::vector<Tensor>& inputs, Tensor& output) {
    return record(ctx, cmd, inputs[0], inputs[1], attribute, output);
  };
  return prepared;
}

Workload workload(std::string name, const OperatorRow& row, const IndexingSpec& spec, uint64_t seed,
                  const HostPath& host_path = std::nullopt) {
  Workload workload;
  workload.name = std::move(name);
  workload.op = row.op;
  workload.shapes = shapeText(spec.data_type, spec.data_shape) + " x " + (host_path ? "host " : "") +
                    shapeText(spec.index_type, spec.indices_shape) + ", " + row.attribute_name + " " +
                    std::to_string(spec.attribute);
  workload.prepare = [&row, spec, seed, host_path](Context& context) {
    return prepare(context, row, spec, seed, host_path);
  };
  return workload;
}

}  // namespace

std::string shapeText(DataType type, const Shape& shape) {
  std::string text = std::string(dataTypeName(type)) + "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

Workload hostIndexGatherWorkload(std::string name, DataType data_type, Shape data_shape, DataType index_type,
                                 Shape indices_shape, internal::ForcedPath path, uint64_t seed) {
  return workload(std::move(name), kGather, {data_type, std::move(data_shape), index_type, std::move(indices_shape), 0},
                  seed, HostPath(path));
}

Workload gatherWorkload(std::string name, DataType data_type, Shape data_shape, DataType index_type,
                        Shape indices_shape, int64_t axis, uint64_t seed) {
  return workload(std::move(name), kGather,
                  {data_type, std::move(data_shape), index_type, std::move(indices_shape), axis}, seed);
}

Workload gatherNDWorkload(std::string name, DataType data_type, Shape data_shape, DataType index_type,
                          Shape indices_shape, int64_t batch_dims, uint64_t seed) {
  return workload(std::move(name), kGatherND,
                  {data_type, std::move(data_shape), index_type, std::move(indices_shape), batch_dims}, seed);
}

std::vector<Workload> workloads(bool quick) {
  using DT = DataType;
  // Full sizes: outputs of 8 to 32 MiB, large enough that launch overhead does not dominate. Quick
  // sizes keep every shape property (row widths, sub-word rows) at a fraction of the bytes.
  const int64_t vocab = quick ? 4000 : 32000;
  const int64_t hidden = quick ? 256 : 1024;
  const int64_t tokens = quick ? 1024 : 8192;
  // GatherElements: a square float matrix, indices of the same shape; 16 MiB out (quick: 1 MiB).
  const int64_t side = quick ? 512 : 2048;
  // GatherND: 8 batches of 1 KiB rows (quick: 256 B), half the rows picked per batch; 16 MiB out (quick: 1 MiB).
  const int64_t nd_rows = quick ? 1024 : 4096;
  const int64_t nd_width = quick ? 64 : 256;
  // Middle-axis Gather: 256-byte rows (quick: 64 B) picked along dim 1, many outer slices; 16 MiB out.
  const Shape middle_shape = {quick ? 16 : 64, quick ? 1024 : 4096, quick ? 16 : 64};
  const Shape middle_picks = {quick ? 256 : 1024};
  std::vector<Workload> rows = {
      // Token embedding lookup: whole 4 KiB rows picked from a 125 MiB table.
      workload("embedding", kGather, {DT::kFloat32, {vocab, hidden}, DT::kInt64, {tokens}, 0}, 1),
      // Gather on a middle axis (middle_shape above).
      workload("middle-axis", kGather, {DT::kFloat32, middle_shape, DT::kInt64, middle_picks, 1}, 2),
      // One byte per gathered element and rows of 4099 bytes (not word multiples): the byte-assembly path.
      workload("uint8-rows", kGather,
               {DT::kUInt8, {quick ? 512 : 4096, quick ? 515 : 4099}, DT::kInt32, {quick ? 256 : 2048}, 1}, 3),
      // What bounds uint8-rows: the same picks in address order (is it the random access?), and the same
      // picks of 4-byte elements (float32, 4x the bytes: is its cost per element or per byte?).
      workload("uint8-rows-ascending", kGather,
               {DT::kUInt8,
                {quick ? 512 : 4096, quick ? 515 : 4099},
                DT::kInt32,
                {quick ? 256 : 2048},
                1,
                IndexOrder::kAscending},
               3),
      workload("float32-columns", kGather,
               {DT::kFloat32, {quick ? 512 : 4096, quick ? 515 : 4099}, DT::kInt32, {quick ? 256 : 2048}, 1}, 3),
      // The embedding again with int32 indices: what the narrower index type saves or costs.
      workload("embedding-i32", kGather, {DT::kFloat32, {vocab, hidden}, DT::kInt32, {tokens}, 0}, 1),
      // The embedding and middle-axis gathers with indices 0, 1, 2, ...: the same kernels reading rows in
      // order. Their distance from the rows above is what the random access pattern costs.
      workload("embedding-ascending", kGather,
               {DT::kFloat32, {vocab, hidden}, DT::kInt64, {tokens}, 0, IndexOrder::kAscending}, 1),
      workload("middle-axis-ascending", kGather,
               {DT::kFloat32, middle_shape, DT::kInt64, middle_picks, 1, IndexOrder::kAscending}, 2),
      // Element-wise picks down the columns: consecutive outputs read from rows far apart.
      workload("elements-axis0", kGatherElements, {DT::kFloat32, {side, side}, DT::kInt64, {side, side}, 0}, 4),
      // Element-wise picks within each row: reads stay inside one 8 KiB row (quick: 2 KiB).
      workload("elements-axis1", kGatherElements, {DT::kFloat32, {side, side}, DT::kInt64, {side, side}, 1}, 5),
      // Row lookup per batch (batch_dims 1, one-component tuples): whole rows, like a batched embedding.
      workload("gathernd-rows", kGatherND, {DT::kFloat32, {8, nd_rows, nd_width}, DT::kInt64, {8, nd_rows / 2, 1}, 1},
               6),
  };
  // The same row gathers with the indices in host memory (HostIndices): copy regions where rows are
  // large enough, as an LLM decoder's token ids from a CPU sampler.
  const HostPath planner = internal::ForcedPath();
  rows.push_back(
      workload("embedding-host", kGather, {DT::kFloat32, {vocab, hidden}, DT::kInt64, {tokens}, 0}, 1, planner));
  rows.push_back(
      workload("middle-axis-host", kGather, {DT::kFloat32, middle_shape, DT::kInt64, middle_picks, 1}, 2, planner));
  rows.push_back(workload("gathernd-rows-host", kGatherND,
                          {DT::kFloat32, {8, nd_rows, nd_width}, DT::kInt64, {8, nd_rows / 2, 1}, 1}, 6, planner));
  for (Workload& row : gbqWorkloads(quick)) rows.push_back(std::move(row));
  for (Workload& row : scatterWorkloads(quick)) rows.push_back(std::move(row));
  return rows;
}

}  // namespace vkindex::bench
