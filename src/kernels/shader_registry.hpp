// The embedded SPIR-V modules and each one's interface contract: how many storage buffers it binds and
// how many push-constant bytes it reads. Dispatches are checked against this contract.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace vkindex::kernels {

enum class ShaderId : uint32_t { kCheckIndices, kGather, kCopy, kCount };

// Specialization constant ids shared by all shaders (see shaders/*.comp).
enum SpecConstant : uint32_t {
  kSpecWorkgroupSize = 0,  // local_size_x_id
  kSpecIndexWords = 1,     // 1: int32 indices, 2: int64 indices
  kSpecUnitBytes = 2,      // bytes moved per unit: 16, 8, 4, or 2/1 for sub-word rows
  kSpecItems = 3,          // units per invocation per block
  kSpecRowTiled = 4,       // gather.comp: 1 when rows are whole blocks
  kSpecCount = 5,
};
using SpecValues = std::array<uint32_t, kSpecCount>;

struct ShaderInfo {
  const char* name;
  const uint32_t* words;
  size_t word_count;
  uint32_t binding_count;  // storage buffers at bindings 0..binding_count-1
  uint32_t push_bytes;     // size of the push-constant block
};

const ShaderInfo& shaderInfo(ShaderId id);

}  // namespace vkindex::kernels
