// The embedded SPIR-V modules and each one's interface contract: how many storage buffers it binds
// (read from the module itself, so no count is written down twice) and how many push-constant bytes
// it reads (the size of its block in shaders/common/*_params.h). Dispatches are checked against it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plan/op_plan.hpp"

namespace vkindex::kernels {

using ShaderId = plan::Kernel;
using plan::kSpecCount;
using plan::SpecValues;

struct ShaderInfo {
  const char* name;
  const uint32_t* words;
  size_t word_count;
  uint32_t binding_count;  // storage buffers at bindings 0..binding_count-1 (from the module)
  uint32_t push_bytes;     // size of the push-constant block
};

const ShaderInfo& shaderInfo(ShaderId id);

// Storage-buffer bindings a SPIR-V module declares: one more than the highest Binding decoration (0
// for none). `contiguous` (optional) says whether every binding number below that is used.
uint32_t spirvBindingCount(const uint32_t* words, size_t word_count, bool* contiguous = nullptr);

}  // namespace vkindex::kernels
