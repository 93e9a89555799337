// The cases of the ScatterElements suites (scatter_elements_random_test.cpp,
// scatter_elements_directed_test.cpp, scatter_elements_heavy_runs_test.cpp): one call, the shared
// runners of support/scatter_forms.hpp for it, and random calls of any rank and axis.
#pragma once

#include <string>

#include "support/scatter_forms.hpp"

namespace vkindex::test {

// One call: its inputs and attributes, in the form the shared runners of scatter_forms.hpp take.
struct ScatterElementsCase {
  HostTensor data;
  HostTensor indices;
  HostTensor updates;
  int64_t axis = 0;
  Reduction reduction = Reduction::kNone;

  std::string description() const {
    return "data " + describe(data) + ", indices " + describe(indices) + ", updates " + describe(updates) + ", axis " +
           std::to_string(axis) + ", reduction " + reductionName(reduction);
  }
  ScatterOperator op(Context& context) const { return scatterElementsOperator(context, axis, reduction); }
  ScatterInputs inputs() const { return {data, indices, updates}; }
};

using ScatterElementsTest = GpuTest;

// The shared runners for these cases (a braced case cannot name a template's type).
void expectAllFormsMatchReference(Context& context, const ScatterElementsCase& c, Forms forms = Forms::kAll);
void expectHandWritten(Context& context, const ScatterElementsCase& c, const HostTensor& expected);

// A random ScatterElements call of `rank` and `axis` (any sign): data of at most `max_elements`;
// indices with each dim other than the axis at most data's (often equal, sometimes smaller, rarely 0)
// and an axis dim that may be smaller or larger than data's. With `few_targets`, every line along the
// axis sends all its updates to one or two targets (each written as v or v - s at random), so most
// targets receive many updates; otherwise the values are uniform in [-s, s-1].
ScatterElementsCase randomElementsCase(Rng& rng, DataType dtype, DataType index_type, size_t rank, int64_t axis,
                                       Reduction reduction, bool few_targets, uint64_t max_elements);

}  // namespace vkindex::test
