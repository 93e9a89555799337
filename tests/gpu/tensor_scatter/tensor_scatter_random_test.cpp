// TensorScatter on random caches of every one of its 24 types (the 16 classic ones and the 8 low-precision
// ones), both modes, every axis but the batch axis (named negative half the time), ranks 2 to 6, batch 1
// to 5, seq_len 0, 1 and more, write indices that wrap and that lie far beyond max_seq in circular mode,
// with and without write indices, in every form, byte for byte against the CPU reference. Odd row
// lengths and odd max_seq make 4-bit and 1-byte rows start and end inside 32-bit words.
#include <string>

#include "support/gpu_test.hpp"
#include "tensor_scatter_forms.hpp"

namespace vkindex::test {
namespace {

struct TensorScatterCase {
  HostTensor past, update, write_indices;
  TensorScatterOptions options;
  bool with_indices = true;

  std::string description() const {
    std::string text = describe(past) + " <- " + describe(update) + " axis " + std::to_string(options.axis) +
                       (options.mode == TensorScatterMode::kCircular ? " circular" : " linear");
    if (!with_indices) return text + ", no write indices";
    text += ", write indices";
    for (uint64_t b = 0; b < write_indices.elementCount(); ++b) text += " " + std::to_string(indexAt(write_indices, b));
    return text;
  }
  ScatterOperator op(Context& context) const { return tensorScatterOperator(context, options, with_indices); }
  ScatterInputs inputs() const { return {past, write_indices, update}; }
};

int64_t pick(Rng& rng, std::initializer_list<int64_t> values) {
  return *(values.begin() + static_cast<ptrdiff_t>(rng() % values.size()));
}

// A write index the mode allows for max_seq and seq_len: linear ones in [0, max_seq - seq_len]; circular
// ones anywhere from 0 to INT64_MAX, most of them wrapping.
int64_t validWriteIndex(Rng& rng, int64_t max_seq, int64_t seq_len, bool circular) {
  if (!circular) return static_cast<int64_t>(rng() % static_cast<uint64_t>(max_seq - seq_len + 1));
  switch (rng() % 4) {
    case 0: return static_cast<int64_t>(rng() % static_cast<uint64_t>(3 * max_seq + 1));
    case 1: return INT64_MAX - static_cast<int64_t>(rng() % 1000);
    case 2: return (int64_t(1) << 32) + static_cast<int64_t>(rng() % 1000);
    default: return (int64_t(1) << 40) * static_cast<int64_t>(1 + rng() % 1000) + static_cast<int64_t>(rng() % 7);
  }
}

TensorScatterCase randomCase(Rng& rng, DataType dtype, size_t n) {
  TensorScatterCase c;
  const int64_t rank = 2 + static_cast<int64_t>(n % 5);
  const int64_t axis = 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(rank - 1));
  Shape shape(static_cast<size_t>(rank));
  shape[0] = 1 + static_cast<int64_t>(rng() % 5);
  for (int64_t d = 1; d < rank; ++d) shape[static_cast<size_t>(d)] = pick(rng, {1, 2, 3, 5});
  shape[static_cast<size_t>(axis)] = pick(rng, {1, 3, 5, 7, 9, 4});
  if (axis + 1 < rank) shape.back() = pick(rng, {1, 3, 5, 7, 13});
  const int64_t max_seq = shape[static_cast<size_t>(axis)];
  const int64_t seq_len = n % 3 == 0 ? 0 : n % 3 == 1 ? 1 : 1 + static_cast<int64_t>(rng() % max_seq);
  c.options.axis = rng() % 2 ? axis - rank : axis;
  c.options.mode = n % 2 ? TensorScatterMode::kCircular : TensorScatterMode::kLinear;
  c.with_indices = n % 7 != 6;
  c.past = randomTensor(rng, dtype, shape);
  Shape update_shape = shape;
  update_shape[static_cast<size_t>(axis)] = seq_len;
  c.update = randomTensor(rng, dtype, update_shape);
  std::vector<int64_t> writes;
  for (int64_t b = 0; b < shape[0]; ++b) {
    writes.push_back(validWriteIndex(rng, max_seq, seq_len, c.options.mode == TensorScatterMode::kCircular));
  }
  c.write_indices = writeIndices(writes);
  return c;
}

class TensorScatterRandomTest : public GpuTest, public ::testing::WithParamInterface<DataType> {};

TEST_P(TensorScatterRandomTest, MatchesTheReferenceInEveryForm) {
  Rng rng(0x7e45c47 + static_cast<uint64_t>(GetParam()));
  for (size_t n = 0; n < 10; ++n) {
    SCOPED_TRACE("case " + std::to_string(n));
    const TensorScatterCase c = randomCase(rng, GetParam(), n);
    ASSERT_NO_FATAL_FAILURE(expectCaseMatchesReference(context(), c, alternating(n)));
  }
}

std::vector<DataType> everyTensorScatterType() {
  std::vector<DataType> types;
  for (DataType type : kClassicDataTypes) types.push_back(type);
  for (DataType type : kLowPrecisionDataTypes) types.push_back(type);
  return types;
}

INSTANTIATE_TEST_SUITE_P(EveryType, TensorScatterRandomTest, ::testing::ValuesIn(everyTensorScatterType()),
                         [](const ::testing::TestParamInfo<DataType>& param) { return dataTypeName(param.param); });

}  // namespace
}  // namespace vkindex::test
