// Random small operator calls for the soak test (soak_test.cpp). A kind fixes the operator (Gather,
// GatherElements, GatherND, ScatterElements or ScatterND), the data type (strings aside: they never
// reach the device), the index type and, for the scatters, the reduction, all drawn at random; each
// case of a kind then draws its rank (1-3), axis, shapes and values. Each case carries its CPU
// reference result, so that generating it needs no Context and running it needs no reference.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "support/host_tensor.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {

struct SoakKind {
  int op = 0;  // 0 Gather, 1 GatherElements, 2 GatherND, 3 ScatterElements, 4 ScatterND
  DataType dtype = DataType::kFloat32;
  DataType index_type = DataType::kInt64;
  Reduction reduction = Reduction::kNone;  // one the type defines (scatters only)
};

// A random kind.
SoakKind randomSoakKind(Rng& rng);

struct SoakCase {
  std::string description;         // operator, attributes and input shapes, for a mismatch report
  std::vector<HostTensor> inputs;  // data, indices, and updates for the scatters
  HostTensor expected;             // the CPU reference's output
  std::function<StatusOr<Tensor>(Context&, const std::vector<Tensor>&)> run;  // the new-output form
  // The CPU reference for other inputs of the same shapes and attributes (the differential fuzzer
  // plants bad index values).
  std::function<ReferenceResult(const std::vector<HostTensor>&)> reference;
};

// A random case of `kind`; its inputs are small (data of at most 64 elements) so that the soak is
// about many calls, not about large ones.
SoakCase randomSoakCase(Rng& rng, const SoakKind& kind);

// How running a case ended.
enum class SoakOutcome {
  kMatch,        // the device's bytes equal the reference's
  kMismatch,     // they differ (or the shape or type does)
  kUnsupported,  // the device cannot run this type or reduction (kUnsupported, a visible count)
  kError,        // any other failure status
};

// Uploads the inputs to `context`, runs the case and compares the output with its reference.
// `detail` receives the failing status or the first differing byte for kMismatch and kError.
SoakOutcome runSoakCase(Context& context, const SoakCase& soak_case, std::string& detail);

}  // namespace vkindex::test
