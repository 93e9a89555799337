/* VKINDEX_API marks what libvkindex exports. The library is compiled with hidden visibility, so a shared
 * libvkindex exports exactly the declarations carrying it (the C++ API and the C API) and nothing of
 * its internals or of the code compiled into it (volk, the SPIR-V). Shared with C, hence a .h file. */
#ifndef VKINDEX_API_H
#define VKINDEX_API_H

#if defined(VKINDEX_BUILDING_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define VKINDEX_API __attribute__((visibility("default")))
#else
#define VKINDEX_API
#endif

#endif /* VKINDEX_API_H */
