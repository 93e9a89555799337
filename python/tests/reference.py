"""numpy references for the vkindex tests: the operators as sequential loops, written from ONNX's text
and docs/operators.md, docs/reductions.md (not from the module's output), with the element arithmetic
of the node-test generators in tests/differential.

Every comparison in the suite is on raw bytes: `same_bytes` views both arrays as unsigned integers of
the element's width (object arrays of strings compare element by element, types included).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "differential"))
import gather_block_quantized_node_tests  # noqa: E402
import numpy_node_tests  # noqa: E402

INT64_MAX = 2**63 - 1
INT64_MIN = -2**63

# The 15 classic types numpy represents (string and bfloat16 are handled apart).
CLASSIC = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
           "float32", "float64", "complex64", "complex128"]
# ONNX type names (vkindex's names, src/base/data_type.cpp) of the numpy dtypes.
ONNX_NAME = {"bool": "bool", "int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16",
             "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64", "float16": "float16",
             "float32": "float", "float64": "double", "complex64": "complex64", "complex128": "complex128"}
FLOAT8 = ["float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float8e8m0"]
FOUR_BIT = ["int4", "uint4", "float4e2m1"]
LOW_PRECISION = FLOAT8 + FOUR_BIT
ALL_NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
             "bfloat16", "float", "double", "complex64", "complex128", "string"] + LOW_PRECISION


# --- Comparing -----------------------------------------------------------------------------------------
def raw(array):
    """The array's elements as unsigned integers of the same width (C order, native byte order)."""
    array = np.asarray(array)
    if array.dtype == object or array.dtype.kind in "US":
        return array
    array = np.ascontiguousarray(array)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    width = array.dtype.itemsize
    if width == 16:
        return array.view(np.uint64).reshape(array.shape + (2,))
    return array.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[width])


def same_bytes(got, expected):
    """True when `got` is a numpy array with expected's shape, dtype and bytes (strings: the same str)."""
    if not isinstance(got, np.ndarray):
        return False
    expected = np.asarray(expected)
    if got.shape != expected.shape:
        return False
    if expected.dtype == object:
        return got.dtype == object and all(type(a) is str and a == b for a, b in zip(got.flat, expected.flat))
    if got.dtype.newbyteorder("=") != expected.dtype.newbyteorder("="):
        return False
    return np.array_equal(raw(got), raw(expected))


def describe(got, expected):
    """A short text of where two arrays differ, for assertion messages."""
    got, expected = np.asarray(got), np.asarray(expected)
    if got.shape != expected.shape or got.dtype != expected.dtype:
        return "got %s %s, expected %s %s" % (got.dtype, got.shape, expected.dtype, expected.shape)
    if expected.dtype == object:
        bad = [i for i, (a, b) in enumerate(zip(got.flat, expected.flat)) if a != b or type(a) is not str]
    else:
        a, b = raw(got), raw(expected)
        neq = np.asarray(a != b)
        if neq.ndim > got.ndim:
            neq = neq.any(axis=-1)
        bad = np.flatnonzero(neq)
    bad = list(bad)
    first = bad[0] if bad else None
    detail = ""
    if first is not None:
        detail = ": first at flat %d: got %r, expected %r" % (first, got.flat[first], expected.flat[first])
    return "%d elements differ%s" % (len(bad), detail)


def assert_same(got, expected):
    assert same_bytes(got, expected), describe(got, expected)


# --- Random data -----------------------------------------------------------------------------------------
def random_values(rng, kind, shape, small=False):
    """Random elements of a numpy kind. `small`: integers in a narrow range (and floats holding small
    integers), for reductions; else every bit pattern (floats include NaNs with payloads)."""
    shape = tuple(shape)
    count = int(np.prod(shape, dtype=np.int64))
    if kind == "bool":
        return rng.integers(0, 2, count).astype(np.bool_).reshape(shape)
    if kind == "string":
        words = ["", "a", "bc", "xyz", "hello", "\u00e9t\u00e9", "\u2713", "12345678901234567890"]
        return np.array([words[i] + str(j) for i, j in zip(rng.integers(0, len(words), count),
                                                           rng.integers(0, 99, count))],
                        dtype=object).reshape(shape)
    dtype = np.dtype(kind)
    if small:
        if dtype.kind == "c":
            return (rng.integers(-3, 4, count) + 1j * rng.integers(-3, 4, count)).astype(dtype).reshape(shape)
        low = 0 if dtype.kind == "u" else -4
        return rng.integers(low, 5, count).astype(dtype).reshape(shape)
    raw_bytes = rng.integers(0, 256, count * dtype.itemsize, dtype=np.uint8)
    return raw_bytes.view(dtype).reshape(shape).copy()


def random_indices(rng, shape, size, dtype=np.int64, negative=True):
    """Indices in [-size, size - 1] (or [0, size - 1])."""
    low = -size if negative else 0
    return rng.integers(low, size, int(np.prod(shape, dtype=np.int64))).astype(dtype).reshape(shape)


# --- Gathers ----------------------------------------------------------------------------------------------
def positive(index, size):
    index = int(index)
    return index + size if index < 0 else index


def gather(data, indices, axis=0):
    """ONNX Gather: numpy's take (negative indices from the back), rank-0 indices dropping the axis."""
    indices = np.asarray(indices)
    axis = axis % data.ndim
    if data.shape[axis] == 0:  # only an empty index tensor is valid then
        return np.zeros(data.shape[:axis] + indices.shape + data.shape[axis + 1:], dtype=data.dtype)
    return np.take(data, indices.astype(np.int64), axis=axis)


def gather_skip(data, indices, axis=0, zero=0):
    """Gather under index_policy 'skip': an index outside [0, s-1] gives a zero slice."""
    indices = np.asarray(indices).astype(object)
    axis = axis % data.ndim
    size = data.shape[axis]
    valid = np.vectorize(lambda i: 0 <= i < size, otypes=[bool])(indices) if indices.size else \
        np.zeros(indices.shape, bool)
    safe = np.where(valid, indices, 0).astype(np.int64)
    out_shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
    if size == 0:
        out = np.zeros(out_shape, dtype=data.dtype)
        if data.dtype == object:
            out[...] = zero
        return out
    out = np.take(data, safe, axis=axis)
    mask = valid.reshape((1,) * axis + indices.shape + (1,) * (data.ndim - axis - 1))
    mask = np.broadcast_to(mask, out.shape)
    out = out.copy()
    out[~mask] = zero
    return out


def gather_elements(data, indices, axis=0):
    """ONNX GatherElements: indices' shape; indices may be smaller than data off the axis."""
    indices = np.asarray(indices).astype(np.int64)
    axis = axis % data.ndim
    out = np.empty(indices.shape, dtype=data.dtype)
    for position in np.ndindex(indices.shape):
        source = list(position)
        source[axis] = positive(indices[position], data.shape[axis])
        out[position] = data[tuple(source)]
    return out


def gather_nd(data, indices, batch_dims=0):
    """ONNX GatherND as a loop over index tuples."""
    indices = np.asarray(indices).astype(np.int64)
    k = indices.shape[-1]
    out_shape = indices.shape[:-1] + data.shape[batch_dims + k:]
    out = np.empty(out_shape, dtype=data.dtype)
    for position in np.ndindex(indices.shape[:-1]):
        batch = position[:batch_dims]
        components = tuple(positive(indices[position + (c,)], data.shape[batch_dims + c]) for c in range(k))
        out[position] = data[batch + components]
    return out


# --- Scatter arithmetic (docs/reductions.md) ------------------------------------------------------------
# The arithmetic comes from the node-test generators' references (tests/differential), which the ONNX
# node tests already hold against vkindex: one definition of each rule.
float_op = numpy_node_tests.float_operation
bf16_to_f32 = numpy_node_tests.bfloat16_to_float32
f32_to_bf16 = numpy_node_tests.float32_to_bfloat16
combine = numpy_node_tests.combine


def f32_array_to_bf16(values):
    return np.array([f32_to_bf16(v) for v in np.asarray(values, np.float32).flat],
                    dtype=np.uint16).reshape(np.shape(values))


def scatter_elements(data, indices, updates, axis=0, reduction="none", kind=None, skip=False):
    """ONNX ScatterElements, updates applied one by one in row-major order of indices."""
    kind = kind or ("string" if data.dtype == object else data.dtype.name)
    indices = np.asarray(indices).astype(object)
    axis = axis % data.ndim
    size = data.shape[axis]
    out = data.copy()
    for position in np.ndindex(indices.shape):
        index = int(indices[position])
        if skip and not 0 <= index < size:
            continue
        target = list(position)
        target[axis] = positive(index, size)
        target = tuple(target)
        out[target] = combine(kind, reduction, out[target], updates[position])
    return out


def scatter_nd(data, indices, updates, reduction="none", kind=None, skip=False):
    """ONNX ScatterND, tuples applied one by one in row-major order."""
    kind = kind or ("string" if data.dtype == object else data.dtype.name)
    indices = np.asarray(indices).astype(object)
    k = indices.shape[-1]
    out = data.copy()
    slice_shape = data.shape[k:]
    for position in np.ndindex(indices.shape[:-1]):
        tuple_ = [int(indices[position + (c,)]) for c in range(k)]
        if skip and not all(0 <= t < data.shape[c] for c, t in enumerate(tuple_)):
            continue
        target = tuple(positive(t, data.shape[c]) for c, t in enumerate(tuple_))
        for inner in np.ndindex(slice_shape):
            out[target + inner] = combine(kind, reduction, out[target + inner], updates[position + inner])
    return out


# --- TensorScatter -------------------------------------------------------------------------------------
def tensor_scatter(past, update, writes, axis=-2, mode="linear", skip=False):
    """ONNX TensorScatter (opset 24) with Python integer write indices (None: zeros)."""
    axis = axis % past.ndim
    present = past.copy()
    max_seq, seq_len = past.shape[axis], update.shape[axis]
    for b in range(past.shape[0]):
        write = 0 if writes is None else int(writes[b])
        if skip:
            bad = write < 0 if mode == "circular" else not 0 <= write <= max_seq - seq_len
            if bad:
                continue
        for s in range(seq_len):
            position = (write + s) % max_seq if mode == "circular" else write + s
            prefix = (b,) + (slice(None),) * (axis - 1)
            present[prefix + (position,)] = update[prefix + (s,)]
    return present


# --- GatherBlockQuantized (ONNX Runtime's CPU arithmetic) -------------------------------------------------
# (exponent bits, mantissa bits, bias, fnuz)
FLOAT_CODES = gather_block_quantized_node_tests.FLOAT_CODES


def decode_float_code(kind, code):
    return gather_block_quantized_node_tests.decode_float_code(kind, int(code))


def dequantize_gather(codes, indices, scales, zero_points, gather_axis, quantize_axis, block_size, out_kind,
                      default_zero_point=0, float_kind=None, skip=True):
    """GatherBlockQuantized on unpacked arrays: `codes` int64 codes of the logical shape (or float
    codes of `float_kind`), `scales` float32 values of the scales' shape (already widened), `zero_points`
    int64 of the scales' shape or None. The result: (value) * scale in float32, rounded to `out_kind`
    ("float32", "float16" or "bfloat16": uint16 bits). Out-of-range indices give zero slices."""
    codes = np.asarray(codes)
    rank = codes.ndim
    g, q = gather_axis % rank, quantize_axis % rank
    along = codes.shape[q]
    block = block_size or max(along, 1)
    blocks = np.arange(along) // block
    scale = np.take(np.asarray(scales, np.float32), blocks, axis=q)
    scale = np.broadcast_to(scale, codes.shape)
    if float_kind is not None:
        values = np.vectorize(lambda c: decode_float_code(float_kind, c), otypes=[np.float64])(codes) \
            if codes.size else np.zeros(codes.shape)
        values = values.astype(np.float32)  # every float8/float4 value is exact in float32
    else:
        offset = default_zero_point if zero_points is None else \
            np.take(np.asarray(zero_points, np.int64), blocks, axis=q)
        values = (codes.astype(np.int64) - offset).astype(np.float32)
    with np.errstate(all="ignore"):
        table = values * scale  # float32 * float32: one IEEE multiply, round to nearest even
        if out_kind == "float16":
            table = table.astype(np.float16)
        elif out_kind == "bfloat16":
            table = f32_array_to_bf16(table)
    indices = np.asarray(indices).astype(np.int64)
    count = codes.shape[g]
    inside = (indices >= -count) & (indices < count)
    if not skip:
        assert inside.all()
    out_shape = codes.shape[:g] + indices.shape + codes.shape[g + 1:]
    if count == 0:
        return np.zeros(out_shape, table.dtype)
    rows = np.take(table, np.where(inside, indices, 0), axis=g)
    mask = np.broadcast_to(inside.reshape((1,) * g + indices.shape + (1,) * (rank - g - 1)), out_shape)
    out = rows.copy()
    out[~mask] = 0
    return out


# --- Packing helpers ---------------------------------------------------------------------------------------
def pack_uint8_rows(codes, bits):
    """uint8 codes of `bits` bits packed along the last axis, the first code in the low bits; rows
    padded to whole bytes."""
    codes = np.asarray(codes, dtype=np.uint8)
    per_byte = 8 // bits
    rows = codes.reshape(-1, codes.shape[-1])
    width = (codes.shape[-1] + per_byte - 1) // per_byte
    packed = np.zeros((rows.shape[0], width), dtype=np.uint8)
    for lane in range(per_byte):
        part = rows[:, lane::per_byte]
        packed[:, :part.shape[1]] |= (part & ((1 << bits) - 1)) << (bits * lane)
    return packed.reshape(codes.shape[:-1] + (width,))
