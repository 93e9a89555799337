#include "gpu/scatter/scatter_errors_fixture.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "support/error_checks.hpp"

namespace vkindex::test {

std::string ScatterCall::description() const {
  return std::string(op == Op::kScatterND ? "ScatterND" : "ScatterElements") + ": data " + describe(data) +
         ", indices " + describe(indices) + ", updates " + describe(updates) + ", axis " + std::to_string(axis) +
         ", reduction " + reductionName(reduction);
}

ScatterOperator ScatterCall::bind(Context& context) const {
  if (op == Op::kScatterElements) return scatterElementsOperator(context, axis, reduction);
  return scatterNDOperator(context, reduction);
}

ReferenceResult ScatterCall::reference() const {
  if (op == Op::kScatterElements) return referenceScatterElements(data, indices, updates, axis, reduction);
  return referenceScatterND(data, indices, updates, reduction);
}

std::string ScatterCall::outOfRangeMessage(uint64_t position) const {
  if (op == Op::kScatterElements) return axisIndexMessage("ScatterElements", data.shape, indices, axis, position);
  return tupleIndexMessage("ScatterND", data.shape, indices, 0, position);
}

ScatterCall ScatterErrorsTest::elements(HostTensor data, HostTensor indices, HostTensor updates, int64_t axis,
                                        Reduction reduction) {
  return {Op::kScatterElements, std::move(data), std::move(indices), std::move(updates), axis, reduction};
}

ScatterCall ScatterErrorsTest::nd(HostTensor data, HostTensor indices, HostTensor updates, Reduction reduction) {
  return {Op::kScatterND, std::move(data), std::move(indices), std::move(updates), 0, reduction};
}

HostTensor ScatterErrorsTest::floats(Shape shape) {
  Rng rng(7);
  return randomTensor(rng, DataType::kFloat32, std::move(shape));
}

HostTensor ScatterErrorsTest::values(DataType dtype, Shape shape) {
  Rng rng(8);
  return randomTensor(rng, dtype, std::move(shape));
}

HostTensor ScatterErrorsTest::zeros(DataType index_type, Shape shape) {
  uint64_t count = 1;
  for (int64_t dim : shape) count *= static_cast<uint64_t>(dim);
  return indexTensor(index_type, std::move(shape), std::vector<int64_t>(count, 0));
}

void ScatterErrorsTest::expectError(Context& ctx, const Call& call, StatusCode code, const std::string& message) {
  SCOPED_TRACE(call.description());
  expectErrorInEveryForm(ctx, call.bind(ctx), call.inputs(), code, message);
}

void ScatterErrorsTest::expectOutOfRange(Context& ctx, const Call& call) {
  const std::optional<uint64_t> position = call.reference().bad_index_position;
  ASSERT_TRUE(position.has_value()) << call.description();
  expectError(ctx, call, StatusCode::kOutOfRange, call.outOfRangeMessage(*position));
}

}  // namespace vkindex::test
