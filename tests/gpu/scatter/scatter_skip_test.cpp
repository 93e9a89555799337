// IndexPolicy::kSkip for ScatterElements and ScatterND (vkindex/ops.hpp, "Index policy"): an update whose
// index (any component of its ScatterND tuple) lies outside [0, s-1] takes no part, whatever the
// reduction, never an error and never a wrap. Byte-exact against the CPU reference with the policy, in
// every form (new output, caller's output, in place, recorded both ways), on: the paged KV cache (rows
// into a pool, padding slots -1), -1 among valid indices, s, -s, the index type's extremes, 2^32 + 1 and
// 2^32 + s - 1 (int64s whose low word alone looks valid), duplicates with every reduction, all skipped,
// heavy duplicate runs with some skipped, bool and string data; on the default context (walks) and one
// that never walks (winner tables, atomics, the fold by owner), and, in the gpu_tuning registrations, as
// a GPU is tuned. Run under GPU-assisted validation it also shows that no skipped update touches memory
// outside its buffers.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "support/scatter_forms.hpp"
#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

constexpr IndexPolicy kSkip = IndexPolicy::kSkip;

class ScatterSkipTest : public GpuTest {
 protected:
  // The shared context (walks where there are walkers) and one that never walks.
  std::vector<Context*> contexts() {
    if (!never_walks_) {
      StatusOr<std::unique_ptr<Context>> made = makeContextThatNeverWalks();
      EXPECT_TRUE(made.ok()) << made.status().toString();
      if (made.ok()) never_walks_ = std::move(made).value();
    }
    return {&context(), never_walks_.get()};
  }

 private:
  std::unique_ptr<Context> never_walks_;
};

// `count` index values for an axis of size `s`: valid ones (duplicates among them) with every hostile
// value mixed in, about one in `skip_every` skipped.
std::vector<int64_t> mixedValues(Rng& rng, DataType index_type, int64_t s, size_t count, uint64_t skip_every) {
  const std::vector<int64_t> hostile = outOfRangeIndexValues(index_type, s);
  std::vector<int64_t> values(count);
  for (size_t i = 0; i < count; ++i) {
    const bool skip = i < hostile.size() ? i % 2 == 1 : rng() % skip_every == 0;
    values[i] = skip ? hostile[rng() % hostile.size()] : static_cast<int64_t>(rng() % static_cast<uint64_t>(s));
  }
  for (size_t i = 0; i < hostile.size() && 2 * i + 1 < count; ++i) values[2 * i + 1] = hostile[i];
  return values;
}

// The (type, reduction) pairs these tests run: every reduction, sub-word, word, wide, soft-float and
// atomic (int32 add) arithmetic, bool OR.
struct Pair {
  DataType dtype;
  Reduction reduction;
};
const std::vector<Pair>& pairs() {
  static const std::vector<Pair> kPairs = {
      {DataType::kFloat32, Reduction::kNone}, {DataType::kUInt8, Reduction::kNone},
      {DataType::kFloat64, Reduction::kNone}, {DataType::kInt32, Reduction::kAdd},
      {DataType::kFloat32, Reduction::kAdd},  {DataType::kFloat32, Reduction::kMul},
      {DataType::kInt16, Reduction::kMax},    {DataType::kInt64, Reduction::kMin},
      {DataType::kUInt8, Reduction::kAdd},    {DataType::kBool, Reduction::kAdd},
  };
  return kPairs;
}

std::string describe(const Pair& pair, DataType index_type) {
  return std::string(dataTypeName(pair.dtype)) + " " + reductionName(pair.reduction) + ", " + dataTypeName(index_type) +
         " indices";
}

// The paged KV cache: rows of [2, 8] written into a pool of 12 slots, padding slots -1 (and hostile
// values) among the valid ones, duplicates of valid slots too; every pair, both index types, every form.
TEST_F(ScatterSkipTest, ScatterNDWritesPoolRowsAndSkipsPaddingSlots) {
  Rng rng(41);
  for (Context* ctx : contexts()) {
    ASSERT_NE(ctx, nullptr);
    for (const Pair& pair : pairs()) {
      for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
        SCOPED_TRACE(describe(pair, index_type));
        const HostTensor pool = randomTensor(rng, pair.dtype, {12, 2, 8});
        const std::vector<int64_t> slots = {3, -1, 7, -1, 0, 11, -1, 3};
        const HostTensor indices = indexTensor(index_type, {8, 1}, slots);
        const HostTensor rows = randomTensor(rng, pair.dtype, {8, 2, 8});
        ASSERT_NO_FATAL_FAILURE(
            expectFormsMatchReference(*ctx, scatterNDOperator(*ctx, pair.reduction, kSkip), {pool, indices, rows}));
        // Hostile values, single elements (k = r) and slices of two components' tuples.
        const HostTensor data = randomTensor(rng, pair.dtype, {5, 6, 3});
        std::vector<int64_t> tuples = mixedValues(rng, index_type, 5, 40, 3);
        const std::vector<int64_t> second = mixedValues(rng, index_type, 6, 40, 4);
        for (size_t i = 1; i < tuples.size(); i += 2) tuples[i] = second[i];
        for (size_t i = 0; i < tuples.size(); i += 2) tuples[i] = tuples[i] < 0 || tuples[i] >= 5 ? 2 : tuples[i];
        const HostTensor pairs_of = indexTensor(index_type, {20, 2}, tuples);
        ASSERT_NO_FATAL_FAILURE(expectFormsMatchReference(*ctx, scatterNDOperator(*ctx, pair.reduction, kSkip),
                                                          {data, pairs_of, randomTensor(rng, pair.dtype, {20, 3})}));
        const HostTensor elements = indexTensor(index_type, {30, 1}, mixedValues(rng, index_type, 5, 30, 3));
        const HostTensor vector = randomTensor(rng, pair.dtype, {5});
        ASSERT_NO_FATAL_FAILURE(expectFormsMatchReference(*ctx, scatterNDOperator(*ctx, pair.reduction, kSkip),
                                                          {vector, elements, randomTensor(rng, pair.dtype, {30})}));
      }
    }
  }
}

// ScatterElements along each axis of [5, 7] data: hostile values among valid ones, duplicates; every
// pair, both index types, every form.
TEST_F(ScatterSkipTest, ScatterElementsSkipsOnEveryAxis) {
  Rng rng(43);
  for (Context* ctx : contexts()) {
    ASSERT_NE(ctx, nullptr);
    for (const Pair& pair : pairs()) {
      for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
        SCOPED_TRACE(describe(pair, index_type));
        const HostTensor data = randomTensor(rng, pair.dtype, {5, 7});
        for (int64_t axis : {0, 1, -1}) {
          const Shape shape = axis == 0 ? Shape{9, 7} : Shape{5, 11};
          const int64_t s = axis == 0 ? 5 : 7;
          const HostTensor indices = indexTensor(
              index_type, shape, mixedValues(rng, index_type, s, static_cast<size_t>(shape[0] * shape[1]), 3));
          ASSERT_NO_FATAL_FAILURE(expectFormsMatchReference(*ctx,
                                                            scatterElementsOperator(*ctx, axis, pair.reduction, kSkip),
                                                            {data, indices, randomTensor(rng, pair.dtype, shape)}));
        }
        // A vector: one line, which the winner table, atomics or the fold take on the never-walking context.
        const HostTensor vector = randomTensor(rng, pair.dtype, {6});
        const HostTensor values = indexTensor(index_type, {50}, mixedValues(rng, index_type, 6, 50, 3));
        ASSERT_NO_FATAL_FAILURE(expectFormsMatchReference(*ctx, scatterElementsOperator(*ctx, 0, pair.reduction, kSkip),
                                                          {vector, values, randomTensor(rng, pair.dtype, {50})}));
      }
    }
  }
}

// Every index skipped: the output is data, in every form and on every strategy.
TEST_F(ScatterSkipTest, AllSkippedLeavesData) {
  Rng rng(47);
  for (Context* ctx : contexts()) {
    ASSERT_NE(ctx, nullptr);
    for (const Pair& pair : pairs()) {
      SCOPED_TRACE(describe(pair, DataType::kInt64));
      const HostTensor data = randomTensor(rng, pair.dtype, {4, 3});
      const HostTensor tuples =
          indexTensor(DataType::kInt64, {6, 1}, {-1, 4, -5, INT64_MAX, INT64_MIN, (1ll << 32) + 1});
      ASSERT_NO_FATAL_FAILURE(expectHandWrittenResult(*ctx, scatterNDOperator(*ctx, pair.reduction, kSkip),
                                                      {data, tuples, randomTensor(rng, pair.dtype, {6, 3})}, data));
      const HostTensor lines = indexTensor(DataType::kInt64, {2, 3}, {-1, 3, 4, INT64_MIN, -4, (1ll << 32) + 2});
      ASSERT_NO_FATAL_FAILURE(expectHandWrittenResult(*ctx, scatterElementsOperator(*ctx, 1, pair.reduction, kSkip),
                                                      {data, lines, randomTensor(rng, pair.dtype, {2, 3})}, data));
    }
  }
}

// Heavy duplicate runs (more than VKINDEX_MAX_BUCKET updates onto a target) with a quarter of the updates
// skipped, onto a vector of 5 and [N, 1] tuples: the fold's heavy sort, atomics and winner tables on
// the never-walking context, walks on the shared one; light and heavy buckets both.
TEST_F(ScatterSkipTest, HeavyRunsWithSomeSkipped) {
  Rng rng(53);
  for (Context* ctx : contexts()) {
    ASSERT_NE(ctx, nullptr);
    for (const Pair& pair : pairs()) {
      for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
        SCOPED_TRACE(describe(pair, index_type));
        std::vector<int64_t> values = heavyAndLightTargets(rng, kMixedUpdates, kMixedTargets);
        const std::vector<int64_t> hostile = outOfRangeIndexValues(index_type, kMixedTargets);
        for (int64_t& v : values)
          v = rng() % 4 == 0 ? hostile[rng() % hostile.size()] : (v < 0 ? v + kMixedTargets : v);
        const HostTensor data = randomTensor(rng, pair.dtype, {kMixedTargets});
        const HostTensor updates = randomTensor(rng, pair.dtype, {kMixedUpdates});
        ASSERT_NO_FATAL_FAILURE(
            expectFormsMatchReference(*ctx, scatterElementsOperator(*ctx, 0, pair.reduction, kSkip),
                                      {data, indexTensor(index_type, {kMixedUpdates}, values), updates}));
        ASSERT_NO_FATAL_FAILURE(
            expectFormsMatchReference(*ctx, scatterNDOperator(*ctx, pair.reduction, kSkip),
                                      {data, indexTensor(index_type, {kMixedUpdates, 1}, values), updates}));
      }
    }
  }
}

// Strings (on the host): none keeps the last valid update, add appends only the valid ones.
TEST_F(ScatterSkipTest, StringsSkipOnTheHost) {
  const HostTensor data = stringTensor({3}, {"a", "b", "c"});
  const HostTensor indices = indexTensor(DataType::kInt64, {5, 1}, {2, -1, 0, (1ll << 32) + 1, 2});
  const HostTensor updates = stringTensor({5}, {"-x", "-skipped", "-y", "-skipped too", "-z"});
  ASSERT_NO_FATAL_FAILURE(expectHandWrittenResult(context(), scatterNDOperator(context(), Reduction::kNone, kSkip),
                                                  {data, indices, updates}, stringTensor({3}, {"-y", "b", "-z"})));
  ASSERT_NO_FATAL_FAILURE(expectHandWrittenResult(context(), scatterNDOperator(context(), Reduction::kAdd, kSkip),
                                                  {data, indices, updates}, stringTensor({3}, {"a-y", "b", "c-x-z"})));
  const HostTensor flat = indexTensor(DataType::kInt32, {5}, {2, -1, 0, 3, 2});
  ASSERT_NO_FATAL_FAILURE(expectHandWrittenResult(context(),
                                                  scatterElementsOperator(context(), 0, Reduction::kAdd, kSkip),
                                                  {data, flat, updates}, stringTensor({3}, {"a-y", "b", "c-x-z"})));
  ASSERT_NO_FATAL_FAILURE(expectHandWrittenResult(context(),
                                                  scatterElementsOperator(context(), 0, Reduction::kNone, kSkip),
                                                  {data, flat, updates}, stringTensor({3}, {"-y", "b", "-z"})));
}

// The default stays ONNX's rule, and a policy outside the enum is refused with the operator's name.
TEST_F(ScatterSkipTest, DefaultErrorsAndUnknownPolicyIsRefused) {
  const HostTensor data = integers(DataType::kInt32, {4}, {1, 2, 3, 4});
  const HostTensor indices = indexTensor(DataType::kInt64, {1, 1}, {-5});
  const HostTensor updates = integers(DataType::kInt32, {1}, {9});
  ASSERT_NO_FATAL_FAILURE(expectErrorInEveryForm(context(), scatterNDOperator(context(), Reduction::kNone),
                                                 {data, indices, updates}, StatusCode::kOutOfRange,
                                                 "ScatterND: indices[0] (component 0) = -5 is out of range for data "
                                                 "dim 0 of size 4 (allowed [-4, 3])"));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor d, toDevice(context(), data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor i, toDevice(context(), indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor u, toDevice(context(), updates));
  const StatusOr<Tensor> refused = scatterND(context(), d, i, u, Reduction::kNone, static_cast<IndexPolicy>(7));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(), "ScatterND: unknown index policy 7 (allowed kError, kSkip)");
  const Status in_place = scatterElementsInPlace(context(), d, i, u, 0, Reduction::kNone, static_cast<IndexPolicy>(2));
  EXPECT_EQ(in_place.message(), "ScatterElements: unknown index policy 2 (allowed kError, kSkip)");
}

}  // namespace
}  // namespace vkindex::test
