// Tensor: a shape, an element type, and where the elements live: a device buffer owned by the tensor,
// a view of the application's VkBuffer, or (for strings) host memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "vkindex/api.h"
#include "vkindex/context.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/status.hpp"

namespace vkindex {

namespace vk {
class Buffer;
}
namespace internal {
struct TensorAccess;
}

using Shape = std::vector<int64_t>;

class VKINDEX_API Tensor {
 public:
  // A device tensor with undefined contents. A scalar has shape {}; any dim may be 0.
  static StatusOr<Tensor> create(Context& context, DataType type, Shape shape);
  // A device tensor holding `byte_count` bytes copied from `bytes` (little-endian, packed, row-major);
  // byte_count must equal packedByteSize(type, elementCount()).
  static StatusOr<Tensor> fromHost(Context& context, DataType type, Shape shape, const void* bytes, size_t byte_count);
  // A string tensor; strings stay on the host (the operators move element ids on the device).
  static StatusOr<Tensor> fromStrings(Context& context, Shape shape, std::vector<std::string> strings);
  // A view of the application's buffer: elements start at `offset`, which must be a multiple of 4.
  // `buffer_size` is the buffer's size: the tensor, rounded up to a multiple of 4 bytes, must fit
  // (kernels read and write whole 32-bit words; bytes of the last word beyond the tensor are
  // preserved). The buffer needs STORAGE_BUFFER usage (and TRANSFER_SRC/DST for upload/download) and
  // must outlive the view. Bindings must start at multiples of minStorageBufferOffsetAlignment, so a
  // view at another offset is bound from the aligned offset below it; the bytes in between are never
  // accessed, but synchronization validation may report hazards on them when neighbouring tensors
  // are written and read in one command buffer.
  static StatusOr<Tensor> view(Context& context, DataType type, Shape shape, VkBuffer buffer, VkDeviceSize offset,
                               VkDeviceSize buffer_size);

  Tensor();
  ~Tensor();
  Tensor(Tensor&& other) noexcept;
  Tensor& operator=(Tensor&& other) noexcept;
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;

  DataType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  uint64_t elementCount() const { return element_count_; }
  // packedByteSize(dtype(), elementCount()); 0 for strings, which have no device bytes.
  uint64_t byteSize() const;

  // Copies host bytes into the tensor / the tensor into host memory (through a staging buffer; waits).
  Status upload(const void* bytes, size_t byte_count);
  Status download(void* bytes, size_t byte_count) const;
  // download() into a new vector. If the host cannot allocate it, kResourceExhausted (the check and the
  // allocation are back to back; to rule out any host allocation, download into memory you own).
  StatusOr<std::vector<uint8_t>> toHost() const;

  // String tensors only: the elements, row-major.
  const std::vector<std::string>& strings() const { return strings_; }
  std::vector<std::string>& mutableStrings() { return strings_; }

  // Where the elements live on the device (VK_NULL_HANDLE for strings).
  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize offset() const { return offset_; }
  bool isView() const { return is_view_; }
  Context* context() const { return context_; }

 private:
  friend struct internal::TensorAccess;
  // create(), naming the buffer `purpose` (e.g. "Gather output") in the errors it may return.
  static StatusOr<Tensor> createFor(Context& context, DataType type, Shape shape, const std::string& purpose);

  Context* context_ = nullptr;
  DataType dtype_ = DataType::kFloat32;
  Shape shape_;
  uint64_t element_count_ = 0;
  std::unique_ptr<vk::Buffer> owned_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceSize offset_ = 0;
  bool is_view_ = false;
  std::vector<std::string> strings_;
};

}  // namespace vkindex
