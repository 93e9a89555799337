// Compiled with -ffp-contract=off (tests/CMakeLists.txt): a fused multiply-add would round a*c - b*d
// once instead of three times. Each operation also goes through its own function, so every result is
// rounded to its type before the next one reads it.
#include "support/reduction_reference.hpp"

#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "support/bit_cast.hpp"
#include "support/defined_reductions.hpp"
#include "support/half_floats.hpp"

namespace vkindex::test {
namespace {

// float and double arithmetic in their own precision (x86-64 SSE, not x87's extended registers).
static_assert(FLT_EVAL_METHOD == 0, "float and double operations must round to their own type");

template <typename T>
T load(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

template <typename T>
void store(uint8_t* bytes, T value) {
  std::memcpy(bytes, &value, sizeof(T));
}

// The quiet bit and the default NaN of the x86-64 SSE rule, per float type.
template <typename F>
struct NaNBits;
template <>
struct NaNBits<float> {
  using Bits = uint32_t;
  static constexpr Bits kQuiet = 0x00400000u;
  static constexpr Bits kDefault = 0xFFC00000u;
};
template <>
struct NaNBits<double> {
  using Bits = uint64_t;
  static constexpr Bits kQuiet = 0x0008000000000000u;
  static constexpr Bits kDefault = 0xFFF8000000000000u;
};

template <typename F>
F quieted(F nan) {
  return bitCast<F>(bitCast<typename NaNBits<F>::Bits>(nan) | NaNBits<F>::kQuiet);
}

// The result of an operation on (x, y) whose host result is `raw`, with the NaN rule applied
// explicitly: the host FPU's NaN payloads are not relied on.
template <typename F>
F withNaNRule(F x, F y, F raw) {
  if (!std::isnan(raw)) return raw;
  if (std::isnan(x)) return quieted(x);
  if (std::isnan(y)) return quieted(y);
  return bitCast<F>(NaNBits<F>::kDefault);
}

template <typename F>
F add(F x, F y) {
  return withNaNRule(x, y, x + y);
}
template <typename F>
F mul(F x, F y) {
  return withNaNRule(x, y, x * y);
}
// x - y equals x + (-y) for every non-NaN pair (signed zeros included); NaNs keep (x, y) as they are.
template <typename F>
F sub(F x, F y) {
  return withNaNRule(x, y, x - y);
}

// add or mul, the only arithmetic reductions.
template <typename F>
F arithmetic(Reduction reduction, F current, F update) {
  assert(reduction == Reduction::kAdd || reduction == Reduction::kMul);
  return reduction == Reduction::kAdd ? add(current, update) : mul(current, update);
}

// Whether max/min lets the update replace the current value: IEEE comparison, false for NaNs.
template <typename T>
bool replaces(Reduction reduction, T current, T update) {
  return reduction == Reduction::kMax ? update > current : update < current;
}

bool ordered(Reduction reduction) { return reduction == Reduction::kMax || reduction == Reduction::kMin; }

// Integers: U the unsigned form (add and mul wrap there, computed in 64 bits so that no narrow type
// promotes to a signed int that could overflow), S the type max and min compare in.
template <typename U, typename S>
void combineInteger(Reduction reduction, uint8_t* current, const uint8_t* update) {
  static_assert(sizeof(U) == sizeof(S), "one width");
  if (ordered(reduction)) {
    if (replaces(reduction, load<S>(current), load<S>(update))) store<U>(current, load<U>(update));
    return;
  }
  const uint64_t a = load<U>(current), b = load<U>(update);
  store<U>(current, static_cast<U>(reduction == Reduction::kAdd ? a + b : a * b));
}

// float32 and float64.
template <typename F>
void combineFloat(Reduction reduction, uint8_t* current, const uint8_t* update) {
  const F a = load<F>(current), b = load<F>(update);
  if (ordered(reduction)) {
    if (replaces(reduction, a, b)) std::memcpy(current, update, sizeof(F));
    return;
  }
  store<F>(current, arithmetic(reduction, a, b));
}

// float16 and bfloat16: exact widening, the float32 operation, one rounding back.
void combineHalf(Reduction reduction, uint8_t* current, const uint8_t* update, float (*widen)(uint16_t),
                 uint16_t (*narrow)(float)) {
  const float a = widen(load<uint16_t>(current)), b = widen(load<uint16_t>(update));
  if (ordered(reduction)) {
    if (replaces(reduction, a, b)) std::memcpy(current, update, sizeof(uint16_t));
    return;
  }
  store<uint16_t>(current, narrow(arithmetic(reduction, a, b)));
}

// complex64 and complex128: (re, im) pairs of F; add and mul only.
template <typename F>
void combineComplex(Reduction reduction, uint8_t* current, const uint8_t* update) {
  const F a = load<F>(current), b = load<F>(current + sizeof(F));
  const F c = load<F>(update), d = load<F>(update + sizeof(F));
  F re, im;
  if (reduction == Reduction::kAdd) {
    re = add(a, c);
    im = add(b, d);
  } else {
    re = sub(mul(a, c), mul(b, d));
    im = add(mul(a, d), mul(b, c));
  }
  store<F>(current, re);
  store<F>(current + sizeof(F), im);
}

}  // namespace

void combineBytes(DataType dtype, Reduction reduction, uint8_t* current, const uint8_t* update) {
  assert(reductionDefined(dtype, reduction) && "an undefined pair (a host error of the operator)");
  if (reduction == Reduction::kNone) {
    assert(dtype != DataType::kString);
    std::memcpy(current, update, elementSize(dtype));
    return;
  }
  switch (dtype) {
    case DataType::kInt8: return combineInteger<uint8_t, int8_t>(reduction, current, update);
    case DataType::kUInt8: return combineInteger<uint8_t, uint8_t>(reduction, current, update);
    case DataType::kInt16: return combineInteger<uint16_t, int16_t>(reduction, current, update);
    case DataType::kUInt16: return combineInteger<uint16_t, uint16_t>(reduction, current, update);
    case DataType::kInt32: return combineInteger<uint32_t, int32_t>(reduction, current, update);
    case DataType::kUInt32: return combineInteger<uint32_t, uint32_t>(reduction, current, update);
    case DataType::kInt64: return combineInteger<uint64_t, int64_t>(reduction, current, update);
    case DataType::kUInt64: return combineInteger<uint64_t, uint64_t>(reduction, current, update);
    case DataType::kFloat16: return combineHalf(reduction, current, update, halfToFloat, floatToHalf);
    case DataType::kBFloat16: return combineHalf(reduction, current, update, bfloat16ToFloat, floatToBFloat16);
    case DataType::kFloat32: return combineFloat<float>(reduction, current, update);
    case DataType::kFloat64: return combineFloat<double>(reduction, current, update);
    case DataType::kComplex64: return combineComplex<float>(reduction, current, update);
    case DataType::kComplex128: return combineComplex<double>(reduction, current, update);
    case DataType::kBool: {  // add: OR, mul: AND, on bytes 0 and 1
      const bool larger = reduction == Reduction::kAdd;
      if (larger ? *update > *current : *update < *current) *current = *update;
      return;
    }
    case DataType::kString: break;  // strings are not bytes: reference_ops.cpp appends them
    default: break;                 // the low-precision types are TensorScatter's only: no reductions
  }
}

}  // namespace vkindex::test
