// Misuse of the C++ API that the C API already refuses: moved-from and default tensors, null host
// pointers, views whose offset plus size wraps past 2^64, and DataType or Reduction values outside
// their enums. Each must be a clean kInvalidArgument naming what is wrong, never a crash, a write
// through another tensor's buffer, or a read past a table.
#include <cstring>
#include <limits>
#include <utility>

#include "support/gpu_test.hpp"
#include "support/random_tensors.hpp"

namespace vkindex::test {
namespace {

class TensorMisuseTest : public GpuTest {};

void expectInvalid(const Status& status, const std::string& message) {
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.toString();
  EXPECT_EQ(status.message(), message);
}

std::vector<float> downloadFloats(const Tensor& tensor) {
  std::vector<float> values(tensor.elementCount());
  const Status status = tensor.download(values.data(), values.size() * sizeof(float));
  EXPECT_TRUE(status.ok()) << status.toString();
  return values;
}

// A moved-from tensor is empty: it no longer names the buffer it handed over, so neither a transfer
// nor an operator can write the new owner's bytes through it.
TEST_F(TensorMisuseTest, MovedFromTensorsAreEmpty) {
  const std::vector<float> values = {1, 2, 3, 4};
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor source, Tensor::fromHost(context(), DataType::kFloat32, {4}, values.data(), 16));
  Tensor owner(std::move(source));
  Tensor assigned;
  VKINDEX_ASSERT_OK_AND_ASSIGN(assigned, Tensor::fromHost(context(), DataType::kFloat32, {4}, values.data(), 16));
  Tensor second_owner;
  second_owner = std::move(assigned);
  for (const Tensor* moved : {&source, &assigned}) {
    EXPECT_EQ(moved->context(), nullptr);
    EXPECT_EQ(moved->buffer(), VkBuffer(VK_NULL_HANDLE));
    EXPECT_EQ(moved->elementCount(), 0u);
    EXPECT_TRUE(moved->shape().empty());
  }
  const std::vector<float> garbage = {-1, -1, -1, -1};
  expectInvalid(source.upload(garbage.data(), 0),
                "Tensor::upload: the tensor is empty (default-constructed or moved from)");
  const std::vector<float> data_values = {10, 20, 30};
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data,
                               Tensor::fromHost(context(), DataType::kFloat32, {3}, data_values.data(), 12));
  const int32_t index = 1;
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor scalar_index, Tensor::fromHost(context(), DataType::kInt32, {}, &index, 4));
  // The moved-from tensor's empty shape is a scalar output's: the context check must refuse it.
  EXPECT_FALSE(gather(context(), data, scalar_index, 0, source).ok());
  EXPECT_EQ(downloadFloats(owner), values);
  EXPECT_EQ(downloadFloats(second_owner), values);
}

TEST_F(TensorMisuseTest, EmptyTensorsAndNullBytesAreRefused) {
  Tensor empty;
  const std::string empty_message = "the tensor is empty (default-constructed or moved from)";
  expectInvalid(empty.upload(nullptr, 0), "Tensor::upload: " + empty_message);
  expectInvalid(empty.download(nullptr, 0), "Tensor::download: " + empty_message);
  expectInvalid(empty.toHost().status(), "Tensor::download: " + empty_message);
  expectInvalid(Tensor::fromHost(context(), DataType::kFloat32, {2}, nullptr, 8).status(),
                "Tensor::upload: 'bytes' is null");
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor tensor, Tensor::create(context(), DataType::kFloat32, {2}));
  expectInvalid(tensor.download(nullptr, 8), "Tensor::download: 'bytes' is null");
  // No bytes to move: a null pointer is fine.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor none, Tensor::create(context(), DataType::kFloat32, {0}));
  VKINDEX_ASSERT_OK(none.upload(nullptr, 0));
  VKINDEX_ASSERT_OK(none.download(nullptr, 0));
}

// offset + size near 2^64 wrapped around and passed the fit check; views are now compared without
// forming that sum.
TEST_F(TensorMisuseTest, ViewsThatWrapPastTwoToTheSixtyFourAreRefused) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor backing, Tensor::create(context(), DataType::kFloat32, {16384}));
  const VkDeviceSize huge = std::numeric_limits<VkDeviceSize>::max() - 15;
  expectInvalid(Tensor::view(context(), DataType::kFloat32, {4}, backing.buffer(), huge, 65536).status(),
                "Tensor::view: 16 bytes (rounded up to whole 32-bit words) at offset 18446744073709551600 do not "
                "fit a buffer of 65536 bytes");
  expectInvalid(Tensor::view(context(), DataType::kFloat32, {4}, backing.buffer(), 65528, 65536).status(),
                "Tensor::view: 16 bytes (rounded up to whole 32-bit words) at offset 65528 do not fit a buffer "
                "of 65536 bytes");
  VKINDEX_ASSERT_OK(Tensor::view(context(), DataType::kFloat32, {4}, backing.buffer(), 65520, 65536).status());
}

TEST_F(TensorMisuseTest, DataTypesOutsideTheEnumAreRefused) {
  const DataType unknown = static_cast<DataType>(200);
  EXPECT_FALSE(isKnownDataType(unknown));
  EXPECT_STREQ(dataTypeName(unknown), "unknown");
  EXPECT_EQ(elementSize(unknown), 0u);
  for (DataType type : kClassicDataTypes) EXPECT_TRUE(isKnownDataType(type)) << dataTypeName(type);
  expectInvalid(Tensor::create(context(), unknown, {1}).status(), "Tensor::create: unknown data type 200");
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor backing, Tensor::create(context(), DataType::kFloat32, {4}));
  expectInvalid(Tensor::view(context(), unknown, {1}, backing.buffer(), 0, 16).status(),
                "Tensor::view: unknown data type 200");
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::create(context(), DataType::kFloat32, {3}));
  const int64_t index = 0;
  const HostIndices indices{static_cast<DataType>(77), {1}, &index};
  expectInvalid(gather(context(), data, indices, 0).status(),
                "Gather: input 'indices' has type unknown; allowed types are int32 and int64");
}

// The C API refuses reductions outside the enum; the C++ API ran them as add.
TEST_F(TensorMisuseTest, ReductionsOutsideTheEnumAreRefused) {
  Rng rng(5);
  const HostTensor data_host = randomTensor(rng, DataType::kFloat32, {6});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, toDevice(context(), data_host));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices,
                               toDevice(context(), indexTensor(DataType::kInt64, {6}, {0, 1, 2, 3, 4, 5})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor nd_indices,
                               toDevice(context(), indexTensor(DataType::kInt64, {6, 1}, {0, 1, 2, 3, 4, 5})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, toDevice(context(), randomTensor(rng, DataType::kFloat32, {6})));
  const std::string allowed = " (allowed none, add, mul, max, min)";
  expectInvalid(scatterElements(context(), data, indices, updates, 0, static_cast<Reduction>(99)).status(),
                "ScatterElements: unknown reduction 99" + allowed);
  expectInvalid(scatterND(context(), data, nd_indices, updates, static_cast<Reduction>(-1)).status(),
                "ScatterND: unknown reduction -1" + allowed);
  expectInvalid(scatterElementsInPlace(context(), data, indices, updates, 0, static_cast<Reduction>(5)),
                "ScatterElements: unknown reduction 5" + allowed);
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor after, toHost(data));
  EXPECT_EQ(after.bytes, data_host.bytes);
}

}  // namespace
}  // namespace vkindex::test
