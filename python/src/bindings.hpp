// What the binding's files share: the objects Python holds, turning a vkindex Status into a Python
// exception, and one function per file that adds its part to the module.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "vkindex/vkindex.hpp"

namespace vkindex::python {

// A Context as Python holds it. Python threads may share one, while vkindex wants one thread at a time
// per Context (vkindex/context.hpp): every use of it (device work, tensors made and destroyed) holds
// `mutex`, taken after the GIL is let go and given back before the GIL is taken again, so a thread
// waiting for one never holds up the other's holder.
struct PyContext {
  std::unique_ptr<Context> context;
  std::mutex mutex;
};

// Runs `work(context)` without the GIL, holding the context's lock.
template <typename Work>
auto withContext(PyContext& context, Work work) {
  pybind11::gil_scoped_release unlocked;
  std::lock_guard<std::mutex> lock(context.mutex);
  return work(*context.context);
}

// A device tensor as Python holds it: the Tensor and the context it was made on, which must outlive it;
// the tensor's buffer is freed under the context's lock.
struct PyTensor {
  PyTensor(std::shared_ptr<PyContext> owner, Tensor value) : context(std::move(owner)), tensor(std::move(value)) {}
  PyTensor(PyTensor&& other) noexcept = default;
  PyTensor& operator=(PyTensor&&) = delete;
  PyTensor(const PyTensor&) = delete;
  PyTensor& operator=(const PyTensor&) = delete;
  ~PyTensor() {
    if (!context) return;  // moved from
    std::lock_guard<std::mutex> lock(context->mutex);
    tensor = Tensor();
  }

  std::shared_ptr<PyContext> context;
  Tensor tensor;
};

// Thrown by the binding for an error Status; translated into vkindex.Error's subclass for its code
// (vkindex/_errors.py), carrying the message unchanged.
class StatusError : public std::exception {
 public:
  explicit StatusError(Status status) : status_(std::move(status)) {}
  const Status& status() const { return status_; }
  const char* what() const noexcept override { return status_.message().c_str(); }

 private:
  Status status_;
};

inline void throwIfError(const Status& status) {
  if (!status.ok()) throw StatusError(status);
}

template <typename T>
T valueOrThrow(StatusOr<T> result) {
  throwIfError(result.status());
  return std::move(result).value();
}

// A new PyTensor on `context` from an operator's result.
inline PyTensor wrapTensor(const std::shared_ptr<PyContext>& context, StatusOr<Tensor> result) {
  return PyTensor(context, valueOrThrow(std::move(result)));
}

// Runs `call(context)`, which returns StatusOr<Tensor>, on data's context (withContext: without the GIL,
// since device work may take a while and other Python threads go on) and wraps its result.
template <typename Call>
PyTensor runOnDataContext(const PyTensor& data, Call call) {
  return wrapTensor(data.context, withContext(*data.context, call));
}

// The same for an in-place call, which returns a Status.
template <typename Call>
void runInPlace(const PyTensor& data, Call call) {
  throwIfError(withContext(*data.context, call));
}

// HostIndices viewing a C-contiguous int32 or int64 numpy array (ValueError otherwise); the array must
// stay alive while they are used.
HostIndices hostIndices(const pybind11::array& values);

void registerErrorTranslator();
void bindContext(pybind11::module_& module);
void bindTensor(pybind11::module_& module);
void bindGathers(pybind11::module_& module);
void bindScatters(pybind11::module_& module);
void bindQuantizedAndCache(pybind11::module_& module);

}  // namespace vkindex::python
