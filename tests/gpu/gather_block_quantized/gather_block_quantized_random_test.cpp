// GatherBlockQuantized on random calls of every data kind (int4, uint4, uint8 with bits 8, 4 and 2, the
// four float8 types, float4e2m1) x every scale type (float32, float16, bfloat16) x with and without
// zero points (integer data) x block sizes 16 to 128 (and 0 for float data), in both kernel paths (the
// embedding layout a word of codes at a time, any other element by element): every axis pair the
// operator allows at ranks 1 to 3 (uint8: gather_axis 0, quantize_axis last, ranks 2 and 3), named
// negative half the time, float data's scales shared along the axes before or after quantize_axis,
// int32 and int64 indices of rank 0 to 2 with negative and duplicated values (an out-of-range one under
// kSkip now and then), in rotating forms, byte for byte against the CPU reference. Codes along
// quantize_axis end mid-block, mid-byte and mid-word; scales span moderate and extreme magnitudes, so
// results overflow float16 and fall to subnormals. Each (data, scale) pair takes one index type
// (pairedIndexType) and one layout (wordLayoutFor): compiling the kernel's variants is most of
// the suite's time (about half a second each on SwiftShader). The word path's quads (four data words
// at a time) have random calls of their own, of every integer kind, in the layouts that take them.
#include <string>

#include "common/gather_block_quantized_params.h"
#include "core/context_impl.hpp"
#include "gather_block_quantized_forms.hpp"
#include "plan/gather_block_quantized_plan.hpp"

namespace vkindex::test {
namespace {

// A data type and, for uint8, its bits per code.
struct CodeKind {
  DataType dtype;
  int64_t bits;
};

bool isIntegerKind(const CodeKind& kind) {
  return kind.dtype == DataType::kInt4 || kind.dtype == DataType::kUInt4 || kind.dtype == DataType::kUInt8;
}

int64_t pick(Rng& rng, std::initializer_list<int64_t> values) {
  return *(values.begin() + static_cast<ptrdiff_t>(rng() % values.size()));
}

const DataType kScaleTypes[] = {DataType::kFloat32, DataType::kFloat16, DataType::kBFloat16};

// Whether the n-th random call of `kind` takes the word layout (wordLayoutFor its scale type).
bool wordLayout(const CodeKind& kind, size_t n) { return wordLayoutFor(kind.dtype, kind.bits, kScaleTypes[n % 3]); }

// The n-th random call of `kind`, of scale type n % 3. The word layout is the embedding layout
// (gather_axis 0, quantize_axis last, whole 32-bit words of codes along it), which the kernel takes a
// word of codes at a time (src/plan/gather_block_quantized_plan.cpp: the word path); the other any
// axes, codes along quantize_axis ending anywhere in a word. Each scale type four times: integer data
// with every block size, with and without zero points; float data with four of the five block sizes.
QuantizedGatherCall randomCall(Rng& rng, const CodeKind& kind, size_t n) {
  const bool integer = isIntegerKind(kind), uint8 = kind.dtype == DataType::kUInt8;
  const bool word_layout = wordLayout(kind, n);
  const size_t turn = n / 3;  // 0 to 3 for each scale type
  const size_t float_block = (turn + n % 3) % 5;
  QuantizedGatherCall call;
  GatherBlockQuantizedOptions& options = call.options;
  options.bits = uint8 ? kind.bits : 4;
  options.block_size = integer ? int64_t{16} << turn : float_block == 4 ? 0 : int64_t{16} << float_block;
  const int64_t rank = uint8 || word_layout ? 2 + static_cast<int64_t>(rng() % 2) : 1 + static_cast<int64_t>(rng() % 3);
  const int64_t g = uint8 || word_layout ? 0 : static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));
  const int64_t q = uint8 || word_layout ? rank - 1 : static_cast<int64_t>(rng() % static_cast<uint64_t>(rank));

  // Codes: small dims, quantize_axis ending mid-block (and, for uint8, a multiple of the codes per byte;
  // in the word layout, of the codes per 32-bit word).
  Shape codes(static_cast<size_t>(rank));
  for (int64_t& dim : codes) dim = pick(rng, {1, 2, 3, 5});
  if (g != q) codes[static_cast<size_t>(g)] = pick(rng, {1, 2, 3, 5, 7});
  const int64_t per_byte = uint8 ? 8 / kind.bits : 1;
  const int64_t code_bits = uint8 ? kind.bits : static_cast<int64_t>(elementBits(kind.dtype));
  const int64_t step = word_layout ? 32 / code_bits : per_byte;
  int64_t along = 0;
  if (options.block_size == 0) {
    along = 1 + static_cast<int64_t>(rng() % 40);
  } else {
    const int64_t blocks = 1 + static_cast<int64_t>(rng() % 3);
    along =
        (blocks - 1) * options.block_size + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(options.block_size));
  }
  along = (along + step - 1) / step * step;
  codes[static_cast<size_t>(q)] = along;
  Shape data_shape = codes;
  data_shape.back() /= per_byte;
  call.data = randomCodes(rng, kind.dtype, data_shape);

  // Scales: the block count along quantize_axis; float data shares one scale along every axis before
  // quantize_axis, after it, both or neither.
  const int64_t effective_block = options.block_size == 0 ? along : options.block_size;
  Shape scales_shape = codes;
  scales_shape[static_cast<size_t>(q)] = (along + effective_block - 1) / effective_block;
  if (!integer) {
    const bool shared_outer = rng() % 3 == 0, shared_inner = rng() % 3 == 0;
    for (int64_t d = 0; d < rank; ++d) {
      if ((d < q && shared_outer) || (d > q && shared_inner)) scales_shape[static_cast<size_t>(d)] = 1;
    }
  }
  call.scales = randomScales(rng, kScaleTypes[n % 3], scales_shape);
  if (integer && turn % 2 == 0) {
    call.zero_points = randomTensor(rng, kind.dtype, zeroPointShape(kind.dtype, kind.bits, scales_shape));
  }

  // Indices: rank 0 to 2, values in [-A, A-1] with a duplicate; now and then one out of range (kSkip).
  const DataType index_type = pairedIndexType(kind.dtype, call.scales.dtype);
  const int64_t axis_dim = codes[static_cast<size_t>(g)];
  Shape index_shape;
  for (size_t d = 0; d < n / 4 % 3; ++d) index_shape.push_back(pick(rng, {1, 2, 3, 4}));
  int64_t index_count = 1;
  for (int64_t dim : index_shape) index_count *= dim;
  std::vector<int64_t> values(static_cast<size_t>(index_count));
  for (int64_t& value : values) value = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * axis_dim)) - axis_dim;
  if (values.size() >= 2) values[rng() % values.size()] = values[0];
  if (n % 5 == 3) {
    const std::vector<int64_t> bad = outOfRangeIndexValues(index_type, axis_dim);
    values[rng() % values.size()] = bad[rng() % bad.size()];
  }
  call.indices = indexTensor(index_type, index_shape, values);
  options.gather_axis = rng() % 2 ? g - rank : g;
  options.quantize_axis = rng() % 2 ? q - rank : q;
  return call;
}

// The plan `context` makes for `call` with its tensors placed alone, or an error.
StatusOr<plan::OpPlan> planOf(Context& context, const QuantizedGatherCall& call) {
  std::optional<plan::TensorInput> zero_points;
  if (call.zero_points) zero_points = plan::TensorInput{call.zero_points->dtype, call.zero_points->shape};
  const StatusOr<plan::GatherBlockQuantizedShape> shape =
      plan::inferGatherBlockQuantizedShape({call.data.dtype, call.data.shape}, {call.indices.dtype, call.indices.shape},
                                           {call.scales.dtype, call.scales.shape}, zero_points, call.options);
  if (!shape.ok()) return shape.status();
  const auto whole = [](const HostTensor& tensor) { return plan::Placement{0, tensor.bytes.size()}; };
  std::optional<plan::Placement> zero_point_placement;
  if (call.zero_points) zero_point_placement = whole(*call.zero_points);
  return plan::planGatherBlockQuantized(*shape, whole(call.data), whole(call.indices), whole(call.scales),
                                        zero_point_placement, whole(call.reference().output), context.device(),
                                        tuningOf(context));
}

// Whether `context` plans `call` with the word path's kernel: the coverage the word layout is for.
bool takesTheWordPath(Context& context, const QuantizedGatherCall& call) {
  const StatusOr<plan::OpPlan> plan = planOf(context, call);
  if (!plan.ok()) return false;
  for (const plan::Step& step : plan->steps) {
    if (step.kernel == plan::Kernel::kGatherBlockQuantizedWords ||
        step.kernel == plan::Kernel::kGatherBlockQuantizedWordsHalfScales ||
        step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNative ||
        step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNativeInt64) {
      return true;
    }
  }
  return false;
}

// Random calls of `kind` (`make`'s, seeded from `seed` and the kind), in rotating forms, each first
// checked by `check_plan` (what the plan must hold for the coverage the calls are for).
using CallMaker = QuantizedGatherCall (*)(Rng&, const CodeKind&, size_t);
using PlanCheck = void (*)(Context&, const CodeKind&, const QuantizedGatherCall&, size_t);
void expectCallsMatch(Context& context, const CodeKind& kind, uint64_t seed, size_t calls, CallMaker make,
                      PlanCheck check_plan) {
  Rng rng(seed + 31 * static_cast<uint64_t>(kind.dtype) + static_cast<uint64_t>(kind.bits));
  for (size_t n = 0; n < calls; ++n) {
    SCOPED_TRACE("case " + std::to_string(n));
    const QuantizedGatherCall call = make(rng, kind, n);
    check_plan(context, kind, call, n);
    ASSERT_NO_FATAL_FAILURE(expectQuantizedGatherMatches(context, call, rotatingForms(n)));
  }
}

// The word layout's calls take the word path.
void expectWordLayoutTakesTheWordPath(Context& context, const CodeKind& kind, const QuantizedGatherCall& call,
                                      size_t n) {
  if (wordLayout(kind, n)) {
    EXPECT_TRUE(takesTheWordPath(context, call)) << "the word layout takes the element path";
  }
}

// 12 random calls of `kind`; the word layout's take the word path.
void expectRandomCallsMatch(Context& context, const CodeKind& kind) {
  expectCallsMatch(context, kind, 0x96b0, 12, randomCall, expectWordLayoutTakesTheWordPath);
}

// Whether the plan for `call` could take the word path's quads of data words (a native module's word
// path, every pass in segments of whole quads: the rest of the condition holds by the quads' calls'
// construction) and whether it does.
struct QuadUse {
  bool eligible = false, taken = false;
};
QuadUse quadUseOf(Context& context, const QuantizedGatherCall& call) {
  const StatusOr<plan::OpPlan> plan = planOf(context, call);
  QuadUse use;
  if (!plan.ok() || plan->steps.empty()) return use;
  use.eligible = use.taken = true;
  for (const plan::Step& step : plan->steps) {
    const bool native = step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNative ||
                        step.kernel == plan::Kernel::kGatherBlockQuantizedWordsNativeInt64;
    use.eligible = use.eligible && native && step.spec[plan::kSpecSegmentWords] % 4 == 0;
    use.taken = use.taken && (plan::pushOf<abi::GatherBlockQuantizedParams>(step).flags & VKINDEX_GBQ_QUAD_WORDS) != 0;
  }
  return use;
}

// The n-th random call of integer `kind` in the word path's quads (four data words at a time, where the
// quantized axis, blocks and segments are whole quads): data [rows, Q] or [rows, 2, Q] with Q a multiple
// of a quad's codes, blocks of one, two or four quads' codes (longer than the axis now and then), scales
// of type n % 3 (moderate and extreme, so that plain and general blocks share segments), zero points
// every other turn, 40 indices (words enough for segments of whole quads on lavapipe) with negative and
// duplicated values and now and then one out of range (kSkip: a zero slice).
QuantizedGatherCall randomQuadCall(Rng& rng, const CodeKind& kind, size_t n) {
  const bool uint8 = kind.dtype == DataType::kUInt8;
  const int64_t code_bits = uint8 ? kind.bits : 4, per_byte = uint8 ? 8 / kind.bits : 1;
  const int64_t quad_codes = 4 * 32 / code_bits;
  QuantizedGatherCall call;
  GatherBlockQuantizedOptions& options = call.options;
  options.bits = uint8 ? kind.bits : 4;
  options.block_size = quad_codes << (n / 3 % 3 + n % 2);
  options.gather_axis = 0;
  options.quantize_axis = -1;
  const int64_t along = quad_codes * pick(rng, {1, 2, 3, 5});
  const int64_t axis_dim = pick(rng, {3, 7, 16});
  const Shape codes = n % 2 ? Shape{axis_dim, along} : Shape{axis_dim, 2, along};
  Shape data_shape = codes;
  data_shape.back() /= per_byte;
  call.data = randomCodes(rng, kind.dtype, data_shape);
  Shape scales_shape = codes;
  scales_shape.back() = (along + options.block_size - 1) / options.block_size;
  call.scales = randomScales(rng, kScaleTypes[n % 3], scales_shape);
  if (n / 3 % 2 == 0) {
    call.zero_points = randomTensor(rng, kind.dtype, zeroPointShape(kind.dtype, kind.bits, scales_shape));
  }
  std::vector<int64_t> values(40);
  for (int64_t& value : values) value = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * axis_dim)) - axis_dim;
  values[rng() % values.size()] = values[0];
  if (n % 4 == 1) values[rng() % values.size()] = axis_dim + static_cast<int64_t>(rng() % 3);
  call.indices =
      indexTensor(pairedIndexType(kind.dtype, call.scales.dtype), {static_cast<int64_t>(values.size())}, values);
  return call;
}

// The quads' calls take the quads wherever the plan could (lavapipe and GPUs, whose native modules
// have them), under any tuning; under lavapipe's own (long segments, groups of 256) every one can.
void expectQuadsWherePossible(Context& context, const CodeKind&, const QuantizedGatherCall& call, size_t) {
  const QuadUse use = quadUseOf(context, call);
  EXPECT_EQ(use.eligible, use.taken) << call.description();
  const plan::Tuning& tuning = tuningOf(context);
  if (tuning.native_float32_add && tuning.row_items >= 64 && tuning.workgroup_size == 256) {
    EXPECT_TRUE(use.eligible) << call.description();
  }
}

// 6 random calls of integer `kind` in the quads' layout.
void expectRandomQuadCallsMatch(Context& context, const CodeKind& kind) {
  expectCallsMatch(context, kind, 0x9a0d, 6, randomQuadCall, expectQuadsWherePossible);
}

TEST_F(QuantizedGatherTest, RandomQuadsInt4) { expectRandomQuadCallsMatch(context(), {DataType::kInt4, 4}); }
TEST_F(QuantizedGatherTest, RandomQuadsUInt4) { expectRandomQuadCallsMatch(context(), {DataType::kUInt4, 4}); }
TEST_F(QuantizedGatherTest, RandomQuadsUInt8Bits8) { expectRandomQuadCallsMatch(context(), {DataType::kUInt8, 8}); }
TEST_F(QuantizedGatherTest, RandomQuadsUInt8Bits4) { expectRandomQuadCallsMatch(context(), {DataType::kUInt8, 4}); }
TEST_F(QuantizedGatherTest, RandomQuadsUInt8Bits2) { expectRandomQuadCallsMatch(context(), {DataType::kUInt8, 2}); }

TEST_F(QuantizedGatherTest, RandomInt4) { expectRandomCallsMatch(context(), {DataType::kInt4, 4}); }
TEST_F(QuantizedGatherTest, RandomUInt4) { expectRandomCallsMatch(context(), {DataType::kUInt4, 4}); }
TEST_F(QuantizedGatherTest, RandomUInt8Bits8) { expectRandomCallsMatch(context(), {DataType::kUInt8, 8}); }
TEST_F(QuantizedGatherTest, RandomUInt8Bits4) { expectRandomCallsMatch(context(), {DataType::kUInt8, 4}); }
TEST_F(QuantizedGatherTest, RandomUInt8Bits2) { expectRandomCallsMatch(context(), {DataType::kUInt8, 2}); }
TEST_F(QuantizedGatherTest, RandomFloat8E4M3FN) { expectRandomCallsMatch(context(), {DataType::kFloat8E4M3FN, 8}); }
TEST_F(QuantizedGatherTest, RandomFloat8E4M3FNUZ) { expectRandomCallsMatch(context(), {DataType::kFloat8E4M3FNUZ, 8}); }
TEST_F(QuantizedGatherTest, RandomFloat8E5M2) { expectRandomCallsMatch(context(), {DataType::kFloat8E5M2, 8}); }
TEST_F(QuantizedGatherTest, RandomFloat8E5M2FNUZ) { expectRandomCallsMatch(context(), {DataType::kFloat8E5M2FNUZ, 8}); }
TEST_F(QuantizedGatherTest, RandomFloat4E2M1) { expectRandomCallsMatch(context(), {DataType::kFloat4E2M1, 4}); }

}  // namespace
}  // namespace vkindex::test
