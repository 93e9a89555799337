// Bad index values in ScatterElements and ScatterND, which the device checks: exact status codes and
// messages (the agreed wording) and proof that an error writes nothing: a caller's output keeps its
// canary, in-place data keeps its bytes, also with one bad index among 100,000, in a later indices
// window, after duplicate-heavy folds, and in the recorded forms. This binary also runs under
// GPU-assisted validation (see tests/CMakeLists.txt): silence there shows that hostile indices never
// make a shader touch memory outside its buffers.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gpu/embedding/embedding_fixture.hpp"
#include "gpu/scatter/scatter_errors_fixture.hpp"
#include "support/defined_reductions.hpp"
#include "support/error_checks.hpp"

namespace vkindex::test {
namespace {

// --- Device-side checks: index values ----------------------------------------------------------------

// Values outside [-5, 4] of both index types: just past both ends, the types' extremes, 2^32 + 1 and
// -2^32 + 1 (whose low word alone would look valid), and 2^32 (low word 0).
std::vector<HostileIndex> badValues() { return hostileIndexCases(5); }

TEST_F(ScatterErrorsTest, ElementsBadIndexValuesAreReportedAndNothingIsWritten) {
  // One bad value planted at [1, 0] of 2x3 indices into data [5, 3], along axis 0 (size 5) and along
  // axis -1 (size 3); the other values are valid for both. With and without a reduction.
  for (const HostileIndex& c : badValues()) {
    const HostTensor indices = indexTensor(c.index_type, {2, 3}, {2, -3, 0, c.value, 1, -1});
    ASSERT_EQ(referenceScatterElements(floats({5, 3}), indices, floats({2, 3}), 0, Reduction::kNone).bad_index_position,
              3u)
        << c.value;
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(elements(floats({5, 3}), indices, floats({2, 3}), 0)));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(elements(floats({5, 3}), indices, floats({2, 3}), -1, Reduction::kAdd)));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(
        elements(values(DataType::kInt64, {5, 3}), indices, values(DataType::kInt64, {2, 3}), 0, Reduction::kMax)));
  }
  // The example of the messages list, verbatim.
  Call call = elements(floats({2, 3}), indexTensor(DataType::kInt64, {2, 2}, {0, 2, 5, 0}), floats({2, 2}), 1);
  expectError(call, StatusCode::kOutOfRange,
              "ScatterElements: indices[1, 0] = 5 is out of range for axis 1 of size 3 (allowed [-3, 2])");
  call.indices = indexTensor(DataType::kInt64, {2, 2}, {0, 2, 4294967297LL, 0});
  expectError(call, StatusCode::kOutOfRange,
              "ScatterElements: indices[1, 0] = 4294967297 is out of range for axis 1 of size 3 (allowed [-3, 2])");
}

TEST_F(ScatterErrorsTest, ElementsFirstBadPositionWins) {
  // Several bad values across 3-D indices; the smallest flat position is reported, whatever the
  // values (a later, "more wrong" value must not win).
  const std::vector<int64_t> index_values = laterBadElementIndices();
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (Reduction reduction : {Reduction::kNone, Reduction::kMul}) {
      expectError(elements(floats({3, 6, 5}), indexTensor(index_type, {3, 4, 5}, index_values), floats({3, 4, 5}), 1,
                           reduction),
                  StatusCode::kOutOfRange,
                  "ScatterElements: indices[1, 2, 3] = 7 is out of range for axis 1 of size 6 (allowed [-6, 5])");
    }
  }
}

TEST_F(ScatterErrorsTest, ElementsEmptyAxisAdmitsNoIndex) {
  expectError(elements(floats({2, 0}), indexTensor(DataType::kInt64, {1, 1}, {0}), floats({1, 1}), 1),
              StatusCode::kOutOfRange,
              "ScatterElements: indices[0, 0] = 0 is out of range for axis 1 of size 0 (an empty axis admits no "
              "index)");
  expectError(elements(floats({0, 3}), indexTensor(DataType::kInt32, {2, 3}, {-1, 0, 0, 0, 0, 0}), floats({2, 3}), -2),
              StatusCode::kOutOfRange,
              "ScatterElements: indices[0, 0] = -1 is out of range for axis 0 of size 0 (an empty axis admits no "
              "index)");
}

TEST_F(ScatterErrorsTest, ElementsBadIndexWithSubWordElementsWritesNothing) {
  Rng rng(3);
  for (DataType dtype : {DataType::kUInt8, DataType::kBool, DataType::kFloat16}) {
    ASSERT_NO_FATAL_FAILURE(
        expectOutOfRange(elements(randomTensor(rng, dtype, {6, 3}),
                                  indexTensor(DataType::kInt32, {5, 3}, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 6, 0}),
                                  randomTensor(rng, dtype, {5, 3}), 0)));
  }
}

TEST_F(ScatterErrorsTest, ElementsBadIndexInALatePeeledBlockWritesNothing) {
  // Ten dims that cannot coalesce: the plan walks one block at a time (the two outermost dims peeled,
  // the axis among them in the first case), all behind one check of every index. A bad index in the
  // last block is named exactly, and no block writes anything.
  Rng rng(11);
  const HostTensor valid = randomIndices(rng, DataType::kInt64, Shape(10, 2), 3);
  std::vector<int64_t> index_values(valid.elementCount());
  for (uint64_t i = 0; i < index_values.size(); ++i) index_values[i] = indexAt(valid, i);
  index_values[1000] = 3;
  index_values[1010] = -100;  // a later bad index does not win
  ASSERT_NO_FATAL_FAILURE(
      expectOutOfRange(elements(floats(Shape(10, 3)), indexTensor(DataType::kInt64, Shape(10, 2), index_values),
                                floats(Shape(10, 2)), 0, Reduction::kAdd)));
  index_values[1000] = 0;
  index_values[1023] = -4;
  ASSERT_NO_FATAL_FAILURE(expectOutOfRange(elements(values(DataType::kUInt8, Shape(10, 3)),
                                                    indexTensor(DataType::kInt32, Shape(10, 2), index_values),
                                                    values(DataType::kUInt8, Shape(10, 2)), 9)));
}

TEST_F(ScatterErrorsTest, NDBadIndexValuesAreReportedAndNothingIsWritten) {
  // Data [5, 5, 2]; 2x3 tuples of 2 (components in [-5, 4]), one bad value planted in component 0 or 1
  // of tuple [1, 0]. Updates [2, 3, 2].
  for (const HostileIndex& c : badValues()) {
    for (size_t component : {size_t{0}, size_t{1}}) {
      const HostTensor indices = indexTensor(c.index_type, {2, 3, 2}, tuplesWithOneValue(component, c.value));
      ASSERT_EQ(referenceScatterND(floats({5, 5, 2}), indices, floats({2, 3, 2}), Reduction::kNone).bad_index_position,
                6 + component);
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(nd(floats({5, 5, 2}), indices, floats({2, 3, 2}))));
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(
          nd(values(DataType::kUInt32, {5, 5, 2}), indices, values(DataType::kUInt32, {2, 3, 2}), Reduction::kMin)));
    }
  }
  // The example of the messages list, verbatim.
  expectError(
      nd(floats({3, 5, 2}), indexTensor(DataType::kInt64, {2, 2, 2}, {0, 4, 2, -5, 2, 7, 1, 1}), floats({2, 2, 2})),
      StatusCode::kOutOfRange,
      "ScatterND: indices[1, 0] (component 1) = 7 is out of range for data dim 1 of size 5 (allowed [-5, 4])");
}

// Only empty data can have a dim of 2^32 or more, and then the check is all that runs, comparing in
// 64 bits (check_indices_wide): ScatterND into data [2^33, 0], in each form.
TEST_F(ScatterErrorsTest, NDIndicesIntoADimOf2To32OrMoreAreCheckedIn64Bits) {
  const int64_t s = int64_t(1) << 33;
  const Call valid = nd(floats({s, 0}), indexTensor(DataType::kInt64, {3, 1}, {s - 1, -s, 0}), floats({3, 0}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), valid.data));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context(), valid.indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(context(), valid.updates));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, valid.bind(context()).run(data, indices, updates));
  EXPECT_EQ(output.shape(), (Shape{s, 0}));
  EXPECT_TRUE(valid.bind(context()).run_in_place(data, indices, updates).ok());
  for (int64_t bad : {s, -s - 1, INT64_MIN, INT64_MAX}) {
    const Call call = nd(floats({s, 0}), indexTensor(DataType::kInt64, {3, 1}, {s - 1, -s, bad}), floats({3, 0}));
    expectError(call, StatusCode::kOutOfRange, call.outOfRangeMessage(2));
  }
}

TEST_F(ScatterErrorsTest, NDFirstBadElementWins) {
  // The first bad ELEMENT in row-major order, not the first bad component nor the most wrong value:
  // tuple [0, 1] has a bad component 2, tuple [1, 0] a bad component 0 (and [1, 2] another).
  const std::vector<int64_t> index_values = laterBadTupleIndices();
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    for (Reduction reduction : {Reduction::kNone, Reduction::kAdd}) {
      expectError(
          nd(floats({4, 5, 6, 2}), indexTensor(index_type, {2, 3, 3}, index_values), floats({2, 3, 2}), reduction),
          StatusCode::kOutOfRange,
          "ScatterND: indices[0, 1] (component 2) = -7 is out of range for data dim 2 of size 6 (allowed [-6, "
          "5])");
    }
  }
}

TEST_F(ScatterErrorsTest, NDBadIndexInRankOneIndices) {
  // A single tuple: its coordinates are empty.
  expectError(nd(floats({3, 4}), indexTensor(DataType::kInt32, {2}, {1, 4}), floats({})), StatusCode::kOutOfRange,
              "ScatterND: indices[] (component 1) = 4 is out of range for data dim 1 of size 4 (allowed [-4, 3])");
  expectError(nd(floats({3, 4}), indexTensor(DataType::kInt64, {1}, {-4}), floats({4})), StatusCode::kOutOfRange,
              "ScatterND: indices[] (component 0) = -4 is out of range for data dim 0 of size 3 (allowed [-3, 2])");
}

TEST_F(ScatterErrorsTest, NDEmptyDimAdmitsNoIndex) {
  expectError(nd(floats({2, 3, 0}), indexTensor(DataType::kInt64, {1, 3}, {0, 0, 0}), floats({1})),
              StatusCode::kOutOfRange,
              "ScatterND: indices[0] (component 2) = 0 is out of range for data dim 2 of size 0 (an empty axis admits "
              "no index)");
  // The updates are empty (the slice dim is 0) but the tuples are still validated.
  expectError(nd(floats({4, 0}), indexTensor(DataType::kInt64, {2, 1}, {1, 4}), floats({2, 0})),
              StatusCode::kOutOfRange,
              "ScatterND: indices[1] (component 0) = 4 is out of range for data dim 0 of size 4 (allowed [-4, 3])");
}

TEST_F(ScatterErrorsTest, NDBadIndexWithSubWordSlicesWritesNothing) {
  Rng rng(3);
  for (DataType dtype : {DataType::kUInt8, DataType::kBool, DataType::kBFloat16}) {
    ASSERT_NO_FATAL_FAILURE(
        expectOutOfRange(nd(randomTensor(rng, dtype, {6, 3}), indexTensor(DataType::kInt32, {5, 1}, {0, 1, -6, 5, 6}),
                            randomTensor(rng, dtype, {5, 3}))));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(nd(randomTensor(rng, dtype, {6, 3}),
                                                indexTensor(DataType::kInt64, {3, 2}, {0, 1, 5, 3, 3, -4}),
                                                randomTensor(rng, dtype, {3}))));
  }
}

TEST_F(ScatterErrorsTest, BadIndexIntoStringsLeavesTheStringsUntouched) {
  HostTensor words;
  words.dtype = DataType::kString;
  words.shape = {2, 2};
  words.strings = {"a", "b", "c", "d"};
  HostTensor updates = words;
  updates.strings = {"w", "x", "y", "z"};
  expectError(elements(words, indexTensor(DataType::kInt64, {2, 2}, {1, -2, 0, 2}), updates, 1),
              StatusCode::kOutOfRange,
              "ScatterElements: indices[1, 1] = 2 is out of range for axis 1 of size 2 (allowed [-2, 1])");
  updates.shape = {2};
  updates.strings = {"y", "z"};
  expectError(nd(words, indexTensor(DataType::kInt64, {2, 2}, {1, -2, 0, 2}), updates), StatusCode::kOutOfRange,
              "ScatterND: indices[1] (component 1) = 2 is out of range for data dim 1 of size 2 (allowed [-2, 1])");
}

// One bad index among 100,000 valid ones, late in the indices: in place, the data keeps every byte;
// into a caller's output, its canary stays.
TEST_F(ScatterErrorsTest, OneBadIndexAmongAHundredThousandWritesNothing) {
  Rng rng(100000);
  const HostTensor data = randomTensor(rng, DataType::kFloat32, {1000, 100});
  HostTensor indices = randomIndices(rng, DataType::kInt64, {1000, 100}, 1000);
  const int64_t element_bad = (int64_t{1} << 32) + 7;
  std::memcpy(indices.bytes.data() + 98765 * 8, &element_bad, 8);
  Call elements_call = elements(data, indices, randomTensor(rng, DataType::kFloat32, {1000, 100}), 0);
  const Shape data_shape = {200, 300, 4};
  const HostTensor nd_data = randomTensor(rng, DataType::kInt32, data_shape);
  HostTensor tuples = randomTuples(rng, DataType::kInt32, {50000, 2}, data_shape, 0);
  const int32_t tuple_bad = -301;
  std::memcpy(tuples.bytes.data() + (43210 * 2 + 1) * 4, &tuple_bad, 4);
  Call nd_call = nd(nd_data, tuples, randomTensor(rng, DataType::kInt32, {50000, 4}));
  // Each without a reduction, then with one.
  for (const Reduction reduction : {Reduction::kNone, Reduction::kAdd}) {
    elements_call.reduction = reduction;
    expectError(elements_call, StatusCode::kOutOfRange,
                "ScatterElements: indices[987, 65] = 4294967303 is out of range for axis 0 of size 1000 (allowed "
                "[-1000, 999])");
  }
  for (const Reduction reduction : {Reduction::kNone, Reduction::kMax}) {
    nd_call.reduction = reduction;
    expectError(nd_call, StatusCode::kOutOfRange,
                "ScatterND: indices[43210] (component 1) = -301 is out of range for data dim 1 of size 300 (allowed "
                "[-300, 299])");
  }
}

TEST_F(ScatterErrorsTest, BadIndexInALaterIndicesWindowIsReported) {
  // 4 KiB bindings split 3000 int64 indices into several windows; the first bad one is in a later
  // window, and a second bad one after it must not win.
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> ctx, makeContextWithBindings(4096));
  std::vector<int64_t> element_values = steppedIndexValues(3000, 100);
  element_values[2123] = -101;
  element_values[2500] = 100;
  std::vector<int64_t> tuple_values = steppedIndexValues(1000 * 3, 5);
  tuple_values[800 * 3 + 1] = 5;
  tuple_values[900 * 3 + 0] = -6;
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    expectError(*ctx,
                elements(floats({100, 3}), indexTensor(index_type, {1000, 3}, element_values), floats({1000, 3}), 0),
                StatusCode::kOutOfRange,
                "ScatterElements: indices[707, 2] = -101 is out of range for axis 0 of size 100 (allowed [-100, 99])");
    expectError(*ctx, nd(floats({5, 5, 5, 2}), indexTensor(index_type, {1000, 3}, tuple_values), floats({1000, 2})),
                StatusCode::kOutOfRange,
                "ScatterND: indices[800] (component 1) = 5 is out of range for data dim 1 of size 5 (allowed [-5, 4])");
  }
  EXPECT_EQ(ctx->validationMessageCount(), 0u) << ctx->firstValidationMessage();
}

// Random shapes, types and reductions with 1-3 bad values planted at random positions: the message
// names the first one exactly (as the reference finds it) and nothing is written. A third of the cases
// run with 4 KiB bindings, so bad values land in later windows too, and a third on a context that never
// walks (winner tables for none, the fold by owner for reductions).
TEST_F(ScatterErrorsTest, RandomBadIndicesAreReportedExactlyAndWriteNothing) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> capped, makeContextWithBindings(4096));
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> tables, makeContextThatNeverWalks());
  Rng rng(0xbad5c);
  const DataType types[] = {DataType::kUInt8,   DataType::kFloat16, DataType::kInt32,
                            DataType::kFloat32, DataType::kUInt64,  DataType::kComplex128};
  for (int round = 0; round < 24; ++round) {
    Context& ctx = round % 3 == 1 ? *capped : round % 3 == 2 ? *tables : context();
    const DataType dtype = types[rng() % std::size(types)];
    Reduction reduction = static_cast<Reduction>(rng() % 5);
    if (!reductionDefined(dtype, reduction)) reduction = Reduction::kNone;
    const DataType index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
    const size_t r = 1 + rng() % 4;
    Shape data_shape = randomShape(rng, r, 600);
    for (int64_t& dim : data_shape) dim = std::max<int64_t>(dim, 1);
    Call call;
    if (round % 4 < 2) {
      const size_t a = rng() % r;
      Shape index_shape = data_shape;
      index_shape[a] = 1 + static_cast<int64_t>(rng() % 40);
      const HostTensor valid = randomIndices(rng, DataType::kInt64, index_shape, data_shape[a]);
      std::vector<int64_t> index_values;
      for (uint64_t e = 0; e < valid.elementCount(); ++e) index_values.push_back(indexAt(valid, e));
      for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
        const std::vector<int64_t> bad = hostileIndexValues(index_type, data_shape[a]);
        index_values[rng() % index_values.size()] = bad[rng() % bad.size()];
      }
      call = elements(randomTensor(rng, dtype, data_shape), indexTensor(index_type, index_shape, index_values),
                      randomTensor(rng, dtype, index_shape), static_cast<int64_t>(a) - (rng() % 2 ? 0 : int64_t(r)),
                      reduction);
    } else {
      const size_t k = 1 + rng() % r;
      const Shape index_shape = {1 + static_cast<int64_t>(rng() % 200), static_cast<int64_t>(k)};
      const HostTensor valid = randomTuples(rng, DataType::kInt64, index_shape, data_shape, 0);
      std::vector<int64_t> index_values;
      for (uint64_t e = 0; e < valid.elementCount(); ++e) index_values.push_back(indexAt(valid, e));
      for (int planted = 1 + static_cast<int>(rng() % 3); planted > 0; --planted) {
        const uint64_t e = rng() % index_values.size();
        const std::vector<int64_t> bad = hostileIndexValues(index_type, data_shape[e % k]);
        index_values[e] = bad[rng() % bad.size()];
      }
      Shape update_shape = {index_shape[0]};
      update_shape.insert(update_shape.end(), data_shape.begin() + static_cast<std::ptrdiff_t>(k), data_shape.end());
      call = nd(randomTensor(rng, dtype, data_shape), indexTensor(index_type, index_shape, index_values),
                randomTensor(rng, dtype, update_shape), reduction);
    }
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_NO_FATAL_FAILURE(expectOutOfRange(ctx, call));
  }
  EXPECT_EQ(capped->validationMessageCount(), 0u) << capped->firstValidationMessage();
  EXPECT_EQ(tables->validationMessageCount(), 0u) << tables->firstValidationMessage();
}

// Duplicate-heavy reductions through the fold by owner's heavy sort (a context that never walks), 40
// updates per target on 16 targets (one digit pass) and 300 (three): valid ones match the reference
// byte for byte and, under GPU-assisted validation, touch nothing outside their buffers; one bad index
// late among them writes nothing (heavy_plan.comp then dispatches no heavy pass).
TEST_F(ScatterErrorsTest, DuplicateHeavyFoldsStayInBoundsAndWriteNothingOnABadIndex) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Context> fold, makeContextThatNeverWalks());
  Rng rng(0x4ea5);
  for (const int64_t targets : {int64_t{16}, int64_t{300}}) {
    const int64_t count = targets * 40;
    const Shape data_shape = {targets, 3};
    const Call calls[] = {elements(randomTensor(rng, DataType::kFloat32, {targets}),
                                   randomIndices(rng, DataType::kInt64, {count}, targets),
                                   randomTensor(rng, DataType::kFloat32, {count}), 0, Reduction::kAdd),
                          nd(randomTensor(rng, DataType::kUInt16, data_shape),
                             randomTuples(rng, DataType::kInt32, {count, 1}, data_shape, 0),
                             randomTensor(rng, DataType::kUInt16, {count, 3}), Reduction::kMax)};
    for (const Call& call : calls) {
      SCOPED_TRACE(call.description());
      const ReferenceResult expected = call.reference();
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(*fold, call.data));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(*fold, call.indices));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(*fold, call.updates));
      VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, call.bind(*fold).run(data, indices, updates));
      VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
      EXPECT_TRUE(actual.bytes == expected.output.bytes);
      Call bad = call;
      const size_t index_bytes = call.indices.dtype == DataType::kInt64 ? 8 : 4;
      const int64_t past_end = targets;
      std::memcpy(bad.indices.bytes.data() + (count - 3) * index_bytes, &past_end, index_bytes);
      ASSERT_NO_FATAL_FAILURE(expectOutOfRange(*fold, bad));
    }
  }
  EXPECT_EQ(fold->validationMessageCount(), 0u) << fold->firstValidationMessage();
}

// Boundary values are valid: they update exactly the first and last elements or slices of each dim.
TEST_F(ScatterErrorsTest, BoundaryIndicesAreValid) {
  for (DataType index_type : {DataType::kInt32, DataType::kInt64}) {
    const HostTensor data = floats({5, 3});
    const HostTensor element_indices = indexTensor(index_type, {2, 3}, {4, -5, 0, -1, 0, 4});
    const HostTensor tuples = indexTensor(index_type, {4, 2}, {4, -3, -5, 2, 0, -1, -1, 0});
    const ReferenceResult expected_elements =
        referenceScatterElements(data, element_indices, floats({2, 3}), 0, Reduction::kNone);
    const ReferenceResult expected_nd = referenceScatterND(data, tuples, floats({4}), Reduction::kNone);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(context(), data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor element_tensor, toDevice(context(), element_indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuple_tensor, toDevice(context(), tuples));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor element_updates, toDevice(context(), floats({2, 3})));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuple_updates, toDevice(context(), floats({4})));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output,
                                 scatterElements(context(), data_tensor, element_tensor, element_updates, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_EQ(actual.bytes, expected_elements.output.bytes);
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_output, scatterND(context(), data_tensor, tuple_tensor, tuple_updates));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor nd_actual, toHost(nd_output));
    EXPECT_EQ(nd_actual.bytes, expected_nd.output.bytes);
  }
}

// --- The recorded forms, in the application's command buffer and buffer ----------------------------------

// A bad index in recorded ScatterElements and ScatterND, into a caller's output and in place: finish()
// reports it exactly (twice), the outputs and the in-place data keep their bytes, and a good op
// recorded next to them is unaffected. A host error is returned by the record call itself.
TEST_F(EmbeddingTest, BadIndexInRecordedScatterWritesNothing) {
  ASSERT_NO_FATAL_FAILURE(adopt());
  Rng rng(43);
  const Placed data = place(randomTensor(rng, DataType::kFloat32, {4, 3}));
  const Placed in_place_elements = place(randomTensor(rng, DataType::kFloat32, {4, 3}));
  const Placed in_place_nd = place(randomTensor(rng, DataType::kInt32, {4, 3}));
  const Placed good_data = place(randomTensor(rng, DataType::kUInt8, {4, 3}));
  // 2^32 + 1 at [1, 2]: its low word alone (1) would be a valid index.
  const Placed bad_elements = place(indexTensor(DataType::kInt64, {2, 3}, {3, -4, 0, 1, 2, 4294967297LL}));
  const Placed bad_tuples = place(indexTensor(DataType::kInt64, {2, 1}, {3, -4294967295LL}));
  const Placed good_tuples = place(indexTensor(DataType::kInt32, {3, 1}, {3, -4, 3}));
  const Placed float_updates = place(randomTensor(rng, DataType::kFloat32, {2, 3}));
  const Placed int_updates = place(randomTensor(rng, DataType::kInt32, {2, 3}));
  const Placed byte_updates = place(randomTensor(rng, DataType::kUInt8, {3, 3}));
  const VkDeviceSize elements_out = reserve(4 * 3 * 4);
  const VkDeviceSize nd_out = reserve(4 * 3 * 4);
  const VkDeviceSize good_out = reserve(4 * 3);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_view, view(DataType::kFloat32, {4, 3}, data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor in_place_elements_view,
                               view(DataType::kFloat32, {4, 3}, in_place_elements.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor in_place_nd_view, view(DataType::kInt32, {4, 3}, in_place_nd.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_data_view, view(DataType::kUInt8, {4, 3}, good_data.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_view, view(DataType::kInt64, {2, 3}, bad_elements.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tuples_view, view(DataType::kInt64, {2, 1}, bad_tuples.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_tuples_view, view(DataType::kInt32, {3, 1}, good_tuples.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor float_updates_view, view(DataType::kFloat32, {2, 3}, float_updates.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor int_updates_view, view(DataType::kInt32, {2, 3}, int_updates.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor byte_updates_view, view(DataType::kUInt8, {3, 3}, byte_updates.offset));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor elements_output, view(DataType::kFloat32, {4, 3}, elements_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_output, view(DataType::kFloat32, {4, 3}, nd_out));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor good_output, view(DataType::kUInt8, {4, 3}, good_out));

  VkCommandBuffer cmd = VK_NULL_HANDLE;
  ASSERT_NO_FATAL_FAILURE(beginOps(cmd));
  // A host error: the record call returns it and records nothing usable.
  StatusOr<RecordedOp> refused = recordScatterElements(*context_, cmd, good_data_view, elements_view, byte_updates_view,
                                                       0, Reduction::kAdd, good_output);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "ScatterElements: input 'updates' has shape [3, 3] but input 'indices' has shape [2, 3]; they must be "
            "equal");
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp elements_op,
                               recordScatterElements(*context_, cmd, data_view, elements_view, float_updates_view, 0,
                                                     Reduction::kNone, elements_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp elements_in_place_op,
                               recordScatterElements(*context_, cmd, in_place_elements_view, elements_view,
                                                     float_updates_view, 0, Reduction::kAdd, in_place_elements_view));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp nd_op, recordScatterND(*context_, cmd, data_view, tuples_view,
                                                                 float_updates_view, Reduction::kMax, nd_output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp nd_in_place_op,
                               recordScatterND(*context_, cmd, in_place_nd_view, tuples_view, int_updates_view,
                                               Reduction::kMul, in_place_nd_view));
  VKINDEX_ASSERT_OK_AND_ASSIGN(RecordedOp good_op, recordScatterND(*context_, cmd, good_data_view, good_tuples_view,
                                                                   byte_updates_view, Reduction::kNone, good_output));
  ASSERT_NO_FATAL_FAILURE(endOps(cmd));
  ASSERT_NO_FATAL_FAILURE(submitAndWait(cmd));

  const std::string elements_message =
      "ScatterElements: indices[1, 2] = 4294967297 is out of range for axis 0 of size 4 (allowed [-4, 3])";
  const std::string nd_message =
      "ScatterND: indices[1] (component 0) = -4294967295 is out of range for data dim 0 of size 4 (allowed [-4, 3])";
  for (RecordedOp* op : {&elements_op, &elements_in_place_op}) expectFinishFails(*op, elements_message);
  for (RecordedOp* op : {&nd_op, &nd_in_place_op}) expectFinishFails(*op, nd_message);
  VKINDEX_ASSERT_OK(good_op.finish());
  const ReferenceResult good =
      referenceScatterND(good_data.host, good_tuples.host, byte_updates.host, Reduction::kNone);
  ASSERT_FALSE(good.bad_index_position.has_value());
  writeBytes(good_out, good.output.bytes);
  EXPECT_TRUE(bufferMatchesImage()) << "a bad op wrote something, or the good output is wrong";
}

}  // namespace
}  // namespace vkindex::test
