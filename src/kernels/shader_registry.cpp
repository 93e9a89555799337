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
  static const ShaderInfo kShaders[] = {
      describe("check_indices", check_indices_words, check_indices_word_count, sizeof(abi::CheckParams)),
      describe("check_indices_int64", check_indices_int64_words, check_indices_int64_word_count,
               sizeof(abi::CheckParams)),
      describe("check_indices_wide", check_indices_wide_words, check_indices_wide_word_count, sizeof(abi::CheckParams)),
      describe("report_index", report_index_words, report_index_word_count, sizeof(abi::CheckParams)),
      describe("gather_rows", gather_rows_words, gather_rows_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_rows_8", gather_rows_8_words, gather_rows_8_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_rows_4", gather_rows_4_words, gather_rows_4_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_row_bytes", gather_row_bytes_words, gather_row_bytes_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_rows_checked", gather_rows_checked_words, gather_rows_checked_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_rows_checked_8", gather_rows_checked_8_words, gather_rows_checked_8_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_rows_checked_4", gather_rows_checked_4_words, gather_rows_checked_4_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_rows_int64", gather_rows_int64_words, gather_rows_int64_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_rows_int64_8", gather_rows_int64_8_words, gather_rows_int64_8_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_short_rows", gather_short_rows_words, gather_short_rows_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_short_rows_8", gather_short_rows_8_words, gather_short_rows_8_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_short_rows_4", gather_short_rows_4_words, gather_short_rows_4_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_short_rows_int64", gather_short_rows_int64_words, gather_short_rows_int64_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_short_rows_int64_8", gather_short_rows_int64_8_words, gather_short_rows_int64_8_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_columns", gather_columns_words, gather_columns_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_columns_8", gather_columns_8_words, gather_columns_8_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_columns_4", gather_columns_4_words, gather_columns_4_word_count, sizeof(abi::GatherRowsParams)),
      describe("gather_columns_int64", gather_columns_int64_words, gather_columns_int64_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_columns_int64_8", gather_columns_int64_8_words, gather_columns_int64_8_word_count,
               sizeof(abi::GatherRowsParams)),
      describe("gather_elements", gather_elements_words, gather_elements_word_count, sizeof(abi::GatherElementsParams)),
      describe("gather_elements_8", gather_elements_8_words, gather_elements_8_word_count,
               sizeof(abi::GatherElementsParams)),
      describe("gather_elements_4", gather_elements_4_words, gather_elements_4_word_count,
               sizeof(abi::GatherElementsParams)),
      describe("gather_element_bytes", gather_element_bytes_words, gather_element_bytes_word_count,
               sizeof(abi::GatherElementsParams)),
      describe("scatter_elements", scatter_elements_words, scatter_elements_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd", scatter_nd_words, scatter_nd_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_float32", scatter_elements_float32_words, scatter_elements_float32_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_elements_float64", scatter_elements_float64_words, scatter_elements_float64_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_float32", scatter_nd_float32_words, scatter_nd_float32_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_float64", scatter_nd_float64_words, scatter_nd_float64_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_float32_add", scatter_elements_float32_add_words,
               scatter_elements_float32_add_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_float32_add", scatter_nd_float32_add_words, scatter_nd_float32_add_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_float32_add_native", scatter_elements_float32_add_native_words,
               scatter_elements_float32_add_native_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_float32_add_native", scatter_nd_float32_add_native_words,
               scatter_nd_float32_add_native_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_half_add", scatter_elements_half_add_words, scatter_elements_half_add_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_half_add", scatter_nd_half_add_words, scatter_nd_half_add_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_float64_add", scatter_elements_float64_add_words,
               scatter_elements_float64_add_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_float64_add", scatter_nd_float64_add_words, scatter_nd_float64_add_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_order32", scatter_elements_order32_words, scatter_elements_order32_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_order32", scatter_nd_order32_words, scatter_nd_order32_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_int32", scatter_elements_int32_words, scatter_elements_int32_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_int32", scatter_nd_int32_words, scatter_nd_int32_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_integers", scatter_elements_integers_words, scatter_elements_integers_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_integers", scatter_nd_integers_words, scatter_nd_integers_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_move", scatter_elements_move_words, scatter_elements_move_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_move", scatter_nd_move_words, scatter_nd_move_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_move_checked", scatter_nd_move_checked_words, scatter_nd_move_checked_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_claim", scatter_elements_claim_words, scatter_elements_claim_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_elements_write", scatter_elements_write_words, scatter_elements_write_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_elements_write_by_target", scatter_elements_write_by_target_words,
               scatter_elements_write_by_target_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_claim", scatter_nd_claim_words, scatter_nd_claim_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_clear_claims", scatter_elements_clear_claims_words,
               scatter_elements_clear_claims_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_clear_claims", scatter_nd_clear_claims_words, scatter_nd_clear_claims_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_claim_store", scatter_elements_claim_store_words,
               scatter_elements_claim_store_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_elements_claim_fixup", scatter_elements_claim_fixup_words,
               scatter_elements_claim_fixup_word_count, sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_claim_store", scatter_nd_claim_store_words, scatter_nd_claim_store_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_claim_fixup", scatter_nd_claim_fixup_words, scatter_nd_claim_fixup_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_write", scatter_nd_write_words, scatter_nd_write_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_write_by_target", scatter_nd_write_by_target_words, scatter_nd_write_by_target_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_atomic", scatter_elements_atomic_words, scatter_elements_atomic_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_atomic", scatter_nd_atomic_words, scatter_nd_atomic_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_rows", scatter_nd_rows_words, scatter_nd_rows_word_count, sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_rows_8", scatter_nd_rows_8_words, scatter_nd_rows_8_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_rows_4", scatter_nd_rows_4_words, scatter_nd_rows_4_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_rows_int64", scatter_nd_rows_int64_words, scatter_nd_rows_int64_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_nd_rows_int64_8", scatter_nd_rows_int64_8_words, scatter_nd_rows_int64_8_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("scatter_elements_locate", scatter_elements_locate_words, scatter_elements_locate_word_count,
               sizeof(abi::ScatterElementsParams)),
      describe("scatter_nd_locate", scatter_nd_locate_words, scatter_nd_locate_word_count,
               sizeof(abi::ScatterNDParams)),
      describe("bucket_count", bucket_count_words, bucket_count_word_count, sizeof(abi::BucketParams)),
      describe("bucket_alloc", bucket_alloc_words, bucket_alloc_word_count, sizeof(abi::BucketParams)),
      describe("bucket_fill", bucket_fill_words, bucket_fill_word_count, sizeof(abi::BucketParams)),
      describe("heavy_plan", heavy_plan_words, heavy_plan_word_count, sizeof(abi::BucketParams)),
      describe("heavy_scan", heavy_scan_words, heavy_scan_word_count, sizeof(abi::BucketParams)),
      describe("heavy_sort_count", heavy_sort_count_words, heavy_sort_count_word_count, sizeof(abi::BucketParams)),
      describe("heavy_sort_scatter", heavy_sort_scatter_words, heavy_sort_scatter_word_count,
               sizeof(abi::BucketParams)),
      describe("bucket_sort", bucket_sort_words, bucket_sort_word_count, sizeof(abi::BucketParams)),
      describe("scatter_fold", scatter_fold_words, scatter_fold_word_count, sizeof(abi::BucketParams)),
      describe("scatter_fold_float32", scatter_fold_float32_words, scatter_fold_float32_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_float64", scatter_fold_float64_words, scatter_fold_float64_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_float32_add", scatter_fold_float32_add_words, scatter_fold_float32_add_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_float32_add_native", scatter_fold_float32_add_native_words,
               scatter_fold_float32_add_native_word_count, sizeof(abi::BucketParams)),
      describe("scatter_fold_half_add", scatter_fold_half_add_words, scatter_fold_half_add_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_float64_add", scatter_fold_float64_add_words, scatter_fold_float64_add_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_order32", scatter_fold_order32_words, scatter_fold_order32_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_int32", scatter_fold_int32_words, scatter_fold_int32_word_count,
               sizeof(abi::BucketParams)),
      describe("scatter_fold_integers", scatter_fold_integers_words, scatter_fold_integers_word_count,
               sizeof(abi::BucketParams)),
      describe("copy_words", copy_words_words, copy_words_word_count, sizeof(abi::CopyWordsParams)),
      describe("copy_words_16", copy_words_16_words, copy_words_16_word_count, sizeof(abi::CopyWordsParams)),
      describe("copy_words_int64", copy_words_int64_words, copy_words_int64_word_count, sizeof(abi::CopyWordsParams)),
      describe("clear_words", clear_words_words, clear_words_word_count, sizeof(abi::ClearWordsParams)),
      describe("copy", copy_words, copy_word_count, sizeof(uint32_t)),
      describe("copy_int64", copy_int64_words, copy_int64_word_count, sizeof(uint32_t)),
  };
  static_assert(sizeof(kShaders) / sizeof(kShaders[0]) == static_cast<size_t>(ShaderId::kCount));
  return kShaders[static_cast<size_t>(id)];
}

}  // namespace vkindex::kernels
