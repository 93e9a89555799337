// What a Context holds. Internal: the library, and tools and tests through the vkindex_internal
// target, reach it through implOf().
#pragma once

#include <memory>

#include "kernels/pipeline_library.hpp"
#include "kernels/status_batches.hpp"
#include "kernels/status_board.hpp"
#include "kernels/step_timestamps.hpp"
#include "plan/tuning.hpp"
#include "vk/device.hpp"
#include "vk/instance.hpp"
#include "vk/pipeline_cache.hpp"
#include "vk/scratch_cache.hpp"
#include "vk/submitter.hpp"
#include "vkindex/context.hpp"

namespace vkindex {

struct Context::Impl {
  std::unique_ptr<vk::Instance> instance;
  std::unique_ptr<vk::Device> device;
  // The tuning the planners take for this device: the table's row with ContextOverrides on top.
  plan::TuningChoice tuning;
  // The tuning profile file looked at, and why it is not used ("" when it is or there was none).
  std::string tuning_profile_path;
  std::string tuning_profile_warning;
  std::unique_ptr<vk::PipelineCache> pipeline_cache;
  std::unique_ptr<kernels::PipelineLibrary> pipelines;
  std::unique_ptr<kernels::StatusBoard> status;
  // The command buffers recording operations without their own status barrier (StatusBatch).
  std::unique_ptr<kernels::StatusBatches> status_batches = std::make_unique<kernels::StatusBatches>();
  std::unique_ptr<vk::Submitter> submitter;
  std::unique_ptr<vk::ScratchCache> scratch;
  // Bytes one staging chunk holds (kStagingChunkBytes unless ContextOverrides::max_staging_bytes lowers it).
  uint64_t staging_chunk_bytes = 0;
  // A profiling tool's hook (`vkindex bench --steps`): when set, operations stamp the end of every
  // dispatch into it. Null in normal use.
  kernels::StepTimestamps* step_timestamps = nullptr;
};

namespace internal {
struct ContextAccess {
  static Context::Impl& impl(Context& context) { return *context.impl_; }
  static const Context::Impl& impl(const Context& context) { return *context.impl_; }
};
}  // namespace internal

// The internal state of `context`.
inline Context::Impl& implOf(Context& context) { return internal::ContextAccess::impl(context); }
inline const Context::Impl& implOf(const Context& context) { return internal::ContextAccess::impl(context); }

// `overrides` with the environment's VKINDEX_GPU_TUNING applied: what a Context is tuned with.
ContextOverrides overridesInEffect(ContextOverrides overrides);

// The tuning values `context`'s planners take.
inline const plan::Tuning& tuningOf(const Context& context) { return implOf(context).tuning.values; }

}  // namespace vkindex
