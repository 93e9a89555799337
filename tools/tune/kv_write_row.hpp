// A decode step's KV-cache write as a row `vkindex tune` can time: TensorScatter of one token per
// sequence into a float32 cache [sequences, 64, 64], out of place, checked against a CPU copy.
#pragma once

#include <cstdint>

#include "workloads.hpp"

namespace vkindex::tune {

// `sequences` batch entries, each writing its token at a random position of its sequence.
bench::Workload kvWriteRow(int64_t sequences);

}  // namespace vkindex::tune
