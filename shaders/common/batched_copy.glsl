// Four units of a whole segment in one step: units unit, unit + stride, unit + 2 stride and
// unit + 3 stride of `src` (from `source`) to `dst` (from `target`), all four loaded before the first
// is stored, so that four loads are in flight where a plain loop issues one at a time (faster on
// lavapipe, the same on SwiftShader: docs/gather-kernels.md). Shared by the kernels that move whole
// segments: gather_rows.comp, scatter_nd_rows.comp and the bench's copy.comp. A macro, since GLSL
// functions take no buffers.
// Expects UNIT (common/unit_type.glsl).
#ifndef VKINDEX_BATCHED_COPY_GLSL
#define VKINDEX_BATCHED_COPY_GLSL

#define VKINDEX_COPY_FOUR_UNITS(dst, target, src, source, unit, stride)       \
  {                                                                           \
    UNIT batched_first = src[(source) + (unit)];                              \
    UNIT batched_second = src[(source) + (unit) + (stride)];                  \
    UNIT batched_third = src[(source) + (unit) + 2u * (stride)];              \
    UNIT batched_fourth = src[(source) + (unit) + 3u * (stride)];             \
    dst[(target) + (unit)] = batched_first;                                   \
    dst[(target) + (unit) + (stride)] = batched_second;                       \
    dst[(target) + (unit) + 2u * (stride)] = batched_third;                   \
    dst[(target) + (unit) + 3u * (stride)] = batched_fourth;                  \
  }

#endif
