#include "soak_cases.hpp"

#include <algorithm>

#include "support/defined_reductions.hpp"
#include "support/reduction_values.hpp"

namespace vkindex::test {
namespace {

constexpr uint64_t kMaxDataElements = 64;

template <typename T>
T pickFrom(Rng& rng, const std::vector<T>& choices) {
  return choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng)];
}

DataType randomDataType(Rng& rng) {
  std::vector<DataType> types;
  for (DataType type : kClassicDataTypes) {
    if (type != DataType::kString) types.push_back(type);
  }
  return pickFrom(rng, types);
}

int64_t uniform(Rng& rng, int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(rng); }

// A data shape of rank 1-3 whose dims [first, last) are at least 1: an indexed dim of size 0 admits
// no index value.
Shape randomDataShape(Rng& rng, size_t rank, size_t first, size_t last) {
  Shape shape = randomShape(rng, rank, kMaxDataElements);
  for (size_t d = first; d < last; ++d) shape[d] = std::max<int64_t>(shape[d], 1);
  return shape;
}

// Indices for the Elements operators: each dim other than `axis` at most data's, the axis dim in
// [1, 2s] (so targets repeat), values in [-s, s-1].
HostTensor elementsIndices(Rng& rng, DataType index_type, const Shape& data_shape, size_t axis) {
  Shape shape(data_shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    shape[d] = d == axis ? uniform(rng, 1, 2 * data_shape[d]) : uniform(rng, 0, data_shape[d]);
  }
  return randomIndices(rng, index_type, shape, data_shape[axis]);
}

Reduction randomReduction(Rng& rng, DataType type) {
  std::vector<Reduction> defined;
  for (Reduction r : {Reduction::kNone, Reduction::kAdd, Reduction::kMul, Reduction::kMax, Reduction::kMin}) {
    if (reductionDefined(type, r)) defined.push_back(r);
  }
  return pickFrom(rng, defined);
}

// A rank in [1, 3], an axis of either sign, and the axis as a dim.
struct AxisDraw {
  size_t rank;
  int64_t axis;
  size_t a;
};
AxisDraw drawAxis(Rng& rng) {
  const size_t rank = static_cast<size_t>(uniform(rng, 1, 3));
  const int64_t axis = uniform(rng, -static_cast<int64_t>(rank), static_cast<int64_t>(rank) - 1);
  return {rank, axis, static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis)};
}

std::string describeInputs(const std::vector<HostTensor>& inputs) {
  std::string text;
  for (const HostTensor& input : inputs) text += " " + describe(input);
  return text;
}

SoakCase gatherCase(Rng& rng, const SoakKind& kind) {
  const AxisDraw draw = drawAxis(rng);
  const int64_t axis = draw.axis;
  const HostTensor data = randomTensor(rng, kind.dtype, randomDataShape(rng, draw.rank, draw.a, draw.a + 1));
  const Shape index_shape = randomShape(rng, static_cast<size_t>(uniform(rng, 0, 2)), 16);
  const HostTensor indices = randomIndices(rng, kind.index_type, index_shape, data.shape[draw.a]);
  SoakCase c{"Gather axis " + std::to_string(axis), {data, indices}, {}, {}, {}};
  c.run = [axis](Context& context, const std::vector<Tensor>& in) { return gather(context, in[0], in[1], axis); };
  c.reference = [axis](const std::vector<HostTensor>& in) { return referenceGather(in[0], in[1], axis); };
  return c;
}

SoakCase gatherElementsCase(Rng& rng, const SoakKind& kind) {
  const AxisDraw draw = drawAxis(rng);
  const int64_t axis = draw.axis;
  const HostTensor data = randomTensor(rng, kind.dtype, randomDataShape(rng, draw.rank, draw.a, draw.a + 1));
  const HostTensor indices = elementsIndices(rng, kind.index_type, data.shape, draw.a);
  SoakCase c{"GatherElements axis " + std::to_string(axis), {data, indices}, {}, {}, {}};
  c.reference = [axis](const std::vector<HostTensor>& in) { return referenceGatherElements(in[0], in[1], axis); };
  c.run = [axis](Context& context, const std::vector<Tensor>& in) {
    return gatherElements(context, in[0], in[1], axis);
  };
  return c;
}

SoakCase gatherNDCase(Rng& rng, const SoakKind& kind) {
  const size_t rank = static_cast<size_t>(uniform(rng, 1, 3));
  const size_t k = static_cast<size_t>(uniform(rng, 1, static_cast<int64_t>(rank)));
  const HostTensor data = randomTensor(rng, kind.dtype, randomDataShape(rng, rank, 0, k));
  Shape index_shape = randomShape(rng, static_cast<size_t>(uniform(rng, 0, 2)), 16);
  index_shape.push_back(static_cast<int64_t>(k));
  const HostTensor indices = randomTuples(rng, kind.index_type, index_shape, data.shape, 0);
  SoakCase c{"GatherND", {data, indices}, {}, {}, {}};
  c.reference = [](const std::vector<HostTensor>& in) { return referenceGatherND(in[0], in[1], 0); };
  c.run = [](Context& context, const std::vector<Tensor>& in) { return gatherND(context, in[0], in[1], 0); };
  return c;
}

SoakCase scatterElementsCase(Rng& rng, const SoakKind& kind) {
  const AxisDraw draw = drawAxis(rng);
  const int64_t axis = draw.axis;
  const DataType type = kind.dtype;
  const Reduction reduction = kind.reduction;
  const HostTensor data = reductionValues(rng, type, randomDataShape(rng, draw.rank, draw.a, draw.a + 1));
  const HostTensor indices = elementsIndices(rng, kind.index_type, data.shape, draw.a);
  const HostTensor updates = reductionValues(rng, type, indices.shape);
  SoakCase c{"ScatterElements axis " + std::to_string(axis) + " reduction " + reductionName(reduction),
             {data, indices, updates},
             {},
             {},
             {}};
  c.reference = [axis, reduction](const std::vector<HostTensor>& in) {
    return referenceScatterElements(in[0], in[1], in[2], axis, reduction);
  };
  c.run = [axis, reduction](Context& context, const std::vector<Tensor>& in) {
    return scatterElements(context, in[0], in[1], in[2], axis, reduction);
  };
  return c;
}

SoakCase scatterNDCase(Rng& rng, const SoakKind& kind) {
  const size_t rank = static_cast<size_t>(uniform(rng, 1, 3));
  const size_t k = static_cast<size_t>(uniform(rng, 1, static_cast<int64_t>(rank)));
  const DataType type = kind.dtype;
  const Reduction reduction = kind.reduction;
  const HostTensor data = reductionValues(rng, type, randomDataShape(rng, rank, 0, k));
  Shape index_shape = randomShape(rng, static_cast<size_t>(uniform(rng, 0, 1)), 8);
  Shape update_shape = index_shape;
  update_shape.insert(update_shape.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(k), data.shape.end());
  index_shape.push_back(static_cast<int64_t>(k));
  const HostTensor indices = randomTuples(rng, kind.index_type, index_shape, data.shape, 0);
  const HostTensor updates = reductionValues(rng, type, update_shape);
  SoakCase c{std::string("ScatterND reduction ") + reductionName(reduction), {data, indices, updates}, {}, {}, {}};
  c.reference = [reduction](const std::vector<HostTensor>& in) {
    return referenceScatterND(in[0], in[1], in[2], reduction);
  };
  c.run = [reduction](Context& context, const std::vector<Tensor>& in) {
    return scatterND(context, in[0], in[1], in[2], reduction);
  };
  return c;
}

}  // namespace

SoakKind randomSoakKind(Rng& rng) {
  SoakKind kind;
  kind.op = static_cast<int>(rng() % 5);
  kind.dtype = randomDataType(rng);
  kind.index_type = rng() % 2 == 0 ? DataType::kInt32 : DataType::kInt64;
  if (kind.op >= 3) kind.reduction = randomReduction(rng, kind.dtype);
  return kind;
}

SoakCase randomSoakCase(Rng& rng, const SoakKind& kind) {
  SoakCase c;
  switch (kind.op) {
    case 0: c = gatherCase(rng, kind); break;
    case 1: c = gatherElementsCase(rng, kind); break;
    case 2: c = gatherNDCase(rng, kind); break;
    case 3: c = scatterElementsCase(rng, kind); break;
    default: c = scatterNDCase(rng, kind); break;
  }
  c.expected = c.reference(c.inputs).output;
  c.description += ":" + describeInputs(c.inputs);
  return c;
}

SoakOutcome runSoakCase(Context& context, const SoakCase& soak_case, std::string& detail) {
  auto failed = [&detail](const Status& status) {
    detail = status.toString();
    return status.code() == StatusCode::kUnsupported ? SoakOutcome::kUnsupported : SoakOutcome::kError;
  };
  std::vector<Tensor> inputs;
  for (const HostTensor& host : soak_case.inputs) {
    StatusOr<Tensor> tensor = toDevice(context, host);
    if (!tensor.ok()) return failed(tensor.status());
    inputs.push_back(std::move(tensor).value());
  }
  StatusOr<Tensor> output = soak_case.run(context, inputs);
  if (!output.ok()) return failed(output.status());
  StatusOr<HostTensor> actual = toHost(output.value());
  if (!actual.ok()) return failed(actual.status());
  const HostTensor& expected = soak_case.expected;
  if (actual.value().dtype != expected.dtype || actual.value().shape != expected.shape) {
    detail = "got " + describe(actual.value()) + ", expected " + describe(expected);
    return SoakOutcome::kMismatch;
  }
  const std::vector<uint8_t>& bytes = actual.value().bytes;
  const auto differ = std::mismatch(bytes.begin(), bytes.end(), expected.bytes.begin(), expected.bytes.end());
  if (differ.first != bytes.end() || differ.second != expected.bytes.end()) {
    detail = "first differing byte at offset " + std::to_string(differ.first - bytes.begin());
    return SoakOutcome::kMismatch;
  }
  return SoakOutcome::kMatch;
}

}  // namespace vkindex::test
