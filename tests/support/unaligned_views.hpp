// Operators on tensors that view one buffer at offsets that are multiples of 4 but not of 16 (what
// Tensor::view allows and what engines that pack tensors produce). The bytes around the output,
// including the rest of its last 32-bit word, must survive.
#pragma once

#include <functional>

#include "support/host_tensor.hpp"

namespace vkindex::test {

using ViewOp = std::function<Status(const Tensor& data, const Tensor& indices, Tensor& output)>;

// Fills an 8 KiB device buffer with random bytes, places `data` at offset 36 and `indices` at 1028,
// runs `op` with views of them and an output view at 2052 (of expected_output's type and shape), and
// expects the buffer to hold expected_output there and its original bytes everywhere else.
void expectOutputThroughUnalignedViews(Context& context, const HostTensor& data, const HostTensor& indices,
                                       const HostTensor& expected_output, const ViewOp& op);

}  // namespace vkindex::test
