#!/usr/bin/python3
"""TensorScatter (ONNX opset 24) node tests: ONNX's own cases and random ones with a numpy oracle.

ONNX's own node tests for TensorScatter (onnx/backend/test/case/node/tensorscatter.py: linear,
circular, rank 3) are not in Debian's ONNX 1.12 data; this writes them from the operator's spec with
their published inputs and outputs, then random cases of every type TensorScatter allows (the float8,
4-bit and string types included), both modes, any sequence axis, absent write indices (the input named
""), whose expected outputs come from an oracle written here from ONNX's text (Python integers, so
circular write indices near 2^63 wrap exactly). `vkindex onnx-test` must reproduce every output byte for
byte (4-bit tensors: every element; the padding nibble of an odd count is not an element).

  tensor_scatter_node_tests.py OUT_DIR --seed S --cases N

Needs python3-onnx (1.12 is enough: the newer type codes are written as numbers) and python3-numpy.
Writes OUT_DIR/<case>/model.onnx and test_data_set_0/.
"""
import argparse
import os
import random

import numpy as np
from onnx import TensorProto, helper

# kind -> (TensorProto data type code, bits per element).
KINDS = {
    "bool": (9, 8), "int8": (3, 8), "uint8": (2, 8), "int16": (5, 16), "uint16": (4, 16), "int32": (6, 32),
    "uint32": (12, 32), "int64": (7, 64), "uint64": (13, 64), "float16": (10, 16), "bfloat16": (16, 16),
    "float32": (1, 32), "float64": (11, 64), "complex64": (14, 64), "complex128": (15, 128), "string": (8, 0),
    "float8e4m3fn": (17, 8), "float8e4m3fnuz": (18, 8), "float8e5m2": (19, 8), "float8e5m2fnuz": (20, 8),
    "uint4": (21, 4), "int4": (22, 4), "float4e2m1": (23, 4), "float8e8m0": (24, 8),
}
OPSET = 24
INT64_MAX = 2**63 - 1


# --- The oracle: ONNX's TensorScatter, element rows as numpy arrays ------------------------------------
def tensor_scatter(past, update, writes, axis, mode):
    """present_cache; `past` and `update` are arrays whose leading dims are the tensors' (any trailing
    dim holds an element's bytes), `writes` Python integers (None: all zeros)."""
    present = past.copy()
    max_seq, seq_len = past.shape[axis], update.shape[axis]
    for b in range(past.shape[0]):
        write = 0 if writes is None else writes[b]
        for s in range(seq_len):
            position = (write + s) % max_seq if mode == "circular" else write + s
            prefix = (b,) + (slice(None),) * (axis - 1)
            present[prefix + (position,)] = update[prefix + (s,)]
    return present


# --- Tensors: elements as arrays, written as TensorProtos -------------------------------------------------
def random_elements(rng, kind, shape):
    """The elements of a random tensor: bytes per element in a trailing dim, nibbles for 4-bit kinds,
    0/1 for bool, strings for string."""
    count = int(np.prod(shape)) if shape else 1
    if kind == "string":
        return np.array(["s%d:%s" % (i, "x" * rng.randrange(6)) for i in range(count)], dtype=object).reshape(shape)
    bits = KINDS[kind][1]
    if bits == 4:
        return np.array([rng.randrange(16) for _ in range(count)], dtype=np.uint8).reshape(shape)
    if kind == "bool":
        return np.array([rng.randrange(2) for _ in range(count)], dtype=np.uint8).reshape(tuple(shape) + (1,))
    raw = bytes(rng.randrange(256) for _ in range(count * bits // 8))
    return np.frombuffer(raw, dtype=np.uint8).reshape(tuple(shape) + (bits // 8,)).copy()


def proto(name, kind, elements, shape):
    code, bits = KINDS[kind]
    tensor = TensorProto(name=name, data_type=code, dims=list(shape))
    if kind == "string":
        tensor.string_data.extend(text.encode() for text in elements.flatten())
    elif bits == 4:
        nibbles = list(elements.flatten()) + ([0] if elements.size % 2 else [])
        tensor.raw_data = bytes(nibbles[i] | (nibbles[i + 1] << 4) for i in range(0, len(nibbles), 2))
    else:
        tensor.raw_data = elements.tobytes(order="C")
    return tensor


def write_case(directory, kind, shapes, inputs, output, attributes, with_indices):
    names = ["past_cache", "update", "write_indices"]
    node_inputs = names if with_indices else names[:2] + [""]
    node = helper.make_node("TensorScatter", node_inputs, ["present_cache"], **attributes)
    kinds = [kind, kind, "int64"]
    count = 3 if with_indices else 2
    graph = helper.make_graph(
        [node], "TensorScatter",
        [helper.make_tensor_value_info(names[i], KINDS[kinds[i]][0], list(shapes[i])) for i in range(count)],
        [helper.make_tensor_value_info("present_cache", KINDS[kind][0], list(shapes[0]))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    data_set = os.path.join(directory, "test_data_set_0")
    os.makedirs(data_set, exist_ok=True)
    with open(os.path.join(directory, "model.onnx"), "wb") as file:
        file.write(model.SerializeToString())
    for number in range(count):
        with open(os.path.join(data_set, "input_%d.pb" % number), "wb") as file:
            file.write(proto(names[number], kinds[number], inputs[number], shapes[number]).SerializeToString())
    with open(os.path.join(data_set, "output_0.pb"), "wb") as file:
        file.write(proto("present_cache", kind, output, shapes[0]).SerializeToString())


def int64_elements(values):
    return np.array(values, dtype=np.int64).view(np.uint8).reshape(len(values), 8)


# --- ONNX's own cases (tensorscatter.py), with their published values --------------------------------------
def onnx_case(out_dir, name, past, update, writes, expected, attributes):
    as_bytes = lambda a: np.ascontiguousarray(a, dtype=np.float32).view(np.uint8).reshape(a.shape + (4,))
    assert (tensor_scatter(past, update, writes, 1 if past.ndim == 3 else 2, attributes.get("mode")) == expected).all()
    write_case(os.path.join(out_dir, name), "float32", [past.shape, update.shape, (len(writes),)],
               [as_bytes(past), as_bytes(update), int64_elements(writes)], as_bytes(expected), attributes, True)


def onnx_cases(out_dir):
    rows = [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4], [4, 3, 2, 1, 0]]
    past = np.array([[rows], [rows]], dtype=np.float32)
    onnx_case(out_dir, "test_tensorscatter", past, np.array([[[[5] * 5]], [[[1] * 5]]], dtype=np.float32), [1, 2],
              np.array([[[rows[0], [5] * 5, rows[2], rows[3]]], [[rows[0], rows[1], [1] * 5, rows[3]]]],
                       dtype=np.float32), {"mode": "linear"})
    onnx_case(out_dir, "test_tensorscatter_circular", past,
              np.array([[[[5] * 5, [6] * 5]], [[[1] * 5, [2] * 5]]], dtype=np.float32), [1, 3],
              np.array([[[rows[0], [5] * 5, [6] * 5, rows[3]]], [[[2] * 5, rows[1], rows[2], [1] * 5]]],
                       dtype=np.float32), {"mode": "circular"})
    rows3 = [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4], [5, 4, 3, 2, 1]]
    onnx_case(out_dir, "test_tensorscatter_3d", np.array([rows3] * 3, dtype=np.float32),
              np.array([[[4] * 5, [5] * 5], [[6] * 5, [7] * 5], [[2] * 5, [3] * 5]], dtype=np.float32), [1, 2, 0],
              np.array([[rows3[0], [4] * 5, [5] * 5, rows3[3]], [rows3[0], rows3[1], [6] * 5, [7] * 5],
                        [[2] * 5, [3] * 5, rows3[2], rows3[3]]], dtype=np.float32), {})


# --- Random cases --------------------------------------------------------------------------------------------
def random_case(rng, out_dir, number):
    kind = list(KINDS)[number % len(KINDS)]
    rank = rng.randrange(2, 6)
    axis = rng.randrange(1, rank)
    shape = [rng.randrange(1, 4)] + [rng.choice([1, 2, 3, 5]) for _ in range(rank - 1)]
    shape[axis] = rng.choice([1, 3, 4, 5, 7])
    max_seq = shape[axis]
    seq_len = rng.choice([0, 1, rng.randrange(1, max_seq + 1)])
    update_shape = list(shape)
    update_shape[axis] = seq_len
    mode = rng.choice(["linear", "circular"])
    if mode == "linear":
        writes = [rng.randrange(max_seq - seq_len + 1) for _ in range(shape[0])]
    else:
        writes = [rng.choice([rng.randrange(3 * max_seq + 1), INT64_MAX - rng.randrange(100),
                              2**32 + rng.randrange(100)]) for _ in range(shape[0])]
    with_indices = rng.random() < 0.85
    if not with_indices:
        writes = None
    attributes = {}
    if axis != rank - 2 or rng.random() < 0.5:
        attributes["axis"] = axis - rank if rng.random() < 0.5 else axis
    if mode == "circular" or rng.random() < 0.5:
        attributes["mode"] = mode
    past = random_elements(rng, kind, shape)
    update = random_elements(rng, kind, update_shape)
    output = tensor_scatter(past, update, writes, axis, mode)
    name = "%03d_tensorscatter_%s_%s_axis%d" % (number, kind, mode, axis)
    indices = int64_elements(writes) if writes is not None else None
    write_case(os.path.join(out_dir, name), kind, [shape, update_shape, (shape[0],)], [past, update, indices],
               output, attributes, with_indices)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=72, help="random cases (every type in turn)")
    args = parser.parse_args()
    onnx_cases(args.out_dir)
    rng = random.Random(args.seed)
    for number in range(args.cases):
        random_case(rng, args.out_dir, number)


if __name__ == "__main__":
    main()
