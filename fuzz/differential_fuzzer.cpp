// Differential fuzzing of the operators on a real Vulkan driver (lavapipe in CI) against the CPU
// reference. Each input draws one small random call, the soak test's generator (tests/gpu/
// soak_cases.hpp): operator, data type, index type, reduction, shapes and values. The input may also
// plant one index value of its own choosing, anywhere in the indices, so that out-of-range, negative
// and 64-bit values whose low word looks valid all reach the device's checks.
//
// The verdict must match the reference's: the same bytes, or kOutOfRange naming the planted index's
// position. A device that cannot run the type (kUnsupported) is skipped; any other status, any
// validation message, or a crash is a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "gpu/soak_cases.hpp"
#include "support/error_checks.hpp"

namespace vkindex::fuzz {
namespace {

using test::HostTensor;

Context& sharedContext() {
  static std::unique_ptr<Context> context = [] {
    ContextOptions options;
    options.validation = true;
    StatusOr<std::unique_ptr<Context>> created = Context::create(options);
    if (!created.ok()) fail("no Vulkan context (set VK_DRIVER_FILES): " + created.status().toString());
    return std::move(created).value();
  }();
  return *context;
}

// Writes `value` over index element `position` (int32 indices take its low 32 bits, as a caller's
// narrowing would).
void plantIndex(HostTensor& indices, uint64_t position, int64_t value) {
  const size_t width = elementSize(indices.dtype);
  if (width == 4) {
    const auto narrow = static_cast<int32_t>(static_cast<uint64_t>(value) & 0xffffffffu);
    std::memcpy(indices.bytes.data() + position * width, &narrow, width);
  } else {
    std::memcpy(indices.bytes.data() + position * width, &value, width);
  }
}

// The "indices[...]" an index error names for flat element `position` of `indices`: its coordinates,
// or for GatherND and ScatterND the coordinates of the tuple it belongs to.
std::string namedIndex(const std::string& op, const HostTensor& indices, uint64_t position) {
  if (op != "GatherND" && op != "ScatterND") return "indices[" + test::coordinateText(position, indices.shape) + "]";
  const Shape tuples(indices.shape.begin(), indices.shape.end() - 1);
  return "indices[" + test::coordinateText(position / static_cast<uint64_t>(indices.shape.back()), tuples) + "]";
}

void runOne(FuzzedDataProvider& input) {
  test::Rng rng(input.ConsumeIntegral<uint64_t>());
  const test::SoakKind kind = test::randomSoakKind(rng);
  test::SoakCase call = test::randomSoakCase(rng, kind);
  HostTensor& indices = call.inputs[1];
  std::string planted;
  if (input.ConsumeBool() && indices.elementCount() > 0) {
    const uint64_t position = input.ConsumeIntegralInRange<uint64_t>(0, indices.elementCount() - 1);
    const auto value = input.ConsumeIntegral<int64_t>();
    plantIndex(indices, position, value);
    planted = ", index " + std::to_string(position) + " set to " + std::to_string(value);
  }
  const test::ReferenceResult expected = call.reference(call.inputs);
  const std::string what = call.description + planted;
  const std::string op = call.description.substr(0, call.description.find_first_of(" :"));

  Context& context = sharedContext();
  const uint32_t messages_before = context.validationMessageCount();
  std::vector<Tensor> tensors;
  for (const HostTensor& host : call.inputs) {
    StatusOr<Tensor> tensor = test::toDevice(context, host);
    check(tensor.ok(), what + ": upload failed: " + tensor.status().toString());
    tensors.push_back(std::move(tensor).value());
  }
  StatusOr<Tensor> output = call.run(context, tensors);
  check(context.validationMessageCount() == messages_before, what + ": the validation layer reported a message");
  if (!output.ok() && output.status().code() == StatusCode::kUnsupported) return;  // a visible count in the soak

  if (expected.bad_index_position) {
    check(!output.ok(),
          what + ": succeeded, but the reference rejects index " + std::to_string(*expected.bad_index_position));
    const std::string prefix = op + ": " + namedIndex(op, indices, *expected.bad_index_position);
    check(output.status().code() == StatusCode::kOutOfRange && output.status().message().rfind(prefix, 0) == 0,
          what + ": expected kOutOfRange starting '" + prefix + "', got " + output.status().toString());
    return;
  }
  check(output.ok(), what + ": failed: " + output.status().toString());
  StatusOr<HostTensor> actual = test::toHost(*output);
  check(actual.ok(), what + ": download failed: " + actual.status().toString());
  check(actual->dtype == expected.output.dtype && actual->shape == expected.output.shape,
        what + ": got " + test::describe(*actual) + ", expected " + test::describe(expected.output));
  check(actual->bytes == expected.output.bytes, what + ": the bytes differ from the reference's");
}

}  // namespace
}  // namespace vkindex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  vkindex::fuzz::runOne(input);
  return 0;
}
