// Status and StatusOr: how every vkindex API reports failure. The library builds with -fno-exceptions
// (Android engines compile that way), so errors travel as values, never as throws.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

#include "vkindex/api.h"

namespace vkindex {

// What kind of failure a Status describes. Callers branch on the code; the message is for people.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // the call itself is malformed: bad axis, rank, dtype, shape disagreement
  kOutOfRange,         // an index value read on the device lies outside its allowed range
  kUnsupported,        // valid input that this device or this build cannot run (with the reason)
  kDeviceError,        // Vulkan reported a failure (device lost, missing driver, a failed call)
  kInternal,           // a broken invariant inside vkindex: a bug, please report it
  kResourceExhausted,  // host or device memory ran out (says which buffer and how many bytes); may pass
};

// Returns a stable lower-case name for the code, e.g. "invalid argument".
VKINDEX_API const char* statusCodeName(StatusCode code);

// The outcome of an operation: kOk, or an error code with a message naming the operator, the input,
// the position and what was allowed.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "invalid argument: Gather: axis 3 is out of range ..." (or "ok").
  VKINDEX_API std::string toString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalidArgument(std::string message) { return Status(StatusCode::kInvalidArgument, std::move(message)); }
inline Status outOfRange(std::string message) { return Status(StatusCode::kOutOfRange, std::move(message)); }
inline Status unsupported(std::string message) { return Status(StatusCode::kUnsupported, std::move(message)); }
inline Status deviceError(std::string message) { return Status(StatusCode::kDeviceError, std::move(message)); }
inline Status internalError(std::string message) { return Status(StatusCode::kInternal, std::move(message)); }
inline Status resourceExhausted(std::string message) {
  return Status(StatusCode::kResourceExhausted, std::move(message));
}

// Either a value or the error that prevented it. Accessing the value of an error is a bug (asserted).
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) { assert(!status_.ok() && "StatusOr needs an error"); }
  StatusOr(T value) : value_(std::move(value)) {}

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace vkindex

#define VKINDEX_CONCAT_INNER(a, b) a##b
#define VKINDEX_CONCAT(a, b) VKINDEX_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function when it is an error.
#define VKINDEX_RETURN_IF_ERROR(expr)                  \
  do {                                                 \
    ::vkindex::Status vkindex_status_ = (expr);        \
    if (!vkindex_status_.ok()) return vkindex_status_; \
  } while (0)

// Evaluates a StatusOr expression; on error returns its Status, else moves the value into `lhs`
// (which may be a declaration: VKINDEX_ASSIGN_OR_RETURN(auto x, makeX())).
#define VKINDEX_ASSIGN_OR_RETURN(lhs, expr) \
  VKINDEX_ASSIGN_OR_RETURN_IMPL(VKINDEX_CONCAT(vkindex_statusor_, __LINE__), lhs, expr)
// `lhs` cannot be parenthesized: it may be a declaration.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define VKINDEX_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
