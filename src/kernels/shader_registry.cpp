#include "kernels/shader_registry.hpp"

#include "common/check_params.h"
#include "common/gather_params.h"
#include "embedded_shaders.hpp"

namespace vkindex::kernels {

const ShaderInfo& shaderInfo(ShaderId id) {
  static const ShaderInfo kShaders[] = {
      {"check_indices", shaders::check_indices_words, shaders::check_indices_word_count, 2, sizeof(abi::CheckParams)},
      {"gather", shaders::gather_words, shaders::gather_word_count, 4, sizeof(abi::GatherParams)},
      {"copy", shaders::copy_words, shaders::copy_word_count, 2, sizeof(uint32_t)},
  };
  static_assert(sizeof(kShaders) / sizeof(kShaders[0]) == static_cast<size_t>(ShaderId::kCount));
  return kShaders[static_cast<size_t>(id)];
}

}  // namespace vkindex::kernels
