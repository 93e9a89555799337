// Whole-file reads and atomic replacement for cache files that live in directories other processes
// (and other users) may share. Whatever sits at a cache path, reading it must cost at most a cold cache:
// never an abort, a hang or unbounded memory. So the reader opens without following symbolic links or
// blocking, accepts only regular files up to a size cap, and the writer publishes a complete file with
// rename(), so no reader ever sees a torn one.
//
// This is vkindex's only file with POSIX calls (Linux and Android both provide them); a port to another
// system replaces this file alone.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "vkindex/status.hpp"

namespace vkindex::platform {

// A cache file as read: `exists` is false when nothing is at the path (a cold cache, not a problem).
struct CacheFileContents {
  bool exists = false;
  std::vector<char> bytes;
};

// Reads the regular file at `path` when it holds at most `max_bytes`. Anything else is an error whose
// message gives the reason: a symbolic link, a directory, FIFO, socket or device, a larger file, a failed
// read, or a file that changed size while it was read.
StatusOr<CacheFileContents> readCacheFile(const std::string& path, size_t max_bytes);

// Replaces the file at `path` with `size` bytes from `data`, atomically: they are written to a new,
// uniquely named file in the same directory (O_EXCL, mode 0644 less the umask), which is then renamed
// over `path`. Missing parent directories are created (0755). On failure `path` is left as it was and
// the temporary file is removed; the message names the path and the system's reason.
Status replaceCacheFile(const std::string& path, const char* data, size_t size);

}  // namespace vkindex::platform
