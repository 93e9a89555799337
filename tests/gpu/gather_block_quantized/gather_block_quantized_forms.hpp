// What the GatherBlockQuantized suites share: a call's host inputs, the runner that puts it through the
// operator's forms (a new output, the caller's output, recorded into a command buffer of the test's own,
// and the host-index forms) and compares each result with the CPU reference byte for byte
// (support/gather_block_quantized_reference.hpp), and the same for an error, which must leave a
// caller's output untouched in every form.
#pragma once

#include <optional>
#include <string>

#include "support/gather_block_quantized_reference.hpp"
#include "support/gpu_test.hpp"

namespace vkindex::test {

// One call: data, indices, scales, optional zero points, the attributes and the index policy.
struct QuantizedGatherCall {
  HostTensor data, indices, scales;
  std::optional<HostTensor> zero_points;
  GatherBlockQuantizedOptions options;

  // "uint8 [3, 8] bits 4 block 16 gather 0 quantize 1, indices int64 [2], scales float16 [3, 1], zero points
  // uint8 [3, 1], index values 2 -3" (kError named when set; the first 24 index values).
  std::string description() const;
  const HostTensor* zeroPoints() const { return zero_points ? &*zero_points : nullptr; }
  ReferenceResult reference() const {
    return referenceGatherBlockQuantized(data, indices, scales, zeroPoints(), options);
  }
};

// The forms a comparison runs, as bits: the new output; the caller's output (pre-filled with garbage);
// recorded into the caller's output; the host-index forms (new output and caller's output).
enum QuantizedGatherForm : unsigned {
  kNewOutput = 1,
  kCallersOutput = 2,
  kRecorded = 4,
  kHostIndices = 8,
  kEveryForm = 15,
};

// Random data of `dtype` and `shape` (uint8: bytes of packed codes): every code but the NaN ones of
// the float8 types, and random padding nibbles.
HostTensor randomCodes(Rng& rng, DataType dtype, const Shape& shape);

// Random finite nonzero scales of `dtype`: three in four of moderate magnitude (2^-12 <= |s| < 2^3, any
// mantissa), the rest any finite nonzero pattern (subnormals, the type's extremes).
HostTensor randomScales(Rng& rng, DataType dtype, const Shape& shape);

// The zero points' shape for data of `dtype` with `bits` and scales of `scales_shape`: the scales'
// shape, for uint8 with bits 4 or 2 the last dim packed 8 / bits per byte (rows of whole bytes).
Shape zeroPointShape(DataType dtype, int64_t bits, Shape scales_shape);

// The index type the suites pair with data of `data` and scales of `scale`: int32 or int64, so that each
// data type meets both and each scale type meets both, while every (data, scale) pair compiles the
// kernel for one index type only (SwiftShader spends about half a second on each variant).
DataType pairedIndexType(DataType data, DataType scale);

// Whether the suites run data of `data` (uint8: with `bits`) with scales of `scale` in the embedding
// layout, which the kernel takes a word of codes at a time (the word path), or in other layouts (the
// element path): one of the two for each pair, so that each data type and each scale type meets both
// while each pair compiles one of the kernel's two paths only.
bool wordLayoutFor(DataType data, int64_t bits, DataType scale);

// The fixture of the directed and random suites: one gtest suite, so one process compiles each kernel
// variant once.
class QuantizedGatherTest : public GpuTest {};

// The randomized suites' n-th case: the new output and one of the other three in turn.
unsigned rotatingForms(size_t n);

// Runs the call in `forms` and compares each result with the reference (which must find every index
// valid): type, shape and bytes. Data, indices, scales and zero points must be unchanged afterwards.
void expectQuantizedGatherMatches(Context& context, const QuantizedGatherCall& call, unsigned forms = kEveryForm);

// The reference must give `expected` (written out by hand), and every form too.
void expectQuantizedGatherGives(Context& context, const QuantizedGatherCall& call, const HostTensor& expected);

// The output shape and type a caller would pass for this call (Gather's shape in codes, the scales'
// type), made valid where the call's attributes are not: canaries of error tests take it.
Shape plausibleOutputShape(const QuantizedGatherCall& call);
DataType plausibleOutputType(const QuantizedGatherCall& call);

// The call fails with `code` and exactly `message` in every form of `forms`: the caller's outputs (a
// canary of the plausible shape and type) keep every byte, and the inputs theirs.
void expectQuantizedGatherFails(Context& context, const QuantizedGatherCall& call, StatusCode code,
                                const std::string& message, unsigned forms = kEveryForm);

// The agreed device-side message of a bad index at flat `position` of the call's indices:
// "GatherBlockQuantized: indices[1] = 5 is out of range for axis 0 of size 4 (allowed [-4, 3])".
std::string quantizedGatherIndexMessage(const QuantizedGatherCall& call, uint64_t position);

}  // namespace vkindex::test
