#include "support/reduction_values.hpp"

#include <array>
#include <cassert>
#include <cmath>
#include <optional>

#include "support/typed_tensors.hpp"

namespace vkindex::test {
namespace {

// The IEEE binary format of one component of a float-like type.
struct FloatFormat {
  int bits;
  int mantissa_bits;
};

std::optional<FloatFormat> floatFormat(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat16: return FloatFormat{16, 10};
    case DataType::kBFloat16: return FloatFormat{16, 7};
    case DataType::kFloat32:
    case DataType::kComplex64: return FloatFormat{32, 23};
    case DataType::kFloat64:
    case DataType::kComplex128: return FloatFormat{64, 52};
    default: return std::nullopt;
  }
}

// One component's bit pattern, drawn from the mix reductionValues describes.
uint64_t randomComponent(Rng& rng, const FloatFormat& f, ValueMix mix) {
  const uint64_t sign = uint64_t{1} << (f.bits - 1);
  const uint64_t mantissa_mask = (uint64_t{1} << f.mantissa_bits) - 1;
  const uint64_t all_ones_exponent = (sign - 1) >> f.mantissa_bits;  // inf and NaN
  const uint64_t bias = all_ones_exponent >> 1;
  const uint64_t inf = all_ones_exponent << f.mantissa_bits, quiet = uint64_t{1} << (f.mantissa_bits - 1);
  const uint64_t random_sign = rng() % 2 ? sign : 0;
  const auto withExponent = [&](uint64_t exponent) {
    return random_sign | exponent << f.mantissa_bits | (rng() & mantissa_mask);
  };
  const uint64_t kind = mix == ValueMix::kNormalsOnly ? 0 : rng() % 16;
  if (kind < 5) return withExponent(bias - 2 + rng() % 4);
  if (kind < 7) return withExponent(1 + rng() % 2);
  if (kind < 9) return random_sign | (rng() & mantissa_mask);
  if (kind < 11) return withExponent(all_ones_exponent - 1 - rng() % 2);
  if (kind < 14) return rng() & (sign | (sign - 1));
  const uint64_t specials[] = {
      0,                               // +0
      sign,                            // -0
      inf,                             // +inf
      sign | inf,                      // -inf
      inf | quiet,                     // a quiet NaN
      sign | inf | quiet | 1,          // a negative quiet NaN with a payload
      inf | 1,                         // a signalling NaN
      sign | inf | quiet >> 1,         // a negative signalling NaN, payload in the top kept bits
      1,                               // the smallest subnormal
      sign | mantissa_mask,            // the largest negative subnormal
      bias << f.mantissa_bits,         // 1
      sign | bias << f.mantissa_bits,  // -1
      (inf - 1),                       // the largest finite
      uint64_t{1} << f.mantissa_bits,  // the smallest normal
  };
  return specials[rng() % std::size(specials)];
}

}  // namespace

HostTensor reductionValues(Rng& rng, DataType dtype, Shape shape, ValueMix mix) {
  if (dtype == DataType::kBool) {
    // ONNX's bools, 0 or 1, true with a probability of 1/8, 1/2 or 7/8 per tensor: a fold of several
    // updates by OR or AND then comes out either way often enough to tell the two apart.
    HostTensor tensor;
    tensor.dtype = dtype;
    tensor.shape = std::move(shape);
    const uint64_t eighths = std::array<uint64_t, 3>{1, 4, 7}[rng() % 3];
    tensor.bytes.resize(tensor.elementCount());
    for (uint8_t& byte : tensor.bytes) byte = rng() % 8 < eighths ? 1 : 0;
    return tensor;
  }
  const std::optional<FloatFormat> format = floatFormat(dtype);
  if (!format) return randomTensor(rng, dtype, std::move(shape));
  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  const size_t component_bytes = static_cast<size_t>(format->bits / 8);
  tensor.bytes.resize(tensor.elementCount() * elementSize(dtype));
  for (size_t at = 0; at < tensor.bytes.size(); at += component_bytes) {
    const uint64_t bits = randomComponent(rng, *format, mix);
    for (size_t b = 0; b < component_bytes; ++b) tensor.bytes[at + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
  return tensor;
}

HostTensor orderSensitiveUpdates(Rng& rng, DataType dtype, Shape shape) {
  const std::optional<FloatFormat> format = floatFormat(dtype);
  assert(format && !shape.empty() && shape[0] > 0);
  const bool complex = dtype == DataType::kComplex64 || dtype == DataType::kComplex128;
  const uint64_t rows = static_cast<uint64_t>(shape[0]);
  uint64_t per_row = 1;
  for (size_t d = 1; d < shape.size(); ++d) per_row *= static_cast<uint64_t>(shape[d]);
  std::vector<double> values;
  for (uint64_t i = 0; i < rows; ++i) {
    const double big = std::ldexp((i / 4) % 2 ? 1.0 : 3.0, format->mantissa_bits + 3);
    const double block[4] = {big, static_cast<double>(1 + rng() % 3), -big, static_cast<double>(1 + rng() % 3)};
    for (uint64_t e = 0; e < per_row; ++e) {
      for (uint64_t c = 0; c < (complex ? 2u : 1u); ++c) values.push_back(block[(e + c) % 2 ? 3 - i % 4 : i % 4]);
    }
  }
  return realTensor(dtype, std::move(shape), values);
}

HostTensor smallExactValues(DataType dtype, Shape shape) {
  static const double kValues[] = {0.0, 0.5, -2.0, 4.0, -1.0, 0.25};
  const bool complex = dtype == DataType::kComplex64 || dtype == DataType::kComplex128;
  uint64_t components = complex ? 2 : 1;
  for (int64_t dim : shape) components *= static_cast<uint64_t>(dim);
  std::vector<double> values;
  for (uint64_t i = 0; i < components; ++i) values.push_back(kValues[i % std::size(kValues)]);
  return realTensor(dtype, std::move(shape), values);
}

}  // namespace vkindex::test
