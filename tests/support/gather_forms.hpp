// What the Gather, GatherElements and GatherND suites share, as scatter_forms.hpp is for the scatters:
// the operator bound to its attribute (its CPU reference, its new-output and caller's-output forms and
// the agreed message of a bad index), a runner that compares a call with the reference byte for byte,
// and the error checks: a host error's exact code and message from both forms, a device error that
// names the reference's first bad index, and in either case a caller's output that keeps its canary.
#pragma once

#include <functional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {

// --- The operators ---------------------------------------------------------------------------------------

// A gather operator bound to its attribute (Gather's and GatherElements' axis, GatherND's batch_dims).
struct GatherOperator {
  std::function<ReferenceResult(const HostTensor& data, const HostTensor& indices)> reference;
  std::function<StatusOr<Tensor>(Context& context, const Tensor& data, const Tensor& indices)> run;
  std::function<Status(Context& context, const Tensor& data, const Tensor& indices, Tensor& output)> run_into;
  // The valid call's output shape (the inputs' shapes must pass the host checks).
  std::function<Shape(const HostTensor& data, const HostTensor& indices)> output_shape;
  // The agreed device-side message for the bad element at flat `position` of `indices`.
  std::function<std::string(const HostTensor& data, const HostTensor& indices, uint64_t position)> out_of_range;
  // "axis 1", "batch_dims 0": for the traces.
  std::string attribute;
};

// Bound with an index policy too: the forms and the reference take it (kSkip: the reference's zeros).
GatherOperator gatherOperator(int64_t axis, IndexPolicy policy);
GatherOperator gatherElementsOperator(int64_t axis, IndexPolicy policy);
GatherOperator gatherNDOperator(int64_t batch_dims, IndexPolicy policy);
// ONNX's rule (IndexPolicy::kError).
inline GatherOperator gatherOperator(int64_t axis) { return gatherOperator(axis, IndexPolicy::kError); }
inline GatherOperator gatherElementsOperator(int64_t axis) { return gatherElementsOperator(axis, IndexPolicy::kError); }
inline GatherOperator gatherNDOperator(int64_t batch_dims) { return gatherNDOperator(batch_dims, IndexPolicy::kError); }

// --- Comparing with the reference ---------------------------------------------------------------------------

// Which form of the operator a comparison runs: the new output, or the caller's output (a new device
// tensor of data's type and the shape op.output_shape gives).
enum class GatherForm { kNewOutput, kCallersOutput };

// Runs the call in `form` and compares the result with the reference: type, shape, bytes and strings.
// The reference must find every index valid.
void expectGatherMatchesReference(Context& context, const GatherOperator& op, const HostTensor& data,
                                  const HostTensor& indices, GatherForm form = GatherForm::kNewOutput);

// expectOutputThroughUnalignedViews (support/unaligned_views.hpp) for the caller's-output form, against
// the reference's output, which must fill its last word only in part (`neighbour_bytes` bytes of it
// are another tensor's).
void expectGatherThroughUnalignedViews(Context& context, const GatherOperator& op, const HostTensor& data,
                                       const HostTensor& indices, size_t neighbour_bytes);

// expectGatherMatchesReference for the operator that `bind` binds to `attribute`.
template <GatherOperator (*bind)(int64_t)>
void expectBoundGatherMatchesReference(Context& context, const HostTensor& data, const HostTensor& indices,
                                       int64_t attribute) {
  expectGatherMatchesReference(context, bind(attribute), data, indices);
}

// The randomized suites' parameter: every data type x both index types, named "<type>_<index type>".
using TypeAndIndexType = std::tuple<DataType, DataType>;
std::vector<TypeAndIndexType> everyTypeAndIndexType();
std::string typeAndIndexTypeName(const ::testing::TestParamInfo<TypeAndIndexType>& info);

// One call of a randomized suite: the bound operator and its inputs.
struct GatherCall {
  GatherOperator op;
  HostTensor data;
  HostTensor indices;
};

// The randomized suites' rounds: 24 calls drawn by `draw` from a generator seeded from `seed` and the
// suite's (type, index type), each compared with the reference (new output); stops at a fatal failure.
void expectRandomCallsMatchReference(
    Context& context, const TypeAndIndexType& param, uint64_t seed,
    const std::function<GatherCall(Rng& rng, DataType dtype, DataType index_type)>& draw);

// Random data of `dtype` and `shape`, the same for every call (seed 42), for the directed suites.
HostTensor dataOf(DataType dtype, Shape shape);

// The directed suites' n-th type: all 16 in turn, and the index types alternating.
DataType rotatingType(size_t n);
DataType alternatingIndexType(size_t n);

// --- Errors ---------------------------------------------------------------------------------------------------

// Runs the caller's-output form into an output of `output_shape` (default: the valid call's) that
// holds a canary, and returns the status; on an error the output must still hold only the canary.
Status gatherIntoCanary(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices,
                        const Shape& output_shape);
Status gatherIntoCanary(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices);

// A host-side error: kInvalidArgument with `message` from the new-output form and, where an output
// shape is given, the same from the caller's-output form into a canary of that shape.
void expectGatherInvalid(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices,
                         const std::string& message, const Shape* output_shape);

// A device-side error: kOutOfRange with the message naming the reference's first bad element, and the
// caller's output untouched.
void expectGatherOutOfRange(Context& context, const GatherOperator& op, const HostTensor& data,
                            const HostTensor& indices);

// A bad index into string data (gathered on the host): `message` with kOutOfRange, and the caller's
// output, two strings ("keep", "these"), as it was.
void expectGatherKeepsOutputStrings(Context& context, const GatherOperator& op, const HostTensor& data,
                                    const HostTensor& indices, const std::string& message);

// A caller's output of `wrong_shape`, then of `wrong_type` and the right shape, is rejected with
// `shape_message`, then `type_message`; the inputs are valid.
void expectGatherOutputRejected(Context& context, const GatherOperator& op, const HostTensor& data,
                                const HostTensor& indices, const Shape& wrong_shape, const std::string& shape_message,
                                DataType wrong_type, const std::string& type_message);

// A caller's output viewing the same VkBuffer as data, then as indices (of `index_shape`, 4 int32
// values 0..3), is rejected with "<name>: the output overlaps input '<input>' in the same VkBuffer".
void expectGatherOverlapRejected(Context& context, const GatherOperator& op, const std::string& name,
                                 const Shape& index_shape);

// The fixture of an error suite of the operator that `bind` binds to its attribute: the checks above on
// the suite's context, and float32 inputs whose values do not matter.
template <GatherOperator (*bind)(int64_t)>
class GatherErrorsFixture : public GpuTest {
 protected:
  Status intoCanary(Context& ctx, const HostTensor& data, const HostTensor& indices, int64_t attribute) {
    return gatherIntoCanary(ctx, bind(attribute), data, indices);
  }
  Status intoCanary(const HostTensor& data, const HostTensor& indices, int64_t attribute) {
    return intoCanary(context(), data, indices, attribute);
  }
  void expectInvalid(const HostTensor& data, const HostTensor& indices, int64_t attribute, const std::string& message,
                     const Shape* output_shape = nullptr) {
    expectGatherInvalid(context(), bind(attribute), data, indices, message, output_shape);
  }
  void expectOutOfRange(Context& ctx, const HostTensor& data, const HostTensor& indices, int64_t attribute) {
    expectGatherOutOfRange(ctx, bind(attribute), data, indices);
  }
  void expectOutOfRange(const HostTensor& data, const HostTensor& indices, int64_t attribute) {
    expectOutOfRange(context(), data, indices, attribute);
  }
  // The same with the message written out: kOutOfRange with `message`, the caller's output untouched.
  void expectOutOfRange(Context& ctx, const HostTensor& data, const HostTensor& indices, int64_t attribute,
                        const std::string& message) {
    Status status = intoCanary(ctx, data, indices, attribute);
    EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
    EXPECT_EQ(status.message(), message);
  }
  void expectOutOfRange(const HostTensor& data, const HostTensor& indices, int64_t attribute,
                        const std::string& message) {
    expectOutOfRange(context(), data, indices, attribute, message);
  }
  static HostTensor floats(Shape shape) {
    Rng rng(7);
    return randomTensor(rng, DataType::kFloat32, std::move(shape));
  }
};

// The random bad-index suites' rounds: 24 rounds alternating between `shared` and a context of 4 KiB
// bindings (bad values land in later windows), each with a data type drawn from uint8, float16,
// float32 and complex128 and an index type, from `rng`; afterwards the capped context must have
// stayed silent.
struct BadIndexRound {
  Context& context;
  int round;
  DataType dtype;
  DataType index_type;
};
void forEachBadIndexRound(Context& shared, Rng& rng, const std::function<void(const BadIndexRound&)>& each);

}  // namespace vkindex::test
