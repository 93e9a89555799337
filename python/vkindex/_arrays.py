"""numpy arrays to and from vkindex tensors: the type table, packing, byte order and strings."""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from . import _vkindex
from ._errors import invalid_argument


class _TypeFacts(NamedTuple):
    code: int            # ONNX TensorProto.DataType
    array: np.dtype      # the numpy dtype of its arrays (raw bits for bfloat16 and float8, codes for 4-bit)
    raw: bool            # numpy has no such type: its arrays hold the raw bits and need dtype=
    nibble: bool = False  # 4 bits: one code per array element, packed two per byte on the device


_TYPES = {
    "bool": _TypeFacts(9, np.dtype(np.bool_), False),
    "int8": _TypeFacts(3, np.dtype(np.int8), False),
    "uint8": _TypeFacts(2, np.dtype(np.uint8), False),
    "int16": _TypeFacts(5, np.dtype(np.int16), False),
    "uint16": _TypeFacts(4, np.dtype(np.uint16), False),
    "int32": _TypeFacts(6, np.dtype(np.int32), False),
    "uint32": _TypeFacts(12, np.dtype(np.uint32), False),
    "int64": _TypeFacts(7, np.dtype(np.int64), False),
    "uint64": _TypeFacts(13, np.dtype(np.uint64), False),
    "float16": _TypeFacts(10, np.dtype(np.float16), False),
    "float": _TypeFacts(1, np.dtype(np.float32), False),
    "double": _TypeFacts(11, np.dtype(np.float64), False),
    "complex64": _TypeFacts(14, np.dtype(np.complex64), False),
    "complex128": _TypeFacts(15, np.dtype(np.complex128), False),
    "string": _TypeFacts(8, np.dtype(object), False),
    "bfloat16": _TypeFacts(16, np.dtype(np.uint16), True),
    "float8e4m3fn": _TypeFacts(17, np.dtype(np.uint8), True),
    "float8e4m3fnuz": _TypeFacts(18, np.dtype(np.uint8), True),
    "float8e5m2": _TypeFacts(19, np.dtype(np.uint8), True),
    "float8e5m2fnuz": _TypeFacts(20, np.dtype(np.uint8), True),
    "float8e8m0": _TypeFacts(24, np.dtype(np.uint8), True),
    "int4": _TypeFacts(22, np.dtype(np.int8), True, nibble=True),
    "uint4": _TypeFacts(21, np.dtype(np.uint8), True, nibble=True),
    "float4e2m1": _TypeFacts(23, np.dtype(np.uint8), True, nibble=True),
}
_ALIASES = {"float32": "float", "float64": "double"}
_NAME_BY_CODE = {facts.code: name for name, facts in _TYPES.items()}
# The type each numpy dtype stands for without dtype= (the first name listed for its numpy dtype).
_NAME_BY_ARRAY = {facts.array: name for name, facts in reversed(_TYPES.items()) if not facts.raw}

DTYPES = tuple(_TYPES)


def type_name(dtype: str, where: str = "vkindex") -> str:
    """The vkindex name for `dtype` (a name from DTYPES, "float32" or "float64"), else InvalidArgumentError
    naming `where` (the operator and its input)."""
    name = _ALIASES.get(dtype, dtype) if isinstance(dtype, str) else None
    if name not in _TYPES:
        raise invalid_argument(f"{where}: unknown dtype {dtype!r}; the types are {', '.join(DTYPES)}")
    return name


def name_of_code(code: int) -> str:
    return _NAME_BY_CODE[code]


def _array_type_name(array: np.ndarray) -> Optional[str]:
    if array.dtype.kind in "USO":
        return "string"
    return _NAME_BY_ARRAY.get(array.dtype.newbyteorder("="))


def _string_bytes(array: np.ndarray, where: str) -> list:
    values = []
    for value in array.reshape(-1).tolist():
        if isinstance(value, str):
            values.append(value.encode("utf-8", "surrogateescape"))
        elif isinstance(value, bytes):
            values.append(value)
        else:
            raise invalid_argument(f"{where}: a string tensor's elements must be str or bytes, got "
                                   f"{type(value).__name__}")
    return values


def _nibble_bytes(array: np.ndarray, name: str, where: str) -> np.ndarray:
    codes = array.reshape(-1).astype(np.int16)
    low = -8 if name == "int4" and array.dtype.kind == "i" else 0
    if codes.size and (codes.min() < low or codes.max() > low + 15):
        raise invalid_argument(f"{where}: {name} codes must lie in [{low}, {low + 15}], got values in "
                               f"[{codes.min()}, {codes.max()}]")
    codes = (codes & 0xF).astype(np.uint8)
    if codes.size % 2:
        codes = np.append(codes, np.uint8(0))
    return codes[0::2] | (codes[1::2] << 4)


def as_array(value) -> np.ndarray:
    """numpy.asarray(value), except that an empty Python sequence, which has no element to say its type,
    becomes int64 (numpy would make it float64): empty indices given as []."""
    array = np.asarray(value)
    if not isinstance(value, np.ndarray) and array.size == 0 and array.dtype == np.float64:
        return array.astype(np.int64)
    return array


def to_device(context, value, dtype: Optional[str], where: str):
    """A new device tensor (_vkindex.Tensor) holding `value` (array-like) as type `dtype` (None: the array's)."""
    if value is None:
        raise invalid_argument(f"{where}: the input is missing (None)")
    array = np.asarray(value) if dtype is not None else as_array(value)
    own_name = _array_type_name(array)
    name = type_name(dtype, where) if dtype is not None else own_name
    if name is None:
        raise invalid_argument(f"{where}: numpy dtype {array.dtype} has no ONNX type; the types are "
                               f"{', '.join(DTYPES)} (bfloat16, float8 and 4-bit ones as raw arrays with dtype=)")
    facts = _TYPES[name]
    shape = list(array.shape)
    if name == "string":
        if own_name != "string":
            raise invalid_argument(f"{where}: dtype 'string' needs an array of str or bytes, got {array.dtype}")
        return _vkindex.Tensor.from_strings(context, shape, _string_bytes(array, where))
    if facts.raw:
        width = 1 if facts.nibble else facts.array.itemsize
        if array.dtype.kind not in "iu" or array.dtype.itemsize != width:
            raise invalid_argument(f"{where}: dtype {name!r} needs an array of {width}-byte integers (its raw "
                                   f"{'codes' if facts.nibble else 'bits'}), got {array.dtype}")
        if facts.nibble:
            return _vkindex.Tensor.from_buffer(context, facts.code, shape, _nibble_bytes(array, name, where))
    elif own_name != name:
        raise invalid_argument(f"{where}: dtype {name!r} does not match the array's numpy dtype {array.dtype}; "
                               f"convert the array with astype")
    packed = np.array(array, dtype=array.dtype.newbyteorder("<"), order="C", copy=False)
    return _vkindex.Tensor.from_buffer(context, facts.code, shape, packed.reshape(-1).view(np.uint8))


def to_numpy(tensor) -> np.ndarray:
    """A device tensor's elements as a new numpy array (see docs/python.md's type table)."""
    name = name_of_code(tensor.type_code)
    facts = _TYPES[name]
    shape = tuple(tensor.shape)
    if name == "string":
        values = [value.decode("utf-8", "surrogateescape") for value in tensor.strings()]
        result = np.empty(len(values), dtype=object)
        result[:] = values
        return result.reshape(shape)
    if facts.nibble:
        packed = np.empty(tensor.nbytes, dtype=np.uint8)
        if packed.size:
            tensor.download_into(packed)
        codes = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(-1)[: tensor.size]
        if name == "int4":
            codes = ((codes.astype(np.int8) << 4) >> 4).astype(np.int8)
        return codes.reshape(shape)
    result = np.empty(shape, dtype=facts.array.newbyteorder("<"))
    if result.size:
        tensor.download_into(result.reshape(-1).view(np.uint8))
    return result.astype(facts.array, copy=False)
