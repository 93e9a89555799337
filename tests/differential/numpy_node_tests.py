#!/usr/bin/python3
"""Random ONNX node tests whose expected outputs come from numpy, written from ONNX's operator docs.

An oracle independent of the C++ reference in tests/support (another language, another author's
reading of the spec): `vkindex onnx-test` must reproduce every output byte for byte. Cases cover
every operator and opset, every tensor type, both index types, negative axes and indices, rank-0 and
empty tensors, NaN/inf/subnormal bit patterns, and large duplicate-heavy scatters that reach the fold,
heavy-sort and walk paths.

  numpy_node_tests.py OUT_DIR --seed S --small N --large M

Needs python3-onnx and python3-numpy (Debian). Writes OUT_DIR/<case>/model.onnx and test_data_set_0/.
"""
import argparse
import os
import random

import numpy as np
from onnx import TensorProto, helper, numpy_helper

ONNX_TYPES = {
    "bool": TensorProto.BOOL, "int8": TensorProto.INT8, "uint8": TensorProto.UINT8,
    "int16": TensorProto.INT16, "uint16": TensorProto.UINT16, "int32": TensorProto.INT32,
    "uint32": TensorProto.UINT32, "int64": TensorProto.INT64, "uint64": TensorProto.UINT64,
    "float16": TensorProto.FLOAT16, "bfloat16": TensorProto.BFLOAT16, "float32": TensorProto.FLOAT,
    "float64": TensorProto.DOUBLE, "complex64": TensorProto.COMPLEX64,
    "complex128": TensorProto.COMPLEX128, "string": TensorProto.STRING,
}
FLOATS = ("float16", "float32", "float64")
# bfloat16 has no numpy dtype: its tensors are uint16 arrays of the bits.
BITS_DTYPE = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64}


class Generator:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.choice = random.Random(seed).choice

    def integer(self, low, high):
        """A random integer in [low, high]."""
        return int(self.rng.integers(low, high + 1))

    def shape(self, rank, low, high):
        return tuple(self.integer(low, high) for _ in range(rank))

    def values(self, kind, shape, special=True):
        """Random elements; `special` mixes in NaNs, infinities, zeros of both signs and subnormals."""
        count = int(np.prod(shape))
        rng = self.rng
        if kind == "bool":
            values = rng.integers(0, 2, count).astype(np.bool_)
        elif kind == "string":
            values = np.array(["s%d" % rng.integers(0, 1000) * int(rng.integers(0, 3)) for _ in range(count)],
                              dtype=object)
        elif kind in FLOATS or kind == "bfloat16":
            wide = (rng.standard_normal(count) * 10.0 ** rng.integers(-3, 4, count)).astype(np.float32)
            values = (wide.view(np.uint32) >> 16).astype(np.uint16) if kind == "bfloat16" else wide.astype(kind)
            if special:
                bits = BITS_DTYPE[kind]
                raw = rng.integers(0, np.iinfo(bits).max, count, dtype=bits, endpoint=True)
                pick = rng.random(count) < 0.2
                values.view(bits)[pick] = raw[pick]
                if kind != "bfloat16":
                    named = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-310]).astype(kind)
                    pick = rng.random(count) < 0.1
                    values[pick] = named[rng.integers(0, len(named), int(pick.sum()))]
        elif kind.startswith("complex"):
            part = np.float32 if kind == "complex64" else np.float64
            values = (rng.standard_normal(count).astype(part) + 1j * rng.standard_normal(count).astype(part))
            values = values.astype(kind)
            if special:
                values.real[rng.random(count) < 0.05] = np.inf
        else:
            info = np.iinfo(kind)
            low, high = (info.min, info.max) if rng.random() < 0.5 else (max(info.min, -5), min(info.max, 5))
            values = rng.integers(low, high, count, dtype=kind, endpoint=True)
        return values.reshape(shape)

    def index_values(self, shape, size, index_type):
        """Indices in [-size, size - 1] (zeros when size is 0: only valid for empty index tensors)."""
        if size == 0:
            return np.zeros(shape, dtype=index_type)
        return self.rng.integers(-size, size, int(np.prod(shape))).astype(index_type).reshape(shape)


# --- Element arithmetic, as the README's reductions table states it --------------------------------
# A float operation whose result is NaN gives what x86-64 SSE gives with the current value as the first
# operand: a NaN current value, quieted; else a NaN update, quieted; else the default NaN. numpy's own
# result is not used for NaNs: its loops may swap the operands of a commutative operation.
FLOAT_FORMATS = {  # bits dtype, quiet bit, default NaN
    np.dtype(np.float32): (np.uint32, 1 << 22, 0xFFC00000),
    np.dtype(np.float64): (np.uint64, 1 << 51, 0xFFF8000000000000),
}


def float_operation(operation, a, b):
    """a (op) b for numpy float32 or float64 scalars, with the NaN rule above."""
    with np.errstate(all="ignore"):
        result = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[operation](a, b)
    if not np.isnan(result):
        return result
    bits, quiet, default = FLOAT_FORMATS[a.dtype]
    for operand in (a, b):
        if np.isnan(operand):
            return (np.array(operand).view(bits) | bits(quiet)).view(a.dtype)[()]
    return np.array(default, dtype=bits).view(a.dtype)[()]


def bfloat16_to_float32(bits):
    return np.array(np.uint32(bits) << np.uint32(16)).view(np.float32)[()]


def float32_to_bfloat16(value):
    """Round to nearest even; a NaN keeps its sign and top payload bits, quieted."""
    bits = int(np.array(value, dtype=np.float32).view(np.uint32))
    if bits & 0x7FFFFFFF > 0x7F800000:
        return np.uint16((bits >> 16) | 0x40)
    return np.uint16(((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF)


def greater(kind, a, b):
    """a > b; false when either is NaN, and +0/-0 compare equal."""
    if kind == "bfloat16":
        a, b = bfloat16_to_float32(a), bfloat16_to_float32(b)
    return bool(a > b)


def combine(kind, reduction, current, update):
    """The element that reduction(current, update) leaves."""
    if reduction == "none":
        return update
    if kind == "bool":  # add is OR, mul is AND
        return np.bool_(current or update) if reduction == "add" else np.bool_(current and update)
    if kind == "string":  # add appends
        return current + update
    if reduction == "max":
        return update if greater(kind, update, current) else current
    if reduction == "min":
        return update if greater(kind, current, update) else current
    if kind in ("float32", "float64"):
        return float_operation(reduction, current, update)
    if kind in ("float16", "bfloat16"):  # widen exactly, one float32 operation, round once
        widen = bfloat16_to_float32 if kind == "bfloat16" else np.float32
        result = float_operation(reduction, widen(current), widen(update))
        with np.errstate(over="ignore"):
            return float32_to_bfloat16(result) if kind == "bfloat16" else np.float16(result)
    if kind.startswith("complex"):
        a, b, c, d = current.real, current.imag, update.real, update.imag
        if reduction == "add":
            real, imaginary = float_operation("add", a, c), float_operation("add", b, d)
        else:  # (ac - bd) + (ad + bc)i, each operation rounded on its own
            real = float_operation("sub", float_operation("mul", a, c), float_operation("mul", b, d))
            imaginary = float_operation("add", float_operation("mul", a, d), float_operation("mul", b, c))
        result = np.zeros((), dtype=kind)
        result.real, result.imag = real, imaginary
        return result[()]
    with np.errstate(all="ignore"):  # integers wrap at their width
        return current + update if reduction == "add" else current * update


def positive(index, size):
    return int(index) + size if index < 0 else int(index)


# --- The operators, each a random case: (op_type, opset, inputs, output, attributes) ----------------
def gather(gen, kind, index_type):
    rank = gen.integer(1, 4)
    shape = gen.shape(rank, 1 if gen.rng.random() < 0.8 else 0, 5)
    axis = gen.integer(-rank, rank - 1)
    a = axis % rank
    index_shape = gen.shape(gen.integer(0, 2), 0 if gen.rng.random() < 0.1 else 1, 4)
    if shape[a] == 0 and int(np.prod(index_shape)) > 0:
        return None
    indices = gen.index_values(index_shape, shape[a], index_type)
    data = gen.values(kind, shape)
    output = np.empty(shape[:a] + index_shape + shape[a + 1:], dtype=data.dtype)
    for position in np.ndindex(output.shape):
        index = indices[position[a:a + len(index_shape)]]
        source = position[:a] + (positive(index, shape[a]),) + position[a + len(index_shape):]
        output[position] = data[source]
    attributes = {"axis": axis} if axis != 0 or gen.rng.random() < 0.5 else {}
    return "Gather", gen.choice([1, 11, 13]), [data, indices], output, attributes


def axis_shapes(gen, rank, axis, axis_high):
    """Shapes for the element-wise operators: data's, and indices' (dims other than the axis at most data's)."""
    shape = gen.shape(rank, 1, 5)
    index_shape = list(shape)
    for dim in range(rank):
        if dim == axis:
            index_shape[dim] = gen.integer(0, axis_high)
        elif gen.rng.random() < 0.3:
            index_shape[dim] = gen.integer(0, shape[dim])
    return shape, tuple(index_shape)


def gather_elements(gen, kind, index_type):
    rank = gen.integer(1, 4)
    axis = gen.integer(-rank, rank - 1)
    a = axis % rank
    shape, index_shape = axis_shapes(gen, rank, a, 4)
    indices = gen.index_values(index_shape, shape[a], index_type)
    data = gen.values(kind, shape)
    output = np.empty(index_shape, dtype=data.dtype)
    for position in np.ndindex(index_shape):
        source = list(position)
        source[a] = positive(indices[position], shape[a])
        output[position] = data[tuple(source)]
    return "GatherElements", gen.choice([11, 13]), [data, indices], output, {"axis": axis}


def gather_nd(gen, kind, index_type):
    batch_dims = gen.integer(0, 2)
    shape = gen.shape(gen.integer(batch_dims + 1, batch_dims + 3), 1, 4)
    tuple_length = gen.integer(1, len(shape) - batch_dims)
    middle = gen.shape(gen.integer(0, 1), 0 if gen.rng.random() < 0.1 else 1, 3)
    index_shape = shape[:batch_dims] + middle + (tuple_length,)
    indices = np.zeros(index_shape, dtype=index_type)
    data = gen.values(kind, shape)
    output = np.empty(index_shape[:-1] + shape[batch_dims + tuple_length:], dtype=data.dtype)
    for position in np.ndindex(index_shape[:-1]):
        components = []
        for c in range(tuple_length):
            size = shape[batch_dims + c]
            indices[position + (c,)] = gen.integer(-size, size - 1)
            components.append(positive(indices[position + (c,)], size))
        output[position] = data[position[:batch_dims] + tuple(components)]
    opset = 11 if batch_dims == 0 and gen.rng.random() < 0.3 else gen.choice([12, 13])
    attributes = {"batch_dims": batch_dims} if opset >= 12 and (batch_dims or gen.rng.random() < 0.5) else {}
    return "GatherND", opset, [data, indices], output, attributes


def reduction_for(gen, kind):
    # bool and string: the pairs ONNX Runtime's CPU kernels define (add and mul as OR and AND on bool,
    # add as concatenation on string); they refuse the rest.
    if kind == "bool":
        return gen.choice(["none", "add", "mul"])
    if kind == "string":
        return gen.choice(["none", "add"])
    if kind.startswith("complex"):
        return gen.choice(["none", "add", "mul"])
    return gen.choice(["none", "add", "mul", "max", "min", "add", "mul", "max", "min"])


def scatter_opset(gen, reduction, choices_without):
    if reduction == "none":
        return gen.choice(choices_without)
    return gen.choice([16, 18]) if reduction in ("add", "mul") else 18


def scatter_elements(gen, kind, index_type):
    rank = gen.integer(1, 3)
    axis = gen.integer(-rank, rank - 1)
    a = axis % rank
    shape, index_shape = axis_shapes(gen, rank, a, 7)
    reduction = reduction_for(gen, kind)
    indices = gen.index_values(index_shape, shape[a], index_type)
    if gen.rng.random() < 0.5:  # duplicate-heavy: a few targets along the axis
        indices = (indices.astype(np.int64) % gen.integer(1, shape[a])).astype(index_type)
    data, updates = gen.values(kind, shape), gen.values(kind, index_shape)
    output = data.copy()
    for position in np.ndindex(index_shape):
        target = list(position)
        target[a] = positive(indices[position], shape[a])
        target = tuple(target)
        output[target] = combine(kind, reduction, output[target], updates[position])
    opset = scatter_opset(gen, reduction, [9, 10, 11, 13, 16, 18])
    attributes = {"axis": axis} if axis != 0 or gen.rng.random() < 0.5 else {}
    if opset >= 16 and (reduction != "none" or gen.rng.random() < 0.5):
        attributes["reduction"] = reduction
    return "Scatter" if opset < 11 else "ScatterElements", opset, [data, indices, updates], output, attributes


def scatter_nd(gen, kind, index_type):
    shape = gen.shape(gen.integer(1, 3), 1, 5)
    # k = 0 too: empty tuples, each addressing the whole of data (ONNX bounds k by the rank only).
    tuple_length = gen.integer(0, len(shape))
    index_shape = gen.shape(gen.integer(0, 2), 0 if gen.rng.random() < 0.1 else 1, 6) + (tuple_length,)
    reduction = reduction_for(gen, kind)
    hot = [gen.integer(1, size) for size in shape[:tuple_length]]
    duplicates = gen.rng.random() < 0.6
    indices = np.zeros(index_shape, dtype=index_type)
    for position in np.ndindex(index_shape[:-1]):
        for c in range(tuple_length):
            value = gen.integer(-shape[c], shape[c] - 1)
            indices[position + (c,)] = value % hot[c] if duplicates else value
    slice_shape = shape[tuple_length:]
    data, updates = gen.values(kind, shape), gen.values(kind, index_shape[:-1] + slice_shape)
    output = data.copy()
    for position in np.ndindex(index_shape[:-1]):
        target = tuple(positive(indices[position + (c,)], shape[c]) for c in range(tuple_length))
        for inner in np.ndindex(slice_shape):
            output[target + inner] = combine(kind, reduction, output[target + inner], updates[position + inner])
    opset = scatter_opset(gen, reduction, [11, 13, 16, 18])
    attributes = {"reduction": reduction} if opset >= 16 and (reduction != "none" or gen.rng.random() < 0.5) else {}
    return "ScatterND", opset, [data, indices, updates], output, attributes


def large_scatter(gen, kind, index_type):
    """Many updates into few targets (some hot), rows of 1 to 64 elements: the duplicate-heavy paths.
    Finite inputs only (mul near 1), so numpy's in-order ufunc.at folds give the reference directly."""
    reduction = gen.choice(["add", "add", "mul", "max", "min", "none"])
    if kind == "bool" and reduction in ("max", "min"):  # not defined on bool (ONNX Runtime's CPU kernels)
        reduction = "add" if reduction == "max" else "mul"
    targets = gen.choice([1, 2, 16, 257, 4099, 60000])
    columns = gen.choice([1, 1, 3, 64])
    count = gen.choice([1000, 30000, 200000] if kind != "bfloat16" else [1000, 8000]) // columns
    op_type = gen.choice(["ScatterElements", "ScatterND"])
    shape = (targets,) if columns == 1 and op_type == "ScatterElements" else (targets, columns)
    update_shape = (count,) + shape[1:]
    rows = gen.rng.integers(0, targets, count)
    if gen.rng.random() < 0.5:
        hot = gen.rng.integers(0, targets, 4)
        pick = gen.rng.random(count) < 0.7
        rows[pick] = hot[gen.rng.integers(0, 4, int(pick.sum()))]
    stored = np.where(gen.rng.random(count) < 0.3, rows - targets, rows).astype(index_type)
    if op_type == "ScatterND":
        indices = stored[:, None]
    else:
        indices = np.repeat(stored[:, None], columns, axis=1) if len(shape) == 2 else stored

    def near_one(shape_):
        values = (1 + (gen.rng.random(shape_) - 0.5) * 0.01).astype(np.float32)
        return (values.view(np.uint32) >> 16).astype(np.uint16) if kind == "bfloat16" else values.astype(kind)

    floats = kind in FLOATS or kind == "bfloat16"
    data = near_one(shape) if floats and reduction == "mul" else gen.values(kind, shape, special=False)
    updates = near_one(update_shape) if floats and reduction == "mul" else gen.values(kind, update_shape, special=False)
    output = data.copy()
    if reduction == "none":
        for update, row in enumerate(rows):
            output[row] = updates[update]
    elif kind == "bfloat16":
        for update, row in enumerate(rows):
            for column in np.ndindex(shape[1:]):
                output[(row,) + column] = combine(kind, reduction, output[(row,) + column], updates[(update,) + column])
    else:
        ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[reduction]
        with np.errstate(all="ignore"):
            ufunc.at(output, rows, updates)
    attributes = {"reduction": reduction}
    if op_type == "ScatterElements":
        attributes["axis"] = 0
    return op_type, 18, [data, indices, updates], output, attributes


# --- Writing node tests ---------------------------------------------------------------------------
def tensor(name, kind, values):
    if kind in ("bfloat16", "string"):
        proto = TensorProto(name=name, data_type=ONNX_TYPES[kind], dims=values.shape)
        if kind == "string":
            proto.string_data.extend(text.encode() for text in values.flatten())
        else:
            proto.raw_data = values.astype(np.uint16).tobytes(order="C")
        return proto
    return numpy_helper.from_array(values.copy(order="C"), name)  # (ascontiguousarray turns rank 0 into 1)


def write_case(directory, op_type, opset, inputs, output, attributes, kinds):
    names = ["data", "indices", "updates"][:len(inputs)]
    node = helper.make_node(op_type, names, ["output"], **attributes)
    graph = helper.make_graph(
        [node], op_type,
        [helper.make_tensor_value_info(n, ONNX_TYPES[k], list(v.shape)) for n, k, v in zip(names, kinds, inputs)],
        [helper.make_tensor_value_info("output", ONNX_TYPES[kinds[0]], list(output.shape))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    data_set = os.path.join(directory, "test_data_set_0")
    os.makedirs(data_set, exist_ok=True)
    with open(os.path.join(directory, "model.onnx"), "wb") as file:
        file.write(model.SerializeToString())
    for number, (name, kind, values) in enumerate(zip(names, kinds, inputs)):
        with open(os.path.join(data_set, "input_%d.pb" % number), "wb") as file:
            file.write(tensor(name, kind, values).SerializeToString())
    with open(os.path.join(data_set, "output_0.pb"), "wb") as file:
        file.write(tensor("output", kinds[0], output).SerializeToString())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--small", type=int, default=300, help="random cases of every operator")
    parser.add_argument("--large", type=int, default=8, help="large duplicate-heavy scatters")
    args = parser.parse_args()
    gen = Generator(args.seed)
    makers = [gather, gather_elements, gather_nd, scatter_elements, scatter_nd]
    written = 0
    while written < args.small + args.large:
        large = written >= args.small
        maker = large_scatter if large else gen.choice(makers)
        kinds = ["float32", "float16", "bfloat16", "float64", "int32", "int64", "uint8", "int16", "bool"] if large \
            else list(ONNX_TYPES)
        kind, index_type = gen.choice(kinds), gen.choice(["int32", "int64"])
        case = maker(gen, kind, np.dtype(index_type))
        if case is None:
            continue
        op_type, opset, inputs, output, attributes = case
        if kind == "bfloat16" and opset < 13:  # bfloat16 joins these operators' types at opset 13
            continue
        name = "%04d_%s_%d_%s_%s_%s" % (written, op_type, opset, kind, index_type, attributes.get("reduction", "none"))
        write_case(os.path.join(args.out_dir, name), op_type, opset, inputs, output, attributes,
                   [kind, index_type, kind][:len(inputs)])
        written += 1


if __name__ == "__main__":
    main()
