// The embedded SPIR-V modules and each one's interface contract: how many storage buffers it binds
// and which specialization constants it declares (both read from the module itself, so nothing is
// written down twice) and how many push-constant bytes it reads (the size of its block in
// shaders/common/*_params.h). Dispatches are checked against it.
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
  uint32_t spec_ids;       // bit i: the module declares SpecId i (from the module)
};

const ShaderInfo& shaderInfo(ShaderId id);

// Storage-buffer bindings a SPIR-V module declares: one more than the highest Binding decoration (0
// for none). `contiguous` (optional) says whether every binding number below that is used.
uint32_t spirvBindingCount(const uint32_t* words, size_t word_count, bool* contiguous = nullptr);

// The SpecId decorations a SPIR-V module declares, as a mask (bit i: SpecId i; ids of 32 and above,
// which vkindex never uses, are left out).
uint32_t spirvSpecIdMask(const uint32_t* words, size_t word_count);

// `spec` with every value the shader does not declare set to 0. A module compiles to the same code
// whatever the values of constants it does not declare, so pipelines are keyed by this: the scatter
// planner fills every slot for every step, and bucket_alloc (say) was otherwise compiled once per
// index width, element size and reduction.
SpecValues declaredSpecValues(const ShaderInfo& info, const SpecValues& spec);

}  // namespace vkindex::kernels
