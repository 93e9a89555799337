// UNIT: the GLSL type of one VKINDEX_UNIT_BYTES-byte unit (16, 8 or 4) for the copying kernels that
// are compiled once per unit width (and once more with VKINDEX_INT64_UNITS). One binding width per
// module: bindings aliased at three widths made SwiftShader slower even with two of them dead
// (docs/gather-kernels.md).
#ifndef VKINDEX_UNIT_TYPE_GLSL
#define VKINDEX_UNIT_TYPE_GLSL

#ifndef VKINDEX_INT64_UNITS
#define VKINDEX_INT64_UNITS 0
#endif

#if VKINDEX_INT64_UNITS
// The *_int64 modules: 16- and 8-byte units as 64-bit components, for devices with shaderInt64 enabled
// (Tuning::int64_units). The same bytes move; lavapipe loads and stores each component of a
// storage access lane by lane, so half as many components copy faster there (docs/tuning.md).
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#if VKINDEX_UNIT_BYTES == 16
#define UNIT u64vec2
#elif VKINDEX_UNIT_BYTES == 8
#define UNIT uint64_t
#else
#error "VKINDEX_INT64_UNITS needs VKINDEX_UNIT_BYTES 16 or 8"
#endif
#elif VKINDEX_UNIT_BYTES == 16
#define UNIT uvec4
#elif VKINDEX_UNIT_BYTES == 8
#define UNIT uvec2
#elif VKINDEX_UNIT_BYTES == 4
#define UNIT uint
#else
#error "VKINDEX_UNIT_BYTES must be 16, 8 or 4"
#endif

#endif
