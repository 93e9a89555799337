// f32AddNative(a, b): common/soft_float.glsl's f32Add, the same bits, taken from the device's own
// float32 adder wherever the adder's result is sure to be them, for the *_float32_add_native modules
// (Tuning::native_float32_add: devices that round float32 adds to nearest even on request,
// shaderRoundingModeRTEFloat32 of VK_KHR_shader_float_controls).
// Vulkan leaves the rest of a float add to the device: subnormals may be flushed to zero, NaNs need
// not propagate, and signed zeros and infinities need not be kept. So the adder's sum counts only
// where none of that can touch it: both operands and the sum normal numbers (f32AddGivenSum). Then
// rounding alone decides the bits, and the RoundingModeRTE execution mode below fixes it to
// soft_float.glsl's round to nearest, ties to even. Every other case (a zero or a subnormal in or
// out, overflow, NaN) takes the soft add. A float sum's steps are almost all normal + normal =
// normal, so a fold's chain of dependent adds runs at the adder's speed.
#ifndef VKINDEX_NATIVE_FLOAT32_ADD_GLSL
#define VKINDEX_NATIVE_FLOAT32_ADD_GLSL

#extension GL_EXT_spirv_intrinsics : require
#include "soft_float.glsl"

// OpExecutionMode RoundingModeRTE 32 (SPV_KHR_float_controls: execution mode 4462, capability 4467).
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32);

// The device adder's a + b: to be kept only where f32SumIsExact says so.
uint f32DeviceSum(uint a, uint b) {
  // precise: one rounded add, never fused with or reassociated into anything around it.
  precise float sum = uintBitsToFloat(a) + uintBitsToFloat(b);
  return floatBitsToUint(sum);
}

uint f32AddNative(uint a, uint b) { return f32AddGivenSum(a, b, f32DeviceSum(a, b)); }

#endif
