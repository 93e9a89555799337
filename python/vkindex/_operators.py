"""The operators on numpy arrays and vkindex Tensors (docs/python.md#operators)."""

from __future__ import annotations

import operator
import threading
from typing import Any, Optional

import numpy as np

from . import _vkindex
from ._arrays import DTYPES, as_array, name_of_code, to_device, to_numpy, type_name
from ._errors import invalid_argument

_INDEX_POLICIES = {"error": _vkindex.IndexPolicy.ERROR, "skip": _vkindex.IndexPolicy.SKIP}
_REDUCTIONS = {"none": _vkindex.Reduction.NONE, "add": _vkindex.Reduction.ADD, "mul": _vkindex.Reduction.MUL,
               "max": _vkindex.Reduction.MAX, "min": _vkindex.Reduction.MIN}
_MODES = {"linear": _vkindex.TensorScatterMode.LINEAR, "circular": _vkindex.TensorScatterMode.CIRCULAR}
_HOST_INDEX_TYPES = (np.dtype(np.int32), np.dtype(np.int64))


class Context(_vkindex.Context):
    """One Vulkan device and what vkindex keeps for it (pipelines, pipeline cache, scratch memory).

    device: an index or a case-insensitive part of the device's name; None: $VKINDEX_DEVICE, else the
    first discrete GPU, else the first integrated one, else the first device. The other arguments are
    ContextOptions' (docs/embedding.md); None means the environment's or the default.
    """

    def __init__(self, device: Optional[Any] = None, *, validation: bool = False,
                 gpu_assisted_validation: bool = False, pipeline_cache_dir: Optional[str] = None,
                 tuning_profile: Optional[str] = None):
        super().__init__("" if device is None else str(device), bool(validation), bool(gpu_assisted_validation),
                         pipeline_cache_dir, tuning_profile)

    def __repr__(self) -> str:
        return f"<vkindex.Context on {self.device.name}>"


_default_lock = threading.Lock()
_default: Optional[Context] = None


def default_context() -> Context:
    """The context operators use when neither `context=` nor a Tensor input gives one (made on first use)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def set_default_context(context: Optional[Context]) -> None:
    """Makes `context` the default (None: a new one is made on next use)."""
    global _default
    if context is not None and not isinstance(context, _vkindex.Context):
        raise invalid_argument(f"vkindex: set_default_context needs a vkindex.Context, got {type(context).__name__}")
    with _default_lock:
        _default = context


class Tensor:
    """A tensor whose elements live on a device; operators on Tensors return Tensors, without copies."""

    __slots__ = ("_handle",)

    def __init__(self, handle: _vkindex.Tensor):
        self._handle = handle

    @classmethod
    def from_numpy(cls, array: Any, dtype: Optional[str] = None, context: Optional[Context] = None) -> "Tensor":
        """A device tensor holding `array` (any layout and byte order); dtype= for the raw types."""
        return cls(to_device(context or default_context(), array, dtype, "Tensor.from_numpy"))

    def numpy(self) -> np.ndarray:
        """The elements as a new numpy array (raw bits or codes for the types numpy lacks)."""
        return to_numpy(self._handle)

    def __array__(self, dtype=None) -> np.ndarray:
        array = self.numpy()
        return array if dtype is None else array.astype(dtype)

    @property
    def shape(self) -> tuple:
        return tuple(self._handle.shape)

    @property
    def dtype(self) -> str:
        """The ONNX type name, one of vkindex.DTYPES ("float" is float32, "double" float64)."""
        return name_of_code(self._handle.type_code)

    @property
    def size(self) -> int:
        return self._handle.size

    @property
    def nbytes(self) -> int:
        """Bytes on the device (0 for strings, which stay on the host)."""
        return self._handle.nbytes

    @property
    def context(self) -> Context:
        return self._handle.context

    def __repr__(self) -> str:
        return f"<vkindex.Tensor {self.dtype}{list(self.shape)}>"


class _Call:
    """One operator call: its context, its inputs made device tensors, and the result's form."""

    def __init__(self, op: str, context: Optional[Context], data: Any, *others: Any):
        self.op = op
        tensors = [value for value in (data, *others) if isinstance(value, Tensor)]
        if context is not None and not isinstance(context, _vkindex.Context):
            raise invalid_argument(f"{op}: context must be a vkindex.Context, got {type(context).__name__}")
        self.context = context or (tensors[0].context if tensors else default_context())
        self.returns_tensor = isinstance(data, Tensor)

    def tensor(self, value: Any, input_name: str, dtype: Optional[str] = None) -> _vkindex.Tensor:
        """`value` on the device: a Tensor as it is (its dtype must be `dtype`), an array uploaded."""
        if isinstance(value, Tensor):
            if dtype is not None and type_name(dtype, f"{self.op}: input '{input_name}'") != value.dtype:
                raise invalid_argument(f"{self.op}: input '{input_name}' is a {value.dtype} Tensor, not {dtype}")
            return value._handle
        return to_device(self.context, value, dtype, f"{self.op}: input '{input_name}'")

    def optional_tensor(self, value: Any, input_name: str, dtype: Optional[str] = None) -> Optional[_vkindex.Tensor]:
        return None if value is None else self.tensor(value, input_name, dtype)

    def host_indices(self, value: Any) -> Optional[np.ndarray]:
        """Indices to pass as host indices (an int32/int64 array), or None for the indices-tensor form."""
        if isinstance(value, Tensor) or value is None:
            return None
        array = as_array(value)
        if array.dtype.newbyteorder("=") not in _HOST_INDEX_TYPES:
            return None  # the tensor form gives the operator's own message for the type
        # np.array, not np.ascontiguousarray, which makes a rank-0 array rank 1.
        return np.array(array, dtype=array.dtype.newbyteorder("="), order="C", copy=False)

    def integer(self, value: Any, name: str) -> int:
        try:
            number = operator.index(value)
        except TypeError:
            raise invalid_argument(f"{self.op}: {name} must be an integer, got {value!r}") from None
        if not -(2**63) <= number < 2**63:
            raise invalid_argument(f"{self.op}: {name} {number} is outside int64")
        return number

    def choice(self, value: Any, name: str, choices: dict):
        if not isinstance(value, str) or value not in choices:
            allowed = ", ".join(repr(choice) for choice in choices)
            raise invalid_argument(f"{self.op}: {name} must be one of {allowed}, got {value!r}")
        return choices[value]

    def policy(self, value: Any):
        return self.choice(value, "index_policy", _INDEX_POLICIES)

    def result(self, handle: _vkindex.Tensor):
        tensor = Tensor(handle)
        return tensor if self.returns_tensor else tensor.numpy()

    def in_place_target(self, data: Any) -> "Tensor":
        if not isinstance(data, Tensor):
            raise invalid_argument(f"{self.op}: in_place=True needs the data as a vkindex.Tensor (a numpy array "
                                   f"is not on the device: use Tensor.from_numpy)")
        return data

    def run_indexed(self, source: _vkindex.Tensor, indices: Any, host_form, tensor_form, *arguments):
        """A gather whose indices go as host indices when they are an int32/int64 array (host_form), else
        as a device tensor (tensor_form): form(source, indices, *arguments)."""
        host = self.host_indices(indices)
        if host is not None:
            return self.result(host_form(source, host, *arguments))
        return self.result(tensor_form(source, self.tensor(indices, "indices"), *arguments))

    def run_scatter(self, target: Optional["Tensor"], new_form, in_place_form, *arguments):
        """A scatter into a new tensor (new_form), or in place into `target` (in_place_form), which it returns."""
        if target is None:
            return self.result(new_form(*arguments))
        in_place_form(*arguments)
        return target


def gather(data, indices, axis=0, *, index_policy="error", dtype=None, context=None):
    """ONNX Gather (opsets 1, 11, 13): data's slices along `axis` picked by `indices`."""
    call = _Call("Gather", context, data, indices)
    axis, policy = call.integer(axis, "axis"), call.policy(index_policy)
    source = call.tensor(data, "data", dtype)
    return call.run_indexed(source, indices, _vkindex.gather_host, _vkindex.gather, axis, policy)


def gather_elements(data, indices, axis=0, *, index_policy="error", dtype=None, context=None):
    """ONNX GatherElements (opsets 11, 13): output[p] = data[p with coordinate `axis` = indices[p]]."""
    call = _Call("GatherElements", context, data, indices)
    axis, policy = call.integer(axis, "axis"), call.policy(index_policy)
    source = call.tensor(data, "data", dtype)
    return call.result(_vkindex.gather_elements(source, call.tensor(indices, "indices"), axis, policy))


def gather_nd(data, indices, batch_dims=0, *, index_policy="error", dtype=None, context=None):
    """ONNX GatherND (opsets 11, 12, 13): the slices that indices' last dimension addresses."""
    call = _Call("GatherND", context, data, indices)
    batch_dims, policy = call.integer(batch_dims, "batch_dims"), call.policy(index_policy)
    source = call.tensor(data, "data", dtype)
    return call.run_indexed(source, indices, _vkindex.gather_nd_host, _vkindex.gather_nd, batch_dims, policy)


def scatter_elements(data, indices, updates, axis=0, reduction="none", *, index_policy="error", in_place=False,
                     dtype=None, context=None):
    """ONNX ScatterElements (and Scatter 9, 10): data with updates combined at indices along `axis`."""
    call = _Call("ScatterElements", context, data, indices, updates)
    axis = call.integer(axis, "axis")
    reduction, policy = call.choice(reduction, "reduction", _REDUCTIONS), call.policy(index_policy)
    target = call.in_place_target(data) if in_place else None
    source = call.tensor(data, "data", dtype)
    index_tensor, update_tensor = call.tensor(indices, "indices"), call.tensor(updates, "updates", dtype)
    return call.run_scatter(target, _vkindex.scatter_elements, _vkindex.scatter_elements_in_place, source,
                            index_tensor, update_tensor, axis, reduction, policy)


def scatter_nd(data, indices, updates, reduction="none", *, index_policy="error", in_place=False, dtype=None,
               context=None):
    """ONNX ScatterND (opsets 11-18): data with updates' slices combined at the index tuples."""
    call = _Call("ScatterND", context, data, indices, updates)
    reduction, policy = call.choice(reduction, "reduction", _REDUCTIONS), call.policy(index_policy)
    target = call.in_place_target(data) if in_place else None
    source = call.tensor(data, "data", dtype)
    index_tensor, update_tensor = call.tensor(indices, "indices"), call.tensor(updates, "updates", dtype)
    return call.run_scatter(target, _vkindex.scatter_nd, _vkindex.scatter_nd_in_place, source, index_tensor,
                            update_tensor, reduction, policy)


def tensor_scatter(past_cache, update, write_indices=None, *, axis=-2, mode="linear", index_policy="error",
                   in_place=False, dtype=None, context=None):
    """ONNX TensorScatter (opset 24), the KV-cache write: update's rows written along `axis` from each
    batch entry's write index (None: all zero)."""
    call = _Call("TensorScatter", context, past_cache, update, write_indices)
    axis = call.integer(axis, "axis")
    mode, policy = call.choice(mode, "mode", _MODES), call.policy(index_policy)
    target = call.in_place_target(past_cache) if in_place else None
    cache = call.tensor(past_cache, "past_cache", dtype)
    update_tensor = call.tensor(update, "update", dtype)
    write = call.optional_tensor(write_indices, "write_indices")
    return call.run_scatter(target, _vkindex.tensor_scatter, _vkindex.tensor_scatter_in_place, cache, update_tensor,
                            write, axis, mode, policy)


def gather_block_quantized(data, indices, scales, zero_points=None, *, gather_axis=0, quantize_axis=1,
                           block_size=128, bits=4, index_policy="skip", dtype=None, scales_dtype=None,
                           context=None):
    """com.microsoft GatherBlockQuantized: a Gather of a block-quantized table, dequantized to the scales'
    type. dtype= names the data's (and zero points') type: "int4", "uint4", a float8 kind or "float4e2m1";
    uint8 data needs none. scales_dtype="bfloat16" for bfloat16 scales given as uint16."""
    call = _Call("GatherBlockQuantized", context, data, indices, scales, zero_points)
    gather_axis, quantize_axis = call.integer(gather_axis, "gather_axis"), call.integer(quantize_axis, "quantize_axis")
    block_size, bits = call.integer(block_size, "block_size"), call.integer(bits, "bits")
    policy = call.policy(index_policy)
    table = call.tensor(data, "data", dtype)
    scale_tensor = call.tensor(scales, "scales", scales_dtype)
    zero_tensor = call.optional_tensor(zero_points, "zero_points", dtype)
    return call.run_indexed(table, indices, _vkindex.gather_block_quantized_host, _vkindex.gather_block_quantized,
                            scale_tensor, zero_tensor, gather_axis, quantize_axis, block_size, bits, policy)


__all__ = ["Context", "DTYPES", "Tensor", "default_context", "gather", "gather_block_quantized", "gather_elements",
           "gather_nd", "scatter_elements", "scatter_nd", "set_default_context", "tensor_scatter"]
