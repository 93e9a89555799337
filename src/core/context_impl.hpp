// What a Context holds. Internal: ops and tools inside the tree reach it through Context::impl().
#pragma once

#include <memory>

#include "core/submitter.hpp"
#include "kernels/pipeline_library.hpp"
#include "kernels/status_board.hpp"
#include "vk/device.hpp"
#include "vk/instance.hpp"
#include "vk/pipeline_cache.hpp"
#include "vkindex/context.hpp"

namespace vkindex {

struct Context::Impl {
  std::unique_ptr<vk::Instance> instance;
  std::unique_ptr<vk::Device> device;
  std::unique_ptr<vk::PipelineCache> pipeline_cache;
  std::unique_ptr<kernels::PipelineLibrary> pipelines;
  std::unique_ptr<kernels::StatusBoard> status;
  std::unique_ptr<Submitter> submitter;
};

}  // namespace vkindex
