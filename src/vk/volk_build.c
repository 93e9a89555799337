/* volk's implementation, compiled under vkindex's names (cmake/vkindex_volk.cmake explains why). */
#include "vkindex_volk_names.h"

#include "volk.c"
