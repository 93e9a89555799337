#include "platform/cache_file.hpp"

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vkindex::platform {
namespace {

// strerror_r comes in two shapes (XSI returns int, GNU returns char*); these overloads take whichever
// this C library has. Not strerror: contexts may be created on several threads at once.
[[maybe_unused]] const char* errorText(int result, const char* buffer) {
  return result == 0 ? buffer : "unknown error";
}
[[maybe_unused]] const char* errorText(const char* result, const char* /*buffer*/) { return result; }

Status systemError(const std::string& what, int error) {
  char buffer[128] = "";
  return deviceError(what + ": " + errorText(strerror_r(error, buffer, sizeof(buffer)), buffer));
}

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Closes a descriptor when it goes out of scope (the reader's early returns).
class ScopedDescriptor {
 public:
  explicit ScopedDescriptor(int fd) : fd_(fd) {}
  ~ScopedDescriptor() { ::close(fd_); }
  ScopedDescriptor(const ScopedDescriptor&) = delete;
  ScopedDescriptor& operator=(const ScopedDescriptor&) = delete;

 private:
  int fd_;
};

// read() until `size` bytes or end of file, through interruptions and short reads. Returns the count
// read, or -1 with errno set.
ssize_t readFully(int fd, char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

Status writeFully(int fd, const char* data, size_t size, const std::string& path) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      return systemError("could not write " + path, error);
    }
    if (n == 0) return deviceError("could not write " + path + ": no progress");
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

// Creates every missing directory on the way to `directory`. Failures are left for the file creation
// that follows to report, with the reason that matters there.
void makeDirectories(const std::string& directory) {
  for (size_t slash = directory.find('/', 1);; slash = directory.find('/', slash + 1)) {
    ::mkdir(directory.substr(0, slash).c_str(), 0755);
    if (slash == std::string::npos) break;
  }
}

// A name beside `path` that no other process or thread picks at the same moment: the process id, a
// per-process counter and the clock. O_EXCL makes any clash (or a name planted by someone else in a
// shared directory) a retry rather than a shared file.
std::string temporaryName(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  const uint64_t salt = (static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec)) ^
                        (counter.fetch_add(1) * 0x9E3779B97F4A7C15u);
  char suffix[64];
  std::snprintf(suffix, sizeof(suffix), ".tmp-%ld-%016" PRIx64, static_cast<long>(::getpid()), salt);
  return path + suffix;
}

// Attempts at a fresh temporary name before giving up: a clash needs another writer or a planted file.
constexpr int kTemporaryNameAttempts = 16;

}  // namespace

StatusOr<CacheFileContents> readCacheFile(const std::string& path, size_t max_bytes) {
  // O_NOFOLLOW: a symbolic link (to /dev/zero, say) is refused, not followed. O_NONBLOCK: opening a FIFO
  // returns at once instead of waiting for a writer that may never come; regular files ignore it.
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int error = errno;
    if (error == ENOENT) return CacheFileContents{};
    if (error == ELOOP) return deviceError(path + " is a symbolic link (not followed)");
    return systemError("could not open " + path, error);
  }
  ScopedDescriptor closer(fd);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    return systemError("could not inspect " + path, error);
  }
  if (!S_ISREG(info.st_mode)) return deviceError(path + " is " + fileKind(info.st_mode) + ", not a regular file");
  if (info.st_size < 0 || static_cast<uint64_t>(info.st_size) > max_bytes) {
    return deviceError(path + " holds " + std::to_string(info.st_size) + " bytes, more than the " +
                       std::to_string(max_bytes) + " a cache file may");
  }
  CacheFileContents contents;
  contents.exists = true;
  contents.bytes.resize(static_cast<size_t>(info.st_size));
  const ssize_t got = readFully(fd, contents.bytes.data(), contents.bytes.size());
  if (got < 0) {
    const int error = errno;
    return systemError("could not read " + path, error);
  }
  if (static_cast<size_t>(got) != contents.bytes.size()) {
    return deviceError(path + " shrank while it was read (" + std::to_string(got) + " of " +
                       std::to_string(contents.bytes.size()) + " bytes)");
  }
  // A byte beyond the size fstat gave means someone is writing the file in place as we read it.
  char beyond = 0;
  const ssize_t extra = readFully(fd, &beyond, 1);
  if (extra < 0) {
    const int error = errno;
    return systemError("could not read " + path, error);
  }
  if (extra > 0) return deviceError(path + " grew while it was read");
  return contents;
}

Status replaceCacheFile(const std::string& path, const char* data, size_t size) {
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) makeDirectories(path.substr(0, slash));
  std::string temporary;
  int fd = -1;
  int error = 0;
  for (int attempt = 0; fd < 0 && attempt < kTemporaryNameAttempts; ++attempt) {
    temporary = temporaryName(path);
    // 0644 (less the umask): the data is compiled public shaders, nothing secret, and a directory shared
    // on purpose should serve every user of it. O_NOFOLLOW: never write through a planted link.
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    error = fd < 0 ? errno : 0;
    if (fd < 0 && error != EEXIST && error != EINTR) break;
  }
  if (fd < 0) return systemError("could not create a temporary file beside " + path, error);
  // No fsync: it would stall every Context's destruction on a busy disk. All it buys is that a crash of
  // the whole system cannot leave a renamed but empty or partial file, and cache readers check what they
  // read anyway (the pipeline cache file carries its size and a checksum): such a file is a cold cache.
  Status status = writeFully(fd, data, size, temporary);
  // close() reports delayed write errors (NFS); EINTR still closes the descriptor on Linux.
  error = ::close(fd) != 0 ? errno : 0;
  if (error != 0 && error != EINTR && status.ok()) status = systemError("could not write " + temporary, error);
  if (status.ok() && ::rename(temporary.c_str(), path.c_str()) != 0) {
    error = errno;
    status = systemError("could not replace " + path, error);
  }
  if (!status.ok()) ::unlink(temporary.c_str());
  return status;
}

}  // namespace vkindex::platform
