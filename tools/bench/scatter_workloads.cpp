// The benchmark's scatter rows: ScatterElements and ScatterND on float32 (one row int32) data with int64
// indices (the sweep's ScatterND points: int32, and any element type), out of place (the output is a
// copy of data with the updates applied: the baselines copy the whole output) or in place (only the
// updated bytes are written: the baselines copy that many bytes).
#include <random>
#include <utility>

#include "host_data.hpp"
#include "workloads.hpp"

namespace vkindex::bench {
namespace {

// One scatter row: ScatterND, or ScatterElements along `axis`.
struct ScatterSpec {
  bool nd;
  Shape data_shape;
  Shape indices_shape;
  int64_t axis;  // ScatterElements only
  Reduction reduction;
  bool in_place;
  // The index values, row-major in indices' shape (valid for data's shape).
  std::vector<int64_t> (*indices)(const ScatterSpec& spec, uint64_t seed);
  DataType type = DataType::kFloat32;  // of data and updates: float32, or int32 (see cpuScatterElements)
  DataType index_type = DataType::kInt64;
};

// indices.shape for ScatterElements; indices.shape[:-1] + data.shape[k:] for ScatterND.
Shape updatesShape(const ScatterSpec& spec) {
  if (!spec.nd) return spec.indices_shape;
  Shape shape(spec.indices_shape.begin(), spec.indices_shape.end() - 1);
  shape.insert(shape.end(), spec.data_shape.begin() + spec.indices_shape.back(), spec.data_shape.end());
  return shape;
}

// ScatterElements, axis 0 of a square matrix: each column gets its own permutation of the rows, so every
// element is written exactly once.
std::vector<int64_t> columnPermutations(const ScatterSpec& spec, uint64_t seed) {
  const int64_t rows = spec.indices_shape[0], columns = spec.indices_shape[1];
  std::vector<int64_t> values(static_cast<size_t>(rows * columns));
  for (int64_t column = 0; column < columns; ++column) {
    std::vector<int64_t> permutation = randomPermutation(rows, seed + static_cast<uint64_t>(column));
    for (int64_t row = 0; row < rows; ++row) {
      values[static_cast<size_t>(row * columns + column)] = permutation[static_cast<size_t>(row)];
    }
  }
  return values;
}

// ScatterElements on a vector: a random permutation of its positions.
std::vector<int64_t> vectorPermutation(const ScatterSpec& spec, uint64_t seed) {
  return randomPermutation(spec.indices_shape[0], seed);
}

// ScatterElements, axis 0: indices[i][j] = i / 8, so rows 8t..8t+7 of updates all land on row t.
std::vector<int64_t> eightPerRow(const ScatterSpec& spec, uint64_t) {
  const int64_t rows = spec.indices_shape[0], columns = spec.indices_shape[1];
  std::vector<int64_t> values(static_cast<size_t>(rows * columns));
  for (int64_t i = 0; i < rows * columns; ++i) values[static_cast<size_t>(i)] = i / columns / 8;
  return values;
}

// Every index (of either operator) a uniformly random position along data's first dim: with eight
// times as many updates as targets, about eight per target, spread through the indices.
std::vector<int64_t> randomTargets(const ScatterSpec& spec, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> target(0, spec.data_shape[0] - 1);
  std::vector<int64_t> values(static_cast<size_t>(elementCount(spec.indices_shape)));
  for (int64_t& value : values) value = target(rng);
  return values;
}

// Every index one of 16 targets spread evenly through data's first dim, at random: a few hot
// targets in a large tensor.
std::vector<int64_t> sixteenSpreadTargets(const ScatterSpec& spec, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> pick(0, 15);
  std::vector<int64_t> values(static_cast<size_t>(elementCount(spec.indices_shape)));
  for (int64_t& value : values) value = pick(rng) * (spec.data_shape[0] / 16);
  return values;
}

// ScatterND, one-component tuples: distinct random rows of data.
std::vector<int64_t> distinctRows(const ScatterSpec& spec, uint64_t seed) {
  std::vector<int64_t> rows = randomPermutation(spec.data_shape[0], seed);
  rows.resize(static_cast<size_t>(spec.indices_shape[0]));
  return rows;
}

// ScatterND, one-component tuples: tuple i addresses row i mod (tuples / 8), so each of those rows gets
// 8 updates, spread through indices.
std::vector<int64_t> eightPerTargetRow(const ScatterSpec& spec, uint64_t) {
  const int64_t tuples = spec.indices_shape[0];
  std::vector<int64_t> rows(static_cast<size_t>(tuples));
  for (int64_t i = 0; i < tuples; ++i) rows[static_cast<size_t>(i)] = i % (tuples / 8);
  return rows;
}

StatusOr<PreparedCase> prepareScatter(Context& context, const ScatterSpec& spec, uint64_t seed) {
  const DataType type = spec.type;
  const size_t element_size = elementSize(type);
  const Shape updates_shape = updatesShape(spec);
  // Float reductions get exact small floats; integer ones and plain scatters take any bits.
  const bool small_floats = spec.reduction != Reduction::kNone && type == DataType::kFloat32;
  std::vector<uint8_t> data = small_floats ? smallFloats(elementCount(spec.data_shape), seed)
                                           : randomBytes(elementCount(spec.data_shape) * element_size, seed);
  std::vector<uint8_t> updates = small_floats ? smallFloats(elementCount(updates_shape), seed + 1)
                                              : randomBytes(elementCount(updates_shape) * element_size, seed + 1);
  std::vector<int64_t> indices = spec.indices(spec, seed + 2);

  PreparedCase prepared;
  prepared.expected =
      spec.nd ? cpuScatterND(data, spec.data_shape, type, indices, spec.indices_shape, updates, spec.reduction)
              : cpuScatterElements(data, spec.data_shape, type, indices, spec.indices_shape, updates, spec.axis,
                                   spec.reduction);
  VKINDEX_ASSIGN_OR_RETURN(Tensor data_tensor,
                           Tensor::fromHost(context, type, spec.data_shape, data.data(), data.size()));
  const std::vector<uint8_t> index_bytes = indexBytes(spec.index_type, indices);
  VKINDEX_ASSIGN_OR_RETURN(Tensor index_tensor, Tensor::fromHost(context, spec.index_type, spec.indices_shape,
                                                                 index_bytes.data(), index_bytes.size()));
  VKINDEX_ASSIGN_OR_RETURN(Tensor update_tensor,
                           Tensor::fromHost(context, type, updates_shape, updates.data(), updates.size()));
  if (spec.in_place) {
    // data is the output; the baselines copy only as many bytes as the updates write.
    prepared.output = std::move(data_tensor);
    prepared.baseline_bytes = updates.size();
  } else {
    VKINDEX_ASSIGN_OR_RETURN(prepared.output, Tensor::create(context, type, spec.data_shape));
    prepared.inputs.push_back(std::move(data_tensor));
  }
  prepared.inputs.push_back(std::move(index_tensor));
  prepared.inputs.push_back(std::move(update_tensor));
  prepared.record = [spec](Context& ctx, VkCommandBuffer cmd, const std::vector<Tensor>& inputs, Tensor& output) {
    // In place: inputs are (indices, updates) and data is `output` itself.
    const Tensor& data_in = spec.in_place ? output : inputs[0];
    const Tensor& indices_in = inputs[spec.in_place ? 0 : 1];
    const Tensor& updates_in = inputs[spec.in_place ? 1 : 2];
    return spec.nd
               ? recordScatterND(ctx, cmd, data_in, indices_in, updates_in, spec.reduction, output)
               : recordScatterElements(ctx, cmd, data_in, indices_in, updates_in, spec.axis, spec.reduction, output);
  };
  return prepared;
}

Workload scatterWorkload(std::string name, const ScatterSpec& spec, uint64_t seed) {
  Workload workload;
  workload.name = std::move(name);
  workload.op = spec.nd ? "ScatterND" : "ScatterElements";
  workload.shapes = shapeText(spec.type, spec.data_shape) + " x " + shapeText(spec.index_type, spec.indices_shape) +
                    " x " + shapeText(spec.type, updatesShape(spec)) +
                    (spec.nd ? "" : ", axis " + std::to_string(spec.axis)) + ", reduction " +
                    reductionName(spec.reduction) + (spec.in_place ? ", in place" : "");
  workload.prepare = [spec, seed](Context& context) { return prepareScatter(context, spec, seed); };
  return workload;
}

}  // namespace

Workload scatterNDRowsWorkload(std::string name, DataType type, Shape data_shape, uint64_t seed) {
  const Shape indices_shape = {data_shape[0], 1};
  return scatterWorkload(
      std::move(name),
      {true, std::move(data_shape), indices_shape, 0, Reduction::kNone, true, distinctRows, type, DataType::kInt32},
      seed);
}

std::vector<Workload> scatterWorkloads(bool quick) {
  // ScatterElements: a square float matrix, indices and updates of the same shape; 16 MiB out (quick: 1 MiB).
  const int64_t side = quick ? 512 : 2048;
  // ScatterND rows: 4096 rows of 4 KiB into the 125 MiB embedding table (quick: 512 rows of 1 KiB into 3.9 MiB).
  const int64_t vocab = quick ? 4000 : 32000;
  const int64_t hidden = quick ? 256 : 1024;
  const int64_t updated_rows = quick ? 512 : 4096;
  const Shape table = {vocab, hidden};
  const Shape row_indices = {updated_rows, 1};
  // ScatterND add: as many updates as data rows, 8 per target row; 16 MiB out (quick: 512 KiB).
  const Shape accumulator = {updated_rows, hidden};
  return {
      // Every element moved once, to a different row of its column: writes far apart.
      scatterWorkload("scatter-perm",
                      {false, {side, side}, {side, side}, 0, Reduction::kNone, false, columnPermutations}, 11),
      // A permutation of a vector: a single line, so every update goes at once through the winner
      // table where Tuning::min_walk_lines is above 1, and one invocation walks them all otherwise.
      scatterWorkload("scatter-1d-perm",
                      {false, {side * side}, {side * side}, 0, Reduction::kNone, false, vectorPermutation}, 15),
      // The same permutation as ScatterND tuples of one component, each a one-element slice: ScatterND
      // claims its winner table at every device threshold.
      scatterWorkload("scatternd-1d-perm",
                      {true, {side * side}, {side * side, 1}, 0, Reduction::kNone, false, vectorPermutation}, 15),
      // A histogram-like add onto a vector, eight updates per target at random: a single line (ScatterElements)
      // or one-element slices (ScatterND), so the fold by owner serves both where Tuning::min_walk_lines
      // is above 1, and one invocation walks every update otherwise.
      scatterWorkload("scatter-1d-add",
                      {false, {side * side / 8}, {side * side}, 0, Reduction::kAdd, false, randomTargets}, 16),
      scatterWorkload("scatternd-1d-add",
                      {true, {side * side / 8}, {side * side, 1}, 0, Reduction::kAdd, false, randomTargets}, 16),
      // A few thousand updates in place into a large vector (the 16 MiB vector above, side * 2 updates at
      // random), through the winner table and the fold: what a call costs should follow the updates,
      // not the data.
      scatterWorkload("scatter-1d-sparse", {false, {side * side}, {side * 2}, 0, Reduction::kNone, true, randomTargets},
                      17),
      scatterWorkload("scatter-1d-add-sparse",
                      {false, {side * side}, {side * 2}, 0, Reduction::kAdd, true, randomTargets}, 17),
      // Duplicate-heavy: every update of a 16 MiB vector (quick: 1 MiB) added onto one of 16 elements at
      // random, so every target is heavy and folds its ~2^18 updates in index order; and the same kept
      // when larger.
      scatterWorkload("scatter-1d-add-hot", {false, {16}, {side * side}, 0, Reduction::kAdd, false, randomTargets}, 18),
      scatterWorkload("scatter-1d-max-hot", {false, {16}, {side * side}, 0, Reduction::kMax, false, randomTargets}, 18),
      // The same 16 hot targets spread through the 16 MiB vector, in place (a gradient onto a few rows of a
      // large table): the plan must allow for a heavy target per VKINDEX_MAX_BUCKET + 1 updates, and
      // learns only on the device that there are 16.
      scatterWorkload("scatter-1d-wide-add-hot",
                      {false, {side * side}, {side * side}, 0, Reduction::kAdd, true, sixteenSpreadTargets}, 18),
      // The same add on int32 (the *_int32 modules). Integer adds give the same bits in any order, so
      // this is the row where a fold in parallel, which float adds cannot have, would show.
      scatterWorkload("scatter-1d-i32-add-hot",
                      {false, {16}, {side * side}, 0, Reduction::kAdd, false, randomTargets, DataType::kInt32}, 18),
      // Forty updates per target on average (the same updates onto side * side / 40 elements): light
      // buckets of a few dozen, which the owners sort in chunks of 32 and merge.
      scatterWorkload("scatter-1d-add-dup40",
                      {false, {side * side / 40}, {side * side}, 0, Reduction::kAdd, false, randomTargets}, 19),
      // Eight float additions onto each of the first side/8 rows, in index order.
      scatterWorkload("scatter-add-dup8", {false, {side, side}, {side, side}, 0, Reduction::kAdd, false, eightPerRow},
                      12),
      // The same eight updates per target kept when larger (max, as in segment max-pooling).
      scatterWorkload("scatter-max-dup8", {false, {side, side}, {side, side}, 0, Reduction::kMax, false, eightPerRow},
                      12),
      // Embedding-table update: whole rows, out of place (the output is a copy of the table) ...
      scatterWorkload("scatternd-rows", {true, table, row_indices, 0, Reduction::kNone, false, distinctRows}, 13),
      // ... and in place (only the updated rows are written).
      scatterWorkload("scatternd-rows-inplace", {true, table, row_indices, 0, Reduction::kNone, true, distinctRows},
                      13),
      // Gradient-style accumulation: 8 row updates added onto each target row.
      scatterWorkload("scatternd-add-dup",
                      {true, accumulator, row_indices, 0, Reduction::kAdd, false, eightPerTargetRow}, 14),
  };
}

}  // namespace vkindex::bench
