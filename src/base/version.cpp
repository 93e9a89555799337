// The library's own version, fixed when it was compiled (the headers carry theirs as macros).
#include "vkindex/version.hpp"

namespace vkindex {

const char* libraryVersion() { return VKINDEX_VERSION_STRING; }

}  // namespace vkindex
