// The CPU reference of one scatter reduction step, combine(current, update), for every type and
// reduction the agreed semantics define; the kernels must match it bit for bit:
// - int8 ... uint64: add and mul wrap modulo 2^bits; max/min compare signed (intN) or unsigned (uintN).
// - float32, float64 add/mul: IEEE 754, round to nearest even, subnormal inputs and results exact (no
//   flush to zero). NaN results follow x86-64 SSE with `current` as the first operand: a NaN current
//   is returned quieted; else a NaN update, quieted; else (inf - inf, 0 x inf) the default NaN
//   (0xFFC00000, 0xFFF8000000000000).
// - float16, bfloat16 add/mul: both operands widened exactly to float32, the float32 operation above,
//   rounded once to the type (nearest even, subnormals kept, overflow to inf; NaNs: half_floats.hpp).
// - max/min on the float types: update replaces iff update > current (max) or update < current (min)
//   under IEEE comparison: a NaN update never replaces, a NaN current stays, of +0/-0 the current
//   stays; the replaced value is the update's exact bits.
// - complex64/complex128 (current a + bi, update c + di), each operation rounded separately with the
//   float rules above, no fused multiply-add: add (a + c) + (b + d)i; mul re = a*c - b*d,
//   im = a*d + b*c, where x - y of a NaN applies the NaN rule to (x, y) with y not negated.
// - bool add and mul: the larger and the smaller byte, which on ONNX's bools (bytes 0 and 1) are OR and
//   AND; other bytes keep their truth (nonzero iff either, or both, are) but not a canonical byte.
// - string add appends the update (reference_ops.cpp: strings are not bytes, so not here).
// - Undefined (defined_reductions.hpp): max and min on bool, anything but none and add on string, max and
//   min on complex.
#pragma once

#include <cstdint>

#include "vkindex/data_type.hpp"
#include "vkindex/reduction.hpp"

namespace vkindex::test {

// Combines the element at `update` into the element at `current` (each elementSize(dtype) bytes,
// little-endian) by `reduction`; kNone copies. Precondition: reductionDefined(dtype, reduction), and not strings.
void combineBytes(DataType dtype, Reduction reduction, uint8_t* current, const uint8_t* update);

}  // namespace vkindex::test
