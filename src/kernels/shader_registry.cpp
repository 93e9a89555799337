#include "kernels/shader_registry.hpp"

#include <set>

#include "common/check_params.h"
#include "common/clear_words_params.h"
#include "common/copy_words_params.h"
#include "common/gather_elements_params.h"
#include "common/gather_rows_params.h"
#include "common/scatter_buckets_params.h"
#include "common/scatter_elements_params.h"
#include "common/scatter_nd_params.h"
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
// One module's entry: its name, the SPIR-V that embedded_shaders.hpp holds under that name, and the size
// of its push block. Spelled once, so an entry cannot pair one module's name with another's words.
#define VKINDEX_MODULE(module, push_block) describe(#module, module##_words, module##_word_count, sizeof(push_block))
  static const ShaderInfo kShaders[] = {
      VKINDEX_MODULE(check_indices, abi::CheckParams),
      VKINDEX_MODULE(check_indices_int64, abi::CheckParams),
      VKINDEX_MODULE(check_indices_wide, abi::CheckParams),
      VKINDEX_MODULE(report_index, abi::CheckParams),
      VKINDEX_MODULE(gather_rows, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_4, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_row_bytes, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_checked, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_checked_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_checked_4, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_int64, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_rows_int64_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_short_rows, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_short_rows_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_short_rows_4, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_short_rows_int64, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_short_rows_int64_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_columns, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_columns_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_columns_4, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_columns_int64, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_columns_int64_8, abi::GatherRowsParams),
      VKINDEX_MODULE(gather_elements, abi::GatherElementsParams),
      VKINDEX_MODULE(gather_elements_8, abi::GatherElementsParams),
      VKINDEX_MODULE(gather_elements_4, abi::GatherElementsParams),
      VKINDEX_MODULE(gather_element_bytes, abi::GatherElementsParams),
      VKINDEX_MODULE(scatter_elements, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_float32, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_elements_float64, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_float32, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_float64, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_float32_add, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_float32_add, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_float32_add_native, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_float32_add_native, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_half_add, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_half_add, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_float64_add, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_float64_add, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_order32, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_order32, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_int32, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_int32, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_integers, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_integers, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_move, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_move, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_move_checked, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_claim, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_elements_write, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_elements_write_by_target, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_claim, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_clear_claims, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_clear_claims, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_claim_store, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_elements_claim_fixup, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_claim_store, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_claim_fixup, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_write, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_write_by_target, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_atomic, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_atomic, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_rows, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_rows_8, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_rows_4, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_rows_int64, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_nd_rows_int64_8, abi::ScatterNDParams),
      VKINDEX_MODULE(scatter_elements_locate, abi::ScatterElementsParams),
      VKINDEX_MODULE(scatter_nd_locate, abi::ScatterNDParams),
      VKINDEX_MODULE(bucket_count, abi::BucketParams),
      VKINDEX_MODULE(bucket_alloc, abi::BucketParams),
      VKINDEX_MODULE(bucket_fill, abi::BucketParams),
      VKINDEX_MODULE(heavy_plan, abi::BucketParams),
      VKINDEX_MODULE(heavy_scan, abi::BucketParams),
      VKINDEX_MODULE(heavy_sort_count, abi::BucketParams),
      VKINDEX_MODULE(heavy_sort_scatter, abi::BucketParams),
      VKINDEX_MODULE(bucket_sort, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_float32, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_float64, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_float32_add, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_float32_add_native, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_half_add, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_float64_add, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_order32, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_int32, abi::BucketParams),
      VKINDEX_MODULE(scatter_fold_integers, abi::BucketParams),
      VKINDEX_MODULE(copy_words, abi::CopyWordsParams),
      VKINDEX_MODULE(copy_words_16, abi::CopyWordsParams),
      VKINDEX_MODULE(copy_words_int64, abi::CopyWordsParams),
      VKINDEX_MODULE(clear_words, abi::ClearWordsParams),
      VKINDEX_MODULE(copy, uint32_t),
      VKINDEX_MODULE(copy_int64, uint32_t),
  };
#undef VKINDEX_MODULE
  static_assert(sizeof(kShaders) / sizeof(kShaders[0]) == static_cast<size_t>(ShaderId::kCount));
  return kShaders[static_cast<size_t>(id)];
}

}  // namespace vkindex::kernels
