/* ContextOptions' tuning profile reached from C (see tuning_profile_from_c.c): the field
 * VkindexContextOptions::tuning_profile, and a struct_size from before it was appended. */
#ifndef VKINDEX_TESTS_TUNING_PROFILE_FROM_C_H
#define VKINDEX_TESTS_TUNING_PROFILE_FROM_C_H

#include "vkindex/vkindex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates a validated context on `device` through vkindexContextCreateWithOptions, caching pipelines in
 * `cache_dir`, with `tuning_profile` in the options (NULL: unset), and checks a small Gather on it.
 * With `first_struct_size`, struct_size is that of the struct as first published (which ended with
 * pipeline_cache_dir) while tuning_profile is still set beyond it: the library must not read it.
 * Returns the first failing status, with its message; on success `*context` is the caller's. */
int createWithTuningProfileFromC(const char* device, const char* cache_dir, const char* tuning_profile,
                                 int first_struct_size, VkindexContext* context, char* message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
