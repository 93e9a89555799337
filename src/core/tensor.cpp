#include "vkindex/tensor.hpp"

#include <utility>

#include "base/host_memory.hpp"
#include "core/tensor_access.hpp"
#include "core/transfer.hpp"
#include "plan/shape.hpp"
#include "plan/windows.hpp"
#include "vk/buffer.hpp"

namespace vkindex {
namespace {

StatusOr<uint64_t> checkedElementCount(const Shape& shape, const char* what) {
  std::optional<uint64_t> count = plan::elementCount(shape);
  if (!count || *count > uint64_t(INT64_MAX) / 16) {
    return invalidArgument(std::string(what) + ": invalid shape " + plan::shapeString(shape) +
                           " (negative dim or too many elements)");
  }
  return *count;
}

Status checkKnownType(DataType type, const std::string& what) {
  if (isKnownDataType(type)) return Status::Ok();
  return invalidArgument(what + ": unknown data type " + std::to_string(static_cast<int>(type)));
}

}  // namespace

Tensor::Tensor() = default;
Tensor::~Tensor() = default;

// A moved-from tensor is an empty one, as if default-constructed: it must not keep naming the buffer
// that now belongs to the tensor it was moved into.
Tensor::Tensor(Tensor&& other) noexcept { *this = std::move(other); }

Tensor& Tensor::operator=(Tensor&& other) noexcept {
  if (this == &other) return *this;
  context_ = std::exchange(other.context_, nullptr);
  dtype_ = std::exchange(other.dtype_, DataType::kFloat32);
  shape_ = std::exchange(other.shape_, {});
  element_count_ = std::exchange(other.element_count_, 0);
  owned_ = std::move(other.owned_);
  buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
  offset_ = std::exchange(other.offset_, 0);
  is_view_ = std::exchange(other.is_view_, false);
  strings_ = std::exchange(other.strings_, {});
  return *this;
}

uint64_t Tensor::byteSize() const { return dtype_ == DataType::kString ? 0 : packedByteSize(dtype_, element_count_); }

StatusOr<Tensor> Tensor::create(Context& context, DataType type, Shape shape) {
  return createFor(context, type, std::move(shape), "Tensor::create");
}

StatusOr<Tensor> Tensor::createFor(Context& context, DataType type, Shape shape, const std::string& purpose) {
  VKINDEX_RETURN_IF_ERROR(checkKnownType(type, purpose));
  if (type == DataType::kString) return invalidArgument(purpose + ": string tensors are made with fromStrings");
  Tensor tensor;
  VKINDEX_ASSIGN_OR_RETURN(tensor.element_count_, checkedElementCount(shape, purpose.c_str()));
  tensor.context_ = &context;
  tensor.dtype_ = type;
  tensor.shape_ = std::move(shape);
  VKINDEX_ASSIGN_OR_RETURN(vk::Buffer buffer, vk::Buffer::create(*implOf(context).device, tensor.byteSize(),
                                                                 vk::Buffer::Kind::kDevice, purpose));
  tensor.owned_ = std::make_unique<vk::Buffer>(std::move(buffer));
  tensor.buffer_ = tensor.owned_->handle();
  return tensor;
}

StatusOr<Tensor> Tensor::fromHost(Context& context, DataType type, Shape shape, const void* bytes, size_t byte_count) {
  VKINDEX_ASSIGN_OR_RETURN(Tensor tensor, create(context, type, std::move(shape)));
  VKINDEX_RETURN_IF_ERROR(tensor.upload(bytes, byte_count));
  return tensor;
}

StatusOr<Tensor> Tensor::fromStrings(Context& context, Shape shape, std::vector<std::string> strings) {
  Tensor tensor;
  VKINDEX_ASSIGN_OR_RETURN(tensor.element_count_, checkedElementCount(shape, "Tensor::fromStrings"));
  if (strings.size() != tensor.element_count_) {
    return invalidArgument("Tensor::fromStrings: shape " + plan::shapeString(shape) + " holds " +
                           std::to_string(tensor.element_count_) + " elements but " + std::to_string(strings.size()) +
                           " strings were given");
  }
  tensor.context_ = &context;
  tensor.dtype_ = DataType::kString;
  tensor.shape_ = std::move(shape);
  tensor.strings_ = std::move(strings);
  return tensor;
}

StatusOr<Tensor> Tensor::view(Context& context, DataType type, Shape shape, VkBuffer buffer, VkDeviceSize offset,
                              VkDeviceSize buffer_size) {
  VKINDEX_RETURN_IF_ERROR(checkKnownType(type, "Tensor::view"));
  if (type == DataType::kString) return invalidArgument("Tensor::view: string tensors live on the host");
  if (buffer == VK_NULL_HANDLE) return invalidArgument("Tensor::view: the VkBuffer is null");
  Tensor tensor;
  VKINDEX_ASSIGN_OR_RETURN(tensor.element_count_, checkedElementCount(shape, "Tensor::view"));
  tensor.dtype_ = type;
  if (offset % 4 != 0) {
    return invalidArgument("Tensor::view: offset " + std::to_string(offset) + " is not a multiple of 4 bytes");
  }
  // Compared without forming offset + size, which could wrap past 2^64 and pass.
  if (offset > buffer_size || plan::alignUp(tensor.byteSize(), 4) > buffer_size - offset) {
    return invalidArgument("Tensor::view: " + std::to_string(tensor.byteSize()) +
                           " bytes (rounded up to whole "
                           "32-bit words) at offset " +
                           std::to_string(offset) + " do not fit a buffer of " + std::to_string(buffer_size) +
                           " bytes");
  }
  tensor.context_ = &context;
  tensor.shape_ = std::move(shape);
  tensor.buffer_ = buffer;
  tensor.offset_ = offset;
  tensor.is_view_ = true;
  return tensor;
}

Status Tensor::upload(const void* bytes, size_t byte_count) {
  if (context_ == nullptr) {
    return invalidArgument("Tensor::upload: the tensor is empty (default-constructed or moved from)");
  }
  if (dtype_ == DataType::kString) return invalidArgument("Tensor::upload: string tensors have no device bytes");
  if (byte_count != byteSize()) {
    return invalidArgument("Tensor::upload: " + std::to_string(byte_count) + " bytes given, the " +
                           dataTypeName(dtype_) + " tensor of shape " + plan::shapeString(shape_) + " holds " +
                           std::to_string(byteSize()));
  }
  if (bytes == nullptr && byte_count != 0) return invalidArgument("Tensor::upload: 'bytes' is null");
  return uploadBytes(implOf(*context_), buffer_, offset_, bytes, byte_count);
}

Status Tensor::download(void* bytes, size_t byte_count) const {
  if (context_ == nullptr) {
    return invalidArgument("Tensor::download: the tensor is empty (default-constructed or moved from)");
  }
  if (dtype_ == DataType::kString) return invalidArgument("Tensor::download: string tensors have no device bytes");
  if (byte_count != byteSize()) {
    return invalidArgument("Tensor::download: " + std::to_string(byte_count) + " bytes requested, the tensor holds " +
                           std::to_string(byteSize()));
  }
  if (bytes == nullptr && byte_count != 0) return invalidArgument("Tensor::download: 'bytes' is null");
  return downloadBytes(implOf(*context_), buffer_, offset_, bytes, byte_count);
}

StatusOr<std::vector<uint8_t>> Tensor::toHost() const {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, allocateHostVector<uint8_t>(byteSize(), "Tensor::toHost"));
  VKINDEX_RETURN_IF_ERROR(download(bytes.data(), bytes.size()));
  return bytes;
}

}  // namespace vkindex
