#include "gpu/scatter/scatter_elements_cases.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "support/reduction_values.hpp"

namespace vkindex::test {

void expectAllFormsMatchReference(Context& context, const ScatterElementsCase& c, Forms forms) {
  expectCaseMatchesReference(context, c, forms);
}
void expectHandWritten(Context& context, const ScatterElementsCase& c, const HostTensor& expected) {
  expectCaseGives(context, c, expected);
}

ScatterElementsCase randomElementsCase(Rng& rng, DataType dtype, DataType index_type, size_t rank, int64_t axis,
                                       Reduction reduction, bool few_targets, uint64_t max_elements) {
  ScatterElementsCase c;
  c.axis = axis;
  c.reduction = reduction;
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
  c.data = reductionValues(rng, dtype, randomShape(rng, rank, max_elements));
  const int64_t s = c.data.shape[a];
  // Smaller, equal or larger than data's axis dim (up to 2s + 3; longer with few targets).
  const Shape index_shape =
      randomElementsIndexShape(rng, c.data.shape, a, few_targets ? 2 * s + 12 : 2 * s + 3, max_elements);
  uint64_t count = 1;
  for (int64_t dim : index_shape) count *= static_cast<uint64_t>(dim);
  std::vector<int64_t> values(count);
  const int64_t targets[2] = {std::uniform_int_distribution<int64_t>(0, std::max<int64_t>(s, 1) - 1)(rng),
                              std::uniform_int_distribution<int64_t>(0, std::max<int64_t>(s, 1) - 1)(rng)};
  const int64_t pool = 1 + static_cast<int64_t>(rng() % 2);
  for (int64_t& v : values) {
    if (few_targets) {
      v = targets[rng() % static_cast<uint64_t>(pool)] - (rng() % 2 ? s : 0);
    } else {
      v = std::uniform_int_distribution<int64_t>(-s, s - 1)(rng);
    }
  }
  c.indices = indexTensor(index_type, index_shape, values);
  c.updates = reductionValues(rng, dtype, index_shape);
  return c;
}

}  // namespace vkindex::test
