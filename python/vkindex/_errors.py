"""vkindex's errors as Python exceptions: one class per status code, each carrying vkindex's message."""

from __future__ import annotations


class Error(Exception):
    """A vkindex error: `message` is vkindex's exact text, `code` its status code ("out of range", ...)."""

    code = "unknown"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvalidArgumentError(Error, ValueError):
    """The call itself is malformed: an axis, rank, type or shape that the operator does not allow."""

    code = "invalid argument"


class OutOfRangeError(Error, IndexError):
    """An index value lies outside its allowed range (nothing was written)."""

    code = "out of range"


class UnsupportedError(Error, NotImplementedError):
    """Valid input that this device or this build cannot run."""

    code = "unsupported"


class DeviceError(Error, RuntimeError):
    """Vulkan reported a failure."""

    code = "device error"


class InternalError(Error, RuntimeError):
    """A broken invariant inside vkindex: a bug."""

    code = "internal error"


class ResourceExhaustedError(Error, MemoryError):
    """Host or device memory ran out."""

    code = "resource exhausted"


_BY_CODE = {cls.code: cls for cls in (InvalidArgumentError, OutOfRangeError, UnsupportedError, DeviceError,
                                      InternalError, ResourceExhaustedError)}


def error_for(code: str, message: str) -> Error:
    """The exception for a vkindex Status (called by the extension when a call fails)."""
    error = _BY_CODE.get(code, Error)(message)
    if type(error) is Error:
        error.code = code
    return error


def invalid_argument(message: str) -> InvalidArgumentError:
    """An InvalidArgumentError raised by the Python layer's own checks."""
    return InvalidArgumentError(message)
