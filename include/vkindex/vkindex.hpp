// vkindex: ONNX indexing operators as Vulkan compute shaders. Include this one header.
#pragma once

#include "vkindex/context.hpp"
#include "vkindex/data_type.hpp"
#include "vkindex/device_info.hpp"
#include "vkindex/gather_block_quantized.hpp"
#include "vkindex/index_policy.hpp"
#include "vkindex/ops.hpp"
#include "vkindex/status.hpp"
#include "vkindex/status_batch.hpp"
#include "vkindex/tensor.hpp"
#include "vkindex/tensor_scatter.hpp"
#include "vkindex/version.hpp"
