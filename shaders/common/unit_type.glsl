// UNIT: the GLSL type of one VKINDEX_UNIT_BYTES-byte unit (16, 8 or 4) for the copying kernels that
// are compiled once per unit width. One binding width per module: bindings aliased at three widths
// made SwiftShader 1.4x slower even with two of them dead.
#ifndef VKINDEX_UNIT_TYPE_GLSL
#define VKINDEX_UNIT_TYPE_GLSL

#if VKINDEX_UNIT_BYTES == 16
#define UNIT uvec4
#elif VKINDEX_UNIT_BYTES == 8
#define UNIT uvec2
#elif VKINDEX_UNIT_BYTES == 4
#define UNIT uint
#else
#error "VKINDEX_UNIT_BYTES must be 16, 8 or 4"
#endif

#endif
