// The reductions on bool and string that ONNX Runtime's CPU kernels of ScatterElements and ScatterND
// define, and vkindex with them: bool add is OR and mul is AND; string add appends the updates to the
// target's string in index order; bool max and min, and string mul, max and min, are refused by both.
// - ONNX Runtime's own unit tests (onnxruntime/test/providers/cpu/tensor/scatter_nd_op_test.cc and
//   scatter_op_test.cc), their inputs and expected outputs written out again here: byte-exact in every
//   form, bools stored as the bytes 0 and 1;
// - hand-written cases of both operators, on the shared context and on one that never walks (the fold by
//   owner), duplicate-heavy: thousands of updates onto a few targets, neighbours sharing a 32-bit word;
// - string add with a bad index: the operator's index message, nothing written in any form; the refused
//   pairs' messages.
// The randomized suites (scatter_elements_random_test.cpp, scatter_nd_random_test.cpp) run these pairs
// too, through support/defined_reductions.hpp.
#include <string>
#include <vector>

#include "support/scatter_forms.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

using ScatterBoolStringTest = GpuTest;

constexpr Reduction kAdd = Reduction::kAdd, kMul = Reduction::kMul;

HostTensor bools(Shape shape, const std::vector<uint64_t>& values) {
  return integers(DataType::kBool, std::move(shape), values);
}

// ScatterND_string_add_duplicate_indices (ScatterND-18): three updates onto element 0, appended in
// index order.
TEST_F(ScatterBoolStringTest, OnnxRuntimeScatterNDStringAddDuplicateIndices) {
  const HostTensor data = stringTensor({2}, {"base", "untouched"});
  const HostTensor indices = indexTensor(DataType::kInt64, {3, 1}, {0, 0, 0});
  const HostTensor updates = stringTensor({3}, {"-first", "-second", "-last"});
  expectHandWrittenResult(context(), scatterNDOperator(context(), kAdd), {data, indices, updates},
                          stringTensor({2}, {"base-first-second-last", "untouched"}));
}

// ScatterElements' bool reductions in ONNX Runtime's tests (BoolReductionsAndCanonicalStorage: one
// element, one update; the output byte must be 0 or 1, not any other true byte) and their refusals.
TEST_F(ScatterBoolStringTest, OnnxRuntimeScatterElementsBoolReductions) {
  struct Case {
    Reduction reduction;
    uint64_t data, update, expected;
  };
  for (const Case& c : {Case{kAdd, 0, 1, 1}, Case{kAdd, 1, 1, 1}, Case{kMul, 1, 0, 0}}) {
    SCOPED_TRACE(std::string(reductionName(c.reduction)) + " " + std::to_string(c.data) + " " +
                 std::to_string(c.update));
    const HostTensor data = bools({1}, {c.data}), updates = bools({1}, {c.update});
    const HostTensor indices = indexTensor(DataType::kInt64, {1}, {0});
    expectHandWrittenResult(context(), scatterElementsOperator(context(), 0, c.reduction), {data, indices, updates},
                            bools({1}, {c.expected}));
  }
}

// ContentionBoolLogical (ScatterElements-18, mul): 512 updates onto one element, all true but the one
// in the middle: AND gives false, whichever order the device applies them in.
TEST_F(ScatterBoolStringTest, OnnxRuntimeScatterElementsBoolContention) {
  std::vector<uint64_t> values(512, 1);
  values[256] = 0;
  const HostTensor data = bools({1}, {1}), updates = bools({512}, values);
  const HostTensor indices = indexTensor(DataType::kInt64, {512}, std::vector<int64_t>(512, 0));
  expectHandWrittenResult(context(), scatterElementsOperator(context(), 0, kMul), {data, indices, updates},
                          bools({1}, {0}));
}

// Both operators, written out by hand: OR and AND per target, untouched targets keep their bytes.
TEST_F(ScatterBoolStringTest, BoolAddIsOrAndMulIsAnd) {
  // ScatterElements along axis 1: row 0 sends (1, 0, 0) to column 2 and row 1 sends (0, 0) to column 0
  // and 1 to column 1 (written -2).
  const HostTensor data = bools({2, 3}, {0, 1, 0, 1, 0, 1});
  const HostTensor indices = indexTensor(DataType::kInt32, {2, 3}, {2, 2, -1, 0, -2, 0});
  const HostTensor updates = bools({2, 3}, {1, 0, 0, 0, 1, 0});
  expectHandWrittenResult(context(), scatterElementsOperator(context(), 1, kAdd), {data, indices, updates},
                          bools({2, 3}, {0, 1, 1, 1, 1, 1}));
  expectHandWrittenResult(context(), scatterElementsOperator(context(), 1, kMul), {data, indices, updates},
                          bools({2, 3}, {0, 1, 0, 0, 0, 1}));
  // ScatterND with slices of 2: rows 1, 0, 1 of data.
  const HostTensor nd_data = bools({2, 2}, {1, 0, 1, 1});
  const HostTensor nd_indices = indexTensor(DataType::kInt64, {3, 1}, {1, 0, -1});
  const HostTensor nd_updates = bools({3, 2}, {0, 0, 1, 1, 1, 0});
  expectHandWrittenResult(context(), scatterNDOperator(context(), kAdd), {nd_data, nd_indices, nd_updates},
                          bools({2, 2}, {1, 1, 1, 1}));
  expectHandWrittenResult(context(), scatterNDOperator(context(), kMul), {nd_data, nd_indices, nd_updates},
                          bools({2, 2}, {1, 0, 0, 0}));
}

// Thousands of updates onto seven neighbouring targets (in two 32-bit words) per operator, with few
// trues (OR sees the rare one) and few falses (AND sees the rare one), on the shared context and on one
// that never walks (the fold by owner).
TEST_F(ScatterBoolStringTest, DuplicateHeavyBoolMatchesReference) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> folds, makeContextThatNeverWalks());
  Rng rng(0xb001);
  constexpr int64_t kUpdates = 3001, kTargets = 7;
  for (Context* ctx : {&context(), folds.get()}) {
    for (const Reduction reduction : {kAdd, kMul}) {
      SCOPED_TRACE(std::string(ctx == &context() ? "shared context " : "never walks ") + reductionName(reduction));
      // Targets 0..5 see the rare value at a random position; target 6 never does.
      const uint64_t usual = reduction == kAdd ? 0 : 1;
      std::vector<int64_t> targets(kUpdates);
      std::vector<uint64_t> values(kUpdates, usual);
      for (int64_t i = 0; i < kUpdates; ++i) targets[i] = static_cast<int64_t>(rng() % kTargets);
      for (int64_t t = 0; t + 1 < kTargets; ++t) {
        for (int64_t i = static_cast<int64_t>(rng() % kUpdates);; i = (i + 1) % kUpdates) {
          if (targets[i] != t) continue;
          values[i] = 1 - usual;
          break;
        }
      }
      std::vector<int64_t> signed_targets = targets;
      for (int64_t& v : signed_targets) v -= rng() % 2 ? kTargets : 0;
      const HostTensor data = bools({kTargets}, std::vector<uint64_t>(kTargets, usual));
      const HostTensor updates = bools({kUpdates}, values);
      const HostTensor elements_indices = indexTensor(DataType::kInt32, {kUpdates}, signed_targets);
      std::vector<uint64_t> expected(kTargets, 1 - usual);
      expected[kTargets - 1] = usual;
      expectHandWrittenResult(*ctx, scatterElementsOperator(*ctx, 0, reduction), {data, elements_indices, updates},
                              bools({kTargets}, expected));
      const HostTensor nd_indices = indexTensor(DataType::kInt64, {kUpdates, 1}, signed_targets);
      expectHandWrittenResult(*ctx, scatterNDOperator(*ctx, reduction), {data, nd_indices, updates},
                              bools({kTargets}, expected));
    }
  }
}

// ScatterElements string add along each axis of a 2 x 3 tensor, duplicates included: each target's
// string, then its updates in index order (row-major position in indices).
TEST_F(ScatterBoolStringTest, StringAddAppendsInIndexOrder) {
  const HostTensor data = stringTensor({2, 3}, {"a", "b", "c", "d", "e", "f"});
  const HostTensor rows = indexTensor(DataType::kInt64, {3, 2}, {1, 0, -1, 0, 0, 0});
  const HostTensor row_updates = stringTensor({3, 2}, {"1", "2", "3", "4", "5", "6"});
  expectHandWrittenResult(context(), scatterElementsOperator(context(), 0, kAdd), {data, rows, row_updates},
                          stringTensor({2, 3}, {"a5", "b246", "c", "d13", "e", "f"}));
  const HostTensor columns = indexTensor(DataType::kInt32, {2, 4}, {2, 2, 0, -1, 1, 1, 1, 0});
  const HostTensor column_updates = stringTensor({2, 4}, {"p", "", "q", "r", "s", "t", "u", "v"});
  expectHandWrittenResult(context(), scatterElementsOperator(context(), -1, kAdd), {data, columns, column_updates},
                          stringTensor({2, 3}, {"aq", "b", "cpr", "dv", "estu", "f"}));
  // ScatterND with slices: rows of data, row 0 twice; one long string (not stored inline).
  const std::string long_text(300, 'x');
  const HostTensor nd_indices = indexTensor(DataType::kInt64, {3, 1}, {0, 1, -2});
  const HostTensor nd_updates = stringTensor({3, 3}, {"1", "2", "3", "4", long_text, "6", "7", "8", "9"});
  expectHandWrittenResult(context(), scatterNDOperator(context(), kAdd), {data, nd_indices, nd_updates},
                          stringTensor({2, 3}, {"a17", "b28", "c39", "d4", "e" + long_text, "f6"}));
  // Tuples of 2 (single elements), element (1, 2) three times; and no updates at all.
  const HostTensor pairs = indexTensor(DataType::kInt32, {2, 2, 2}, {1, 2, 0, 0, -1, -1, 1, 2});
  expectHandWrittenResult(context(), scatterNDOperator(context(), kAdd),
                          {data, pairs, stringTensor({2, 2}, {"x", "y", "z", "w"})},
                          stringTensor({2, 3}, {"ay", "b", "c", "d", "e", "fxzw"}));
  expectHandWrittenResult(context(), scatterNDOperator(context(), kAdd),
                          {data, indexTensor(DataType::kInt64, {0, 1}, {}), stringTensor({0, 3}, {})}, data);
}

// A bad index in a string add: the operator's own message, and no form writes anything.
TEST_F(ScatterBoolStringTest, StringAddWithABadIndexWritesNothing) {
  const HostTensor data = stringTensor({2, 3}, {"a", "b", "c", "d", "e", "f"});
  expectErrorInEveryForm(
      context(), scatterElementsOperator(context(), 1, kAdd),
      {data, indexTensor(DataType::kInt64, {2, 2}, {0, 1, 2, 3}), stringTensor({2, 2}, {"1", "2", "3", "4"})},
      StatusCode::kOutOfRange,
      "ScatterElements: indices[1, 1] = 3 is out of range for axis 1 of size 3 (allowed [-3, 2])");
  expectErrorInEveryForm(
      context(), scatterNDOperator(context(), kAdd),
      {data, indexTensor(DataType::kInt32, {2, 1}, {1, -3}), stringTensor({2, 3}, {"1", "2", "3", "4", "5", "6"})},
      StatusCode::kOutOfRange,
      "ScatterND: indices[1] (component 0) = -3 is out of range for data dim 0 of size 2 (allowed [-2, 1])");
}

// What ONNX Runtime's CPU kernels refuse (ORT_NOT_IMPLEMENTED there) is an invalid argument here, before
// any index is read (the index 9 is out of range), in every form.
TEST_F(ScatterBoolStringTest, RefusedPairsNameWhatTheTypeAllows) {
  const HostTensor flags = bools({3}, {0, 1, 0}), flag_update = bools({1}, {1});
  const HostTensor words = stringTensor({3}, {"a", "b", "c"}), word_update = stringTensor({1}, {"d"});
  const HostTensor bad = indexTensor(DataType::kInt64, {1}, {9}),
                   bad_tuple = indexTensor(DataType::kInt64, {1, 1}, {9});
  for (const Reduction reduction : {Reduction::kMax, Reduction::kMin}) {
    const std::string name = reductionName(reduction);
    expectErrorInEveryForm(
        context(), scatterElementsOperator(context(), 0, reduction), {flags, bad, flag_update},
        StatusCode::kInvalidArgument,
        "ScatterElements: reduction '" + name + "' is not defined for bool (bool allows none, add as OR, mul as AND)");
    expectErrorInEveryForm(
        context(), scatterNDOperator(context(), reduction), {flags, bad_tuple, flag_update},
        StatusCode::kInvalidArgument,
        "ScatterND: reduction '" + name + "' is not defined for bool (bool allows none, add as OR, mul as AND)");
  }
  for (const Reduction reduction : {Reduction::kMul, Reduction::kMax, Reduction::kMin}) {
    const std::string name = reductionName(reduction);
    expectErrorInEveryForm(context(), scatterElementsOperator(context(), 0, reduction), {words, bad, word_update},
                           StatusCode::kInvalidArgument,
                           "ScatterElements: reduction '" + name +
                               "' is not defined for string (string allows none, add as concatenation)");
    expectErrorInEveryForm(
        context(), scatterNDOperator(context(), reduction), {words, bad_tuple, word_update},
        StatusCode::kInvalidArgument,
        "ScatterND: reduction '" + name + "' is not defined for string (string allows none, add as concatenation)");
  }
}

}  // namespace
}  // namespace vkindex::test
