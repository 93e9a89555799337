// Tensors near and beyond the device's memory limits (issue 10). Beyond maxMemoryAllocationSize a
// request is refused with kUnsupported before anything is allocated, so those cases cost nothing. At
// the limit a driver may still fail (SwiftShader refuses an allocation of exactly its 1 GiB limit):
// that must be a clean status naming the buffer, never a crash or a validation message. The cases at
// the limit allocate for real, so each holds at most one such tensor at a time, and only one fills it.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "support/gpu_test.hpp"

namespace vkindex::test {
namespace {

constexpr uint64_t kMiB = uint64_t(1) << 20;
constexpr int64_t kFloatsPerMiB = 262144;

// A float32 shape of `mebibytes` MiB.
Shape mebibytes(uint64_t count) { return {static_cast<int64_t>(count), kFloatsPerMiB}; }

class MemoryLimitsTest : public GpuTest {
 protected:
  static const DeviceInfo& info() { return context().device(); }
  static uint64_t limitMiB() { return info().max_memory_allocation_size / kMiB; }

  // The message for `bytes` over maxMemoryAllocationSize, from `what`.
  static std::string beyondLimit(const std::string& what, uint64_t bytes) {
    return what + ": " + std::to_string(bytes) + " bytes exceed the device's maxMemoryAllocationSize of " +
           std::to_string(info().max_memory_allocation_size) + " bytes (" + info().name + ")";
  }

  // Sizes (MiB) beyond the limit: 3 GiB, just over 4 GiB (wraps 32-bit sizes), one MiB over, 1 PiB.
  static std::vector<uint64_t> beyondLimitMiB() {
    std::vector<uint64_t> sizes;
    for (uint64_t mib : {uint64_t(3072), uint64_t(4097), limitMiB() + 1, uint64_t(1) << 30}) {
      if (mib * kMiB > info().max_memory_allocation_size) sizes.push_back(mib);
    }
    return sizes;
  }

  // At the limit: Ok, or the out-of-memory status a driver may give for an allocation it cannot make,
  // which names the tensor and its bytes rather than a Vulkan call.
  static void expectOkOrCleanFailure(const Status& status, const std::string& what = "Tensor::create") {
    if (status.ok()) return;
    EXPECT_EQ(status.code(), StatusCode::kResourceExhausted) << status.toString();
    EXPECT_EQ(status.message().rfind(what + ": out of memory in vkAllocateMemory of ", 0), 0u) << status.message();
  }
};

TEST_F(MemoryLimitsTest, DeviceReportsItsMemoryLimits) {
  // The Vulkan spec's minimum for both limits is 2^30 bytes.
  EXPECT_GE(info().max_memory_allocation_size, uint64_t(1) << 30);
  if (info().max_buffer_size != 0) {
    EXPECT_GE(info().max_buffer_size, uint64_t(1) << 30);
  }
  EXPECT_GT(info().device_local_heap_size, 0u);
}

TEST_F(MemoryLimitsTest, TensorsBeyondTheAllocationLimitAreRefused) {
  for (uint64_t mib : beyondLimitMiB()) {
    SCOPED_TRACE(std::to_string(mib) + " MiB");
    StatusOr<Tensor> tensor = Tensor::create(context(), DataType::kFloat32, mebibytes(mib));
    ASSERT_FALSE(tensor.ok());
    EXPECT_EQ(tensor.status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(tensor.status().message(), beyondLimit("Tensor::create", mib * kMiB));

    // fromHost is refused before it reads a byte: the 16 bytes given are never touched beyond.
    const float few[4] = {};
    StatusOr<Tensor> uploaded = Tensor::fromHost(context(), DataType::kFloat32, mebibytes(mib), few, mib * kMiB);
    ASSERT_FALSE(uploaded.ok());
    EXPECT_EQ(uploaded.status().message(), beyondLimit("Tensor::create", mib * kMiB));
  }
  // Sizes not a multiple of 16 are reported as asked, with what would have been allocated.
  const uint64_t odd = info().max_memory_allocation_size + 1;
  StatusOr<Tensor> tensor = Tensor::create(context(), DataType::kUInt8, {static_cast<int64_t>(odd)});
  ASSERT_FALSE(tensor.ok());
  EXPECT_EQ(tensor.status().message(),
            "Tensor::create: " + std::to_string(odd) + " bytes (" + std::to_string(odd + 15) +
                " allocated) exceed the device's maxMemoryAllocationSize of " +
                std::to_string(info().max_memory_allocation_size) + " bytes (" + info().name + ")");
}

TEST_F(MemoryLimitsTest, GatherOutputsBeyondTheAllocationLimitAreRefusedAsSuch) {
  // A 1 MiB row gathered `mib` times: a large output from tiny inputs, refused before any work.
  std::vector<float> row(kFloatsPerMiB, 1.0f);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::fromHost(context(), DataType::kFloat32, {1, kFloatsPerMiB},
                                                             row.data(), row.size() * sizeof(float)));
  for (uint64_t mib : beyondLimitMiB()) {
    if (mib > (uint64_t(1) << 20)) continue;  // a 1 PiB output would need a 1 GiB index tensor
    SCOPED_TRACE(std::to_string(mib) + " MiB");
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices,
                                 Tensor::create(context(), DataType::kInt32, {static_cast<int64_t>(mib)}));
    StatusOr<Tensor> output = gather(context(), data, indices, 0);
    ASSERT_FALSE(output.ok());
    EXPECT_EQ(output.status().code(), StatusCode::kUnsupported);
    EXPECT_EQ(output.status().message(), beyondLimit("Gather output", mib * kMiB));
  }
}

TEST_F(MemoryLimitsTest, TensorsAtTheAllocationLimitAreCreatedOrCleanlyRefused) {
  // Created without data: the cheap way to reach the driver's allocation at these sizes.
  for (uint64_t mib : std::set<uint64_t>{2047, 2048, limitMiB()}) {
    if (mib * kMiB > info().max_memory_allocation_size) continue;  // refused above
    SCOPED_TRACE(std::to_string(mib) + " MiB");
    StatusOr<Tensor> tensor = Tensor::create(context(), DataType::kFloat32, mebibytes(mib));
    expectOkOrCleanFailure(tensor.status());
  }
}

TEST_F(MemoryLimitsTest, UploadAtTheAllocationLimitKeepsItsBytes) {
  // The largest tensor the driver gives (2048 MiB on lavapipe, whose single 2 GiB copy used to crash),
  // filled once; a marker in every MiB, read back through views of the first and last MiB only.
  StatusOr<Tensor> tensor = Tensor::create(context(), DataType::kFloat32, mebibytes(limitMiB()));
  uint64_t mib = limitMiB();
  if (!tensor.ok()) {
    expectOkOrCleanFailure(tensor.status());
    mib -= 1;
    tensor = Tensor::create(context(), DataType::kFloat32, mebibytes(mib));
  }
  ASSERT_TRUE(tensor.ok()) << tensor.status().toString();
  // calloc: fresh pages are zero without being written, so only the markers cost host memory.
  std::unique_ptr<uint8_t, decltype(&std::free)> bytes(static_cast<uint8_t*>(std::calloc(mib, kMiB)), &std::free);
  ASSERT_TRUE(bytes);
  for (uint64_t m = 0; m < mib; ++m) {
    std::memcpy(bytes.get() + m * kMiB, &m, sizeof(m));
    bytes.get()[(m + 1) * kMiB - 1] = static_cast<uint8_t>(m * 7 + 1);
  }
  VKINDEX_ASSERT_OK(tensor->upload(bytes.get(), mib * kMiB));
  for (uint64_t m : {uint64_t(0), mib - 1}) {
    SCOPED_TRACE("MiB " + std::to_string(m));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor view, Tensor::view(context(), DataType::kUInt8, {int64_t(kMiB)},
                                                           tensor->buffer(), m * kMiB, mib * kMiB));
    VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> read, view.toHost());
    EXPECT_EQ(std::memcmp(read.data(), bytes.get() + m * kMiB, kMiB), 0);
  }
}

TEST_F(MemoryLimitsTest, GatherOutputAtTheAllocationLimitIsWritten) {
  // One 1 MiB row gathered into the largest output the driver gives: the limit (2048 MiB on lavapipe),
  // or where the driver cleanly refuses that, 1 MiB less (1023 MiB on SwiftShader).
  std::vector<float> row(kFloatsPerMiB);
  for (size_t i = 0; i < row.size(); ++i) row[i] = static_cast<float>(i % 1009);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::fromHost(context(), DataType::kFloat32, {1, kFloatsPerMiB},
                                                             row.data(), row.size() * sizeof(float)));
  for (uint64_t mib : {limitMiB(), limitMiB() - 1}) {
    SCOPED_TRACE(std::to_string(mib) + " MiB");
    std::vector<int32_t> zeros(mib, 0);
    VKINDEX_ASSERT_OK_AND_ASSIGN(
        Tensor indices, Tensor::fromHost(context(), DataType::kInt32, {static_cast<int64_t>(mib)}, zeros.data(),
                                         zeros.size() * sizeof(int32_t)));
    StatusOr<Tensor> output = gather(context(), data, indices, 0);
    if (!output.ok() && mib == limitMiB()) {
      expectOkOrCleanFailure(output.status(), "Gather output");
      continue;
    }
    ASSERT_TRUE(output.ok()) << output.status().toString();
    // The last row, read through a view (the whole output would need as much host memory again): it is
    // written by the last of many binding windows.
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor last, Tensor::view(context(), DataType::kFloat32, {kFloatsPerMiB},
                                                           output->buffer(), (mib - 1) * kMiB, mib * kMiB));
    VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> read, last.toHost());
    EXPECT_EQ(std::memcmp(read.data(), row.data(), kMiB), 0);
    break;
  }
}

}  // namespace
}  // namespace vkindex::test
