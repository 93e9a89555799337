// What the ScatterElements and ScatterND suites share, as gather_forms.hpp is for the gathers: the
// operators bound to their attributes; one runner that puts a call through every form of the operator
// (a new output, the caller's output, in place, and recorded into a command buffer of the test's own,
// out of place and in place) and compares each result with the CPU reference byte for byte; the same
// for an error, which must leave every output and in-place data untouched; repeated runs; the host
// check that a directed test can tell index orders apart; and the suites' parameters (types grouped by
// width, defined (type, reduction) pairs).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/scatter_buckets_params.h"
#include "support/defined_reductions.hpp"
#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"
#include "vk/vulkan.hpp"

namespace vkindex::test {

// --- Recording into the test's own command buffer ------------------------------------------------------

using Recording = std::function<StatusOr<RecordedOp>(VkCommandBuffer command_buffer)>;

// Records every op into one command buffer of the test's own on `context`'s device, between the
// barriers ops.hpp asks the application for, submits it, waits, and returns each op's finish().
StatusOr<std::vector<Status>> runRecorded(Context& context, const std::vector<Recording>& recordings);

// --- Comparing -------------------------------------------------------------------------------------------

// Bytes (or strings) that differ from any plausible output: the caller's output starts with them.
HostTensor garbageLike(const HostTensor& like);

// Whether the device tensor holds exactly `expected` (type, shape, bytes or strings); names the first
// differing element otherwise, both values in hex.
::testing::AssertionResult holds(const Tensor& tensor, const HostTensor& expected);

// --- Running every form -----------------------------------------------------------------------------------

// A scatter operator bound to its attributes (axis, reduction): its CPU reference and its four forms.
// `record` records from `data` into `output`, which may be `data` itself (in place).
struct ScatterOperator {
  std::function<ReferenceResult(const HostTensor& data, const HostTensor& indices, const HostTensor& updates)>
      reference;
  std::function<StatusOr<Tensor>(const Tensor& data, const Tensor& indices, const Tensor& updates)> run;
  std::function<Status(const Tensor& data, const Tensor& indices, const Tensor& updates, Tensor& output)> run_into;
  std::function<Status(Tensor& data, const Tensor& indices, const Tensor& updates)> run_in_place;
  std::function<StatusOr<RecordedOp>(VkCommandBuffer cmd, const Tensor& data, const Tensor& indices,
                                     const Tensor& updates, Tensor& output)>
      record;
};

// ScatterElements bound to `axis` and `reduction`, and ScatterND bound to `reduction`, on `context`, each
// with `policy` in its reference and every form (kError: the forms without a policy, ONNX's signatures).
ScatterOperator scatterElementsOperator(Context& context, int64_t axis, Reduction reduction, IndexPolicy policy);
ScatterOperator scatterNDOperator(Context& context, Reduction reduction, IndexPolicy policy);
inline ScatterOperator scatterElementsOperator(Context& context, int64_t axis, Reduction reduction) {
  return scatterElementsOperator(context, axis, reduction, IndexPolicy::kError);
}
inline ScatterOperator scatterNDOperator(Context& context, Reduction reduction) {
  return scatterNDOperator(context, reduction, IndexPolicy::kError);
}

// One call's host inputs.
struct ScatterInputs {
  const HostTensor& data;
  const HostTensor& indices;
  const HostTensor& updates;
};

// Which forms a case runs: every one (the fixed cases), or, to keep the randomized suites fast, the
// new output and in place always and either the caller's output or the recorded forms, alternating.
enum class Forms { kAll, kWithCallersOutput, kWithRecording };

// The forms of the n-th randomized case: the caller's output and the recorded forms in turn.
Forms alternating(size_t n);

// Runs the call in its forms and compares each result with the reference, byte for byte: a new output;
// the caller's output (pre-filled with garbage); in place (the whole data tensor afterwards); and,
// except for strings, recorded into one command buffer both into a caller's output and in place. The
// out-of-place forms must leave data unchanged. The reference must find every index valid.
void expectFormsMatchReference(Context& context, const ScatterOperator& op, const ScatterInputs& in,
                               Forms forms = Forms::kAll);

// The reference must give `expected` (written out by hand from the agreed semantics), and every form
// of the operator too.
void expectHandWrittenResult(Context& context, const ScatterOperator& op, const ScatterInputs& in,
                             const HostTensor& expected);

// The two above for a test's own case type, which provides description(), op(context) and inputs().
template <typename Case>
void expectCaseMatchesReference(Context& context, const Case& c, Forms forms) {
  SCOPED_TRACE(c.description());
  expectFormsMatchReference(context, c.op(context), c.inputs(), forms);
}
template <typename Case>
void expectCaseGives(Context& context, const Case& c, const HostTensor& expected) {
  SCOPED_TRACE(c.description());
  expectHandWrittenResult(context, c.op(context), c.inputs(), expected);
}

// The call fails with `code` and `message` in each submitting form: a new output; the caller's output,
// which keeps its canary (strings: their previous strings); and in place, where data keeps every byte.
void expectErrorInEveryForm(Context& context, const ScatterOperator& op, const ScatterInputs& in, StatusCode code,
                            const std::string& message);

// The same call `runs` times into new outputs: the same bytes every time, the reference's.
void expectRepeatedRunsIdentical(Context& context, const ScatterOperator& op, const ScatterInputs& in, int runs);

// expectRepeatedRunsIdentical 20 times over for none and then add, on float32, double and float16: data
// of `data_shape` and updates of `updates_shape`, normal values from `rng` (every update shows in the
// sums), the operator from `op`.
void expectRepeatedFloatRunsIdentical(Context& context, const std::function<ScatterOperator(Reduction)>& op,
                                      const HostTensor& indices, const Shape& data_shape, const Shape& updates_shape,
                                      Rng& rng);

// --- Index order -------------------------------------------------------------------------------------------

// Whether the reference gives other bytes when the updates arrive in another order: the leading dim of
// indices and updates (one element or one tuple, with its update or slice, per row) reversed and
// shuffled 7 times; each must differ, else a directed test of index order could not fail.
::testing::AssertionResult orderChangesTheResult(const ScatterOperator& op, const ScatterInputs& in, Rng& rng);

// `count` index values over `targets` targets for the fold by owner, in blocks of four positions (the
// blocks of orderSensitiveUpdates): target 0 takes every other block (heavy, more than
// VKINDEX_MAX_BUCKET updates, for count > 2 x VKINDEX_MAX_BUCKET), the others share the rest in turn
// (light while count / 2 stays within VKINDEX_MAX_BUCKET x (targets - 1), less a block); each written
// as v or v - targets at random.
std::vector<int64_t> heavyAndLightTargets(Rng& rng, int64_t count, int64_t targets);

// heavyAndLightTargets' count and targets in the fold by owner tests: 300 updates to the heavy target,
// 75 to each light one.
constexpr int64_t kMixedUpdates = 600;
constexpr int64_t kMixedTargets = 5;
static_assert(kMixedUpdates / 2 > VKINDEX_MAX_BUCKET && kMixedUpdates / 2 / (kMixedTargets - 1) < VKINDEX_MAX_BUCKET);

// Index values for the fold by owner's light buckets of every size: target t of `targets` takes t + 1
// updates (the last target, at targets > VKINDEX_MAX_BUCKET, is heavy), in blocks of four positions
// from one target (the blocks of orderSensitiveUpdates) shuffled among the targets, the blocks of
// fewer than four at the end; each written as v or v - targets at random.
std::vector<int64_t> everyBucketSize(Rng& rng, int64_t targets);

// everyBucketSize's targets in the fold by owner tests: buckets of 1 to VKINDEX_MAX_BUCKET updates, so
// that every width of the owners' sorting network (8, 16 and 32 keys) and every merge level of the
// longer buckets (64 to VKINDEX_MAX_BUCKET keys, bucket_sort.comp) sorts some, beside one heavy target.
constexpr int64_t kRampTargets = VKINDEX_MAX_BUCKET + 1;

// The types of the "last of a thousand writers" tests: words, bytes, halves, quads, doubles, strings.
inline constexpr DataType kLastWriterTypes[] = {DataType::kFloat32,    DataType::kUInt8, DataType::kFloat16,
                                                DataType::kComplex128, DataType::kInt64, DataType::kString};

// The kinds of the empty-tensor tests, in order: float32 with none and with `reduction`, uint8 (int32
// indices) and strings with none; int64 indices but for uint8.
struct EmptyTensorKind {
  DataType dtype;
  Reduction reduction;
  DataType index_type;
};
std::vector<EmptyTensorKind> emptyTensorKinds(Reduction reduction);

// `count` index values of target 2 of an axis of 5, each written as 2 or -3 at random.
std::vector<int64_t> oneTargetOfFive(Rng& rng, size_t count);

// Updates sent to seven heavy targets in the fold by owner tests: 2^17, where 20000 left unseen the
// lost updates of a sub-word compare-and-swap loop on lavapipe (int8 adds on targets sharing a word
// went wrong from about 49152 updates).
constexpr int64_t kFewHeavyTargetUpdates = 131072;

// A reduction onto many heavy targets for the fold by owner's heavy sort: `updates` index values, 40
// more per target than a light bucket holds (VKINDEX_MAX_BUCKET), in a shuffled order, and an element
// type that folds them.
struct ManyHeavyTargets {
  int64_t targets = 0, updates = 0;
  std::vector<int64_t> indices;
  DataType dtype = DataType::kInt8;
  Reduction reduction = Reduction::kAdd;
  std::string description;
};

// 40 targets (heavy ids of two digits) and a workgroup's worth and 37 (three digits, and more owners
// than a workgroup has lanes), each with int8 add (sub-word neighbours fold in different runs),
// float add (order-sensitive) and uint64 max.
std::vector<ManyHeavyTargets> manyHeavyTargetCases(Rng& rng, uint32_t workgroup_size);

// --- Tensors beyond one binding ------------------------------------------------------------------------------

// A case of the windowed suites: the context to run it on and what to draw.
struct WindowedCase {
  Context& context;
  DataType dtype;
  Reduction reduction;
  DataType index_type;
  size_t n;  // 0, 1, 2, ...: for alternating() and duplicate-heavy turns
};

// Calls `each` for seven (type, reduction) pairs, every element width and every reduction among them,
// x both index types, on a context whose bindings span 1 KiB (ContextOverrides::max_binding_bytes), so
// that tensors of a few hundred elements need several windows each; stops at a fatal failure, and
// expects no validation message from that context.
void forEachCaseBeyondOneBinding(const std::function<void(const WindowedCase&)>& each);

// --- Suite parameters --------------------------------------------------------------------------------------

// The data types grouped by element width: the kernels specialize on the width, so one test process
// (ctest runs each test in its own) compiles each group's pipelines once.
struct TypeGroup {
  const char* name;
  std::vector<DataType> types;
};

// bytes, halves, words (strings included), doubles, quads: every type once.
const std::vector<TypeGroup>& widthGroups();

// gtest prints a pair as "float16 add".
void PrintTo(const ReductionPair& pair, std::ostream* os);

// Test-name suffixes: the group's name; "<type>_<reduction>" for a pair.
std::string groupName(const ::testing::TestParamInfo<TypeGroup>& info);
std::string pairName(const ::testing::TestParamInfo<ReductionPair>& info);

// --- The fold by owner's directed loops -------------------------------------------------------------------

// Every defined (type, reduction) pair but none, two cases each (the n-th of all, index types
// alternating), drawn by `draw` with the type's index type and the round (0: duplicate-heavy), run in
// alternating forms; each pair traced.
template <typename Case>
void expectDefinedPairsMatchReference(
    Context& context,
    const std::function<Case(DataType dtype, Reduction reduction, DataType index_type, int round)>& draw) {
  size_t n = 0;
  for (const auto& [dtype, reduction] : definedReductionPairs()) {
    SCOPED_TRACE(std::string(dataTypeName(dtype)) + " " + reductionName(reduction));
    for (int round = 0; round < 2; ++round, ++n) {
      const Case c = draw(dtype, reduction, n % 2 ? DataType::kInt64 : DataType::kInt32, round);
      ASSERT_NO_FATAL_FAILURE(expectCaseMatchesReference(context, c, alternating(n)));
    }
  }
}

// Light buckets of every size (everyBucketSize over kRampTargets): float32, bfloat16 and double adds
// onto small exact values, the call made by `make` from the type and the index values, each proved
// order-sensitive on the host first (orderChangesTheResult), then run in every form.
template <typename Case>
void expectEveryBucketSizeMatchesReference(
    Context& context, Rng& rng, const std::function<Case(DataType dtype, const std::vector<int64_t>& indices)>& make) {
  const std::vector<int64_t> ramp = everyBucketSize(rng, kRampTargets);
  for (DataType dtype : {DataType::kFloat32, DataType::kBFloat16, DataType::kFloat64}) {
    const Case c = make(dtype, ramp);
    ASSERT_TRUE(orderChangesTheResult(c.op(context), c.inputs(), rng)) << dataTypeName(dtype);
    ASSERT_NO_FATAL_FAILURE(expectCaseMatchesReference(context, c, Forms::kAll));
  }
}

// kFewHeavyTargetUpdates adds onto seven targets (int8, uint16, float32, int64: neighbours in one word
// for the sub-word types), the call made by `make` from the type and the index values, in every form.
template <typename Case>
void expectFewHeavyTargetsMatchReference(
    Context& context, Rng& rng, const std::function<Case(DataType dtype, const std::vector<int64_t>& indices)>& make) {
  std::vector<int64_t> few(kFewHeavyTargetUpdates);
  for (int64_t& v : few) v = static_cast<int64_t>(rng() % 7);
  for (DataType dtype : {DataType::kInt8, DataType::kUInt16, DataType::kFloat32, DataType::kInt64}) {
    SCOPED_TRACE(dataTypeName(dtype));
    ASSERT_NO_FATAL_FAILURE(expectCaseMatchesReference(context, make(dtype, few), Forms::kAll));
  }
}

// --- The randomized suites' loops -------------------------------------------------------------------------

// The reduction-none suites' cases: for each type of `group` (traced), a generator seeded from `seed` and
// the type, both index types, ranks 1-5 and `rank` cases of each (j in [0, rank)), the n-th drawn by
// `draw` and run in alternating(n) forms; stops at a fatal failure.
template <typename Case>
void expectEveryRankMatchesReference(
    Context& context, const TypeGroup& group, uint64_t seed,
    const std::function<Case(Rng& rng, DataType dtype, DataType index_type, int64_t rank, int64_t j, size_t n)>& draw) {
  for (const DataType dtype : group.types) {
    SCOPED_TRACE(dataTypeName(dtype));
    Rng rng(seed + 97 * static_cast<uint64_t>(dtype));
    size_t n = 0;
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
      for (int64_t r = 1; r <= 5; ++r) {
        for (int64_t j = 0; j < r; ++j, ++n) {
          SCOPED_TRACE("case " + std::to_string(n));
          const Case c = draw(rng, dtype, index_type, r, j, n);
          ASSERT_NO_FATAL_FAILURE(expectCaseMatchesReference(context, c, alternating(n)));
        }
      }
    }
  }
}

// The defined-pair suites' rounds: six cases of `pair` drawn by `draw` from a generator seeded from
// `seed` and the pair (the index types alternating, duplicate-heavy in all but the last), each run in
// alternating forms; stops at a fatal failure.
template <typename Case>
void expectReductionRoundsMatchReference(Context& context, const ReductionPair& pair, uint64_t seed,
                                         const std::function<Case(Rng& rng, DataType dtype, Reduction reduction,
                                                                  DataType index_type, bool few_targets)>& draw) {
  Rng rng(seed + 131 * static_cast<uint64_t>(pair.reduction) + static_cast<uint64_t>(pair.dtype));
  for (int round = 0; round < 6; ++round) {
    const DataType index_type = round % 2 ? DataType::kInt64 : DataType::kInt32;
    SCOPED_TRACE("round " + std::to_string(round));
    const Case c = draw(rng, pair.dtype, pair.reduction, index_type, round != 5);
    ASSERT_NO_FATAL_FAILURE(expectCaseMatchesReference(context, c, alternating(static_cast<size_t>(round))));
  }
}

}  // namespace vkindex::test
