#include "kernels/shader_registry.hpp"

#include <set>

#include "common/check_params.h"
#include "common/clear_words_params.h"
#include "common/copy_words_params.h"
#include "common/gather_block_quantized_params.h"
#include "common/gather_elements_params.h"
#include "common/gather_rows_params.h"
#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
#include "common/tensor_scatter_params.h"
#include "embedded_shaders.hpp"

namespace vkindex::kernels {
namespace {

constexpr uint32_t kSpirvHeaderWords = 5;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kDecorationSpecId = 1;
constexpr uint32_t kDecorationBinding = 33;

// The literal operands of every `OpDecorate <target> <decoration> <literal>` in the module. Stops at a
// malformed instruction rather than reading past the end.
std::set<uint32_t> decorationLiterals(const uint32_t* words, size_t word_count, uint32_t decoration) {
  std::set<uint32_t> literals;
  for (size_t at = kSpirvHeaderWords; at < word_count;) {
    const uint32_t length = words[at] >> 16, opcode = words[at] & 0xFFFFu;
    if (length == 0 || at + length > word_count) break;
    if (opcode == kOpDecorate && length >= 4 && words[at + 2] == decoration) literals.insert(words[at + 3]);
    at += length;
  }
  return literals;
}

ShaderInfo describe(const char* name, const uint32_t* words, size_t word_count, uint32_t push_bytes) {
  return {
      name, words, word_count, spirvBindingCount(words, word_count), push_bytes, spirvSpecIdMask(words, word_count)};
}

}  // namespace

uint32_t spirvBindingCount(const uint32_t* words, size_t word_count, bool* contiguous) {
  const std::set<uint32_t> bindings = decorationLiterals(words, word_count, kDecorationBinding);
  const uint32_t count = bindings.empty() ? 0 : *bindings.rbegin() + 1;
  if (contiguous != nullptr) *contiguous = bindings.size() == count;
  return count;
}

uint32_t spirvSpecIdMask(const uint32_t* words, size_t word_count) {
  uint32_t mask = 0;
  for (uint32_t id : decorationLiterals(words, word_count, kDecorationSpecId)) {
    if (id < 32) mask |= 1u << id;
  }
  return mask;
}

SpecValues declaredSpecValues(const ShaderInfo& info, const SpecValues& spec) {
  SpecValues declared{};
  for (uint32_t i = 0; i < kSpecCount; ++i) {
    if ((info.spec_ids >> i) & 1u) declared[i] = spec[i];
  }
  return declared;
}

const ShaderInfo& shaderInfo(ShaderId id) {
  using namespace shaders;
  // Indexed by ShaderId (plan::Kernel), which expands the same list in the same order: each entry pairs a
  // module's name with the SPIR-V embedded under that name and the size of its push block.
  static const ShaderInfo kShaders[] = {
#define VKINDEX_KERNEL(id, module, source, defines, push_block) \
  describe(#module, module##_words, module##_word_count, sizeof(push_block)),
#include "kernel_list.h"
#undef VKINDEX_KERNEL
  };
  static_assert(sizeof(kShaders) / sizeof(kShaders[0]) == static_cast<size_t>(ShaderId::kCount));
  return kShaders[static_cast<size_t>(id)];
}

}  // namespace vkindex::kernels
