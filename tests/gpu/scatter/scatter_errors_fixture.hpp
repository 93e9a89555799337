// The fixture of the ScatterElements and ScatterND error suites (scatter_host_errors_test.cpp,
// scatter_index_errors_test.cpp): one call of either operator, and the checks that it fails with the
// exact code and message in every submitting form and writes nothing (support/scatter_forms.hpp).
#pragma once

#include <string>

#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/scatter_forms.hpp"

namespace vkindex::test {

// One call: the operator, the inputs, the axis (ScatterElements only) and the reduction.
struct ScatterCall {
  enum class Op { kScatterElements, kScatterND };
  Op op = Op::kScatterElements;
  HostTensor data;
  HostTensor indices;
  HostTensor updates;
  int64_t axis = 0;
  Reduction reduction = Reduction::kNone;

  // "ScatterND: data float [3, 2], indices ..., axis 0, reduction none".
  std::string description() const;
  // The operator bound to the call's attributes on `context`.
  ScatterOperator bind(Context& context) const;
  ScatterInputs inputs() const { return {data, indices, updates}; }
  // The reference's result.
  ReferenceResult reference() const;
  // The agreed device-side message for the bad element at `position` of the indices.
  std::string outOfRangeMessage(uint64_t position) const;
};

class ScatterErrorsTest : public GpuTest {
 protected:
  using Call = ScatterCall;
  using Op = ScatterCall::Op;

  static Call elements(HostTensor data, HostTensor indices, HostTensor updates, int64_t axis,
                       Reduction reduction = Reduction::kNone);
  static Call nd(HostTensor data, HostTensor indices, HostTensor updates, Reduction reduction = Reduction::kNone);

  // Inputs whose values do not matter: float32, any type, all-zero indices.
  static HostTensor floats(Shape shape);
  static HostTensor values(DataType dtype, Shape shape);
  static HostTensor zeros(DataType index_type, Shape shape);

  // The call fails with `code` and `message` in each submitting form, and writes nothing
  // (expectErrorInEveryForm).
  void expectError(Context& ctx, const Call& call, StatusCode code, const std::string& message);
  void expectError(const Call& call, StatusCode code, const std::string& message) {
    expectError(context(), call, code, message);
  }
  void expectInvalid(const Call& call, const std::string& message) {
    expectError(context(), call, StatusCode::kInvalidArgument, message);
  }

  // A device-side error: kOutOfRange naming the reference's first bad position, nothing written.
  void expectOutOfRange(Context& ctx, const Call& call);
  void expectOutOfRange(const Call& call) { expectOutOfRange(context(), call); }
};

}  // namespace vkindex::test
