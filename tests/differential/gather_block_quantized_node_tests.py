#!/usr/bin/python3
"""GatherBlockQuantized (com.microsoft, version 1) node tests: ONNX Runtime's own cases as node tests.

ONNX Runtime's test of the operator (onnxruntime/test/contrib_ops/gather_block_quantized_op_test.cc)
runs each case through its OpTester; this writes the same cases, with their published inputs,
attributes and expected outputs, as ONNX node-test directories that `vkindex onnx-test` runs. The
values are transcribed here as data; the packing (4-bit pairs over the whole tensor for int4/uint4,
8 / bits codes per byte along the last axis for uint8, ONNX Runtime's offsets 8, 128 and 2 for the
uint8 codes) follows the test's helpers as its comments describe them. Every expected output is also
checked against an independent dequantizer written here from the operator's definition, so a
mistyped value fails the generator rather than the run.

Each successful integer case is written twice, as ONNX Runtime runs it: indices as a graph input and
as an initializer. The cases ONNX Runtime expects to fail are written with an `expect_error` marker
whose text is a fragment the error message must contain (the check script reads it; the CLI only
looks for the file). Cases left out, and cases whose expectation differs from the test's, say why
where they are listed (ORT_CASES).

  gather_block_quantized_node_tests.py OUT_DIR

Needs python3-onnx (1.12 is enough: the newer type codes are written as numbers) and python3-numpy.
Writes OUT_DIR/<case>/model.onnx, test_data_set_N/ and, for an expected failure, expect_error; prints
the number of cases written.
"""
import argparse
import os

import numpy as np
from onnx import TensorProto, helper

# kind -> (TensorProto data type code, bits per element).
KINDS = {
    "int8": (3, 8), "uint8": (2, 8), "int16": (5, 16), "uint16": (4, 16), "int32": (6, 32), "uint32": (12, 32),
    "int64": (7, 64), "uint64": (13, 64), "float16": (10, 16), "bfloat16": (16, 16), "float32": (1, 32),
    "float8e4m3fn": (17, 8), "float8e4m3fnuz": (18, 8), "float8e5m2": (19, 8), "float8e5m2fnuz": (20, 8),
    "uint4": (21, 4), "int4": (22, 4), "float4e2m1": (23, 4),
}
DOMAIN = "com.microsoft"
DEFAULT_OPSET = 21  # the default domain's import; the node uses only com.microsoft's version 1
NUMPY_INTS = {"int8": np.int8, "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "int32": np.int32,
              "uint32": np.uint32, "int64": np.int64, "uint64": np.uint64}


# --- Float codes: float8 (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ) and float4 E2M1 -----------------------------------
# (exponent bits, mantissa bits, bias, fnuz: one NaN at the negative-zero code, no infinities)
FLOAT_CODES = {"float8e4m3fn": (4, 3, 7, False), "float8e4m3fnuz": (4, 3, 8, True), "float8e5m2": (5, 2, 15, False),
               "float8e5m2fnuz": (5, 2, 16, True), "float4e2m1": (2, 1, 1, False)}


def decode_float_code(kind, code):
    """The value of one float8/float4 bit pattern (NaN and infinities as Python floats)."""
    exponent_bits, mantissa_bits, bias, fnuz = FLOAT_CODES[kind]
    width = 1 + exponent_bits + mantissa_bits
    sign = -1.0 if code >> (width - 1) else 1.0
    exponent = (code >> mantissa_bits) & ((1 << exponent_bits) - 1)
    mantissa = code & ((1 << mantissa_bits) - 1)
    if fnuz and code == 1 << (width - 1):
        return float("nan")
    if kind == "float8e4m3fn" and exponent == 15 and mantissa == 7:
        return float("nan")
    if kind == "float8e5m2" and exponent == 31:
        return sign * float("inf") if mantissa == 0 else float("nan")
    if exponent == 0:
        return sign * mantissa / (1 << mantissa_bits) * 2.0 ** (1 - bias)
    return sign * (1 + mantissa / (1 << mantissa_bits)) * 2.0 ** (exponent - bias)


def encode_float_code(kind, value):
    """The bit pattern of a value the kind represents exactly (the test values all are); +0 for 0."""
    width = 1 + FLOAT_CODES[kind][0] + FLOAT_CODES[kind][1]
    for code in range(1 << width):
        if decode_float_code(kind, code) == value:
            return code
    raise ValueError("%r is not exactly representable as %s" % (value, kind))


# --- The stored codes of ONNX Runtime's test values ---------------------------------------------------------
def ort_codes(kind, values, bits=4):
    """The codes ONNX Runtime's test stores for its signed values: int4 as they are, uint4 plus 8, uint8
    plus 2^(bits-1) (8 for 4 bits, 2 for 2 bits, 128 otherwise, bits 0 included), other integer kinds cast."""
    values = np.asarray(values, dtype=np.int64)
    if kind == "int4":
        return values
    if kind == "uint4":
        return values + 8
    if kind == "uint8":
        return values + (1 << (bits - 1) if bits in (2, 4) else 128)
    return values


def uint8_packed_shape(shape, bits):
    """uint8 data and zero points hold 8 / bits codes per byte along the last axis (bits 2 and 4; any
    other bits leave one code per byte), each row padded to whole bytes."""
    per_byte = 8 // bits if bits in (2, 4) else 1
    return list(shape[:-1]) + [(shape[-1] + per_byte - 1) // per_byte]


def pack_uint8_rows(codes, shape, bits):
    """Packs uint8 codes of logical `shape` along the last axis, the first code in the low bits."""
    per_byte = 8 // bits if bits in (2, 4) else 1
    width = 8 // per_byte
    rows = np.asarray(codes, dtype=np.int64).reshape(-1, shape[-1])
    packed = []
    for row in rows:
        for start in range(0, len(row), per_byte):
            byte = 0
            for lane, code in enumerate(row[start:start + per_byte]):
                byte |= (int(code) & ((1 << width) - 1)) << (width * lane)
            packed.append(byte)
    return bytes(packed)


# --- TensorProtos --------------------------------------------------------------------------------------------
class Tensor:
    """A tensor as the test gives it: its kind, its stored shape and its elements in row-major order
    (codes for the integer and float-code kinds, values for float32, float16 and bfloat16), or for
    packed uint8 data its bytes (`raw`)."""

    def __init__(self, kind, shape, elements, raw=None):
        self.kind, self.shape, self.elements, self.raw = kind, list(shape), list(elements), raw

    def raw_data(self):
        if self.raw is not None:
            return self.raw
        bits = KINDS[self.kind][1]
        if bits == 4:
            nibbles = [int(code) & 0xF for code in self.elements] + ([0] if len(self.elements) % 2 else [])
            return bytes(nibbles[i] | (nibbles[i + 1] << 4) for i in range(0, len(nibbles), 2))
        if self.kind in FLOAT_CODES:
            return bytes(self.elements)
        if self.kind in NUMPY_INTS:
            return np.array(self.elements, dtype=np.int64).astype(NUMPY_INTS[self.kind]).tobytes()
        if self.kind == "bfloat16":
            words = np.array(self.elements, dtype=np.float32).view(np.uint32)
            assert (words & 0xFFFF == 0).all(), "bfloat16 test values are exact"
            return (words >> 16).astype(np.uint16).tobytes()
        return np.array(self.elements, dtype=np.float16 if self.kind == "float16" else np.float32).tobytes()

    def proto(self, name):
        tensor = TensorProto(name=name, data_type=KINDS[self.kind][0], dims=self.shape)
        tensor.raw_data = self.raw_data()
        return tensor


def quantized(kind, values, shape, bits=4):
    """Data or zero points from ONNX Runtime's signed test values: int4/uint4 packed over the whole
    tensor, uint8 packed along the last axis (its stored shape shrinks accordingly), other kinds cast."""
    codes = ort_codes(kind, values, bits)
    assert len(codes) == int(np.prod(shape)), "value count matches the shape"
    if kind == "uint8":
        return Tensor(kind, uint8_packed_shape(shape, bits), [], raw=pack_uint8_rows(codes, shape, bits))
    return Tensor(kind, shape, codes)


def float_codes(kind, values, shape):
    return Tensor(kind, shape, [encode_float_code(kind, float(value)) for value in values])


# --- The oracle: dequantize, then gather (an index out of range gives a zero slice) --------------------------
def unpacked_codes(tensor, logical_shape, bits):
    """Logical code array of a data or zero-points tensor (float kinds: their values)."""
    if tensor.kind in FLOAT_CODES:
        return np.array([decode_float_code(tensor.kind, c) for c in tensor.elements]).reshape(logical_shape)
    if tensor.kind != "uint8" or tensor.raw is None:
        return np.array(tensor.elements, dtype=np.int64).reshape(logical_shape)
    per_byte = 8 // bits if bits in (2, 4) else 1
    width = 8 // per_byte
    rows = np.frombuffer(tensor.raw, dtype=np.uint8).reshape(-1, tensor.shape[-1])
    codes = [[(int(b) >> (width * lane)) & ((1 << width) - 1) for b in row for lane in range(per_byte)]
             for row in rows]
    return np.array([row[:logical_shape[-1]] for row in codes], dtype=np.int64).reshape(logical_shape)


def oracle(case, indices):
    data, scales, zero_points, attrs = case["data"], case["scales"], case.get("zero_points"), case["attributes"]
    bits = attrs.get("bits", 4)
    per_byte = 8 // bits if data.kind == "uint8" and bits in (2, 4) else 1
    shape = data.shape[:-1] + [data.shape[-1] * per_byte]
    rank = len(shape)
    gather_axis = attrs.get("gather_axis", 0) % rank
    quantize_axis = attrs.get("quantize_axis", 1) % rank
    block = attrs.get("block_size", 128) or max(shape[quantize_axis], 1)
    codes = unpacked_codes(data, shape, bits).astype(np.float64)
    scale = np.array(scales.elements, dtype=np.float64).reshape(scales.shape)
    blocks = np.arange(shape[quantize_axis]) // block
    scale = np.broadcast_to(np.take(scale, blocks, axis=quantize_axis), shape)
    if data.kind in FLOAT_CODES:
        offset = 0
    elif zero_points is None:
        offset = 1 << (bits - 1) if data.kind == "uint8" else 0
    else:
        offset = np.take(unpacked_codes(zero_points, scales.shape, bits), blocks, axis=quantize_axis)
    table = (codes - offset) * scale
    index = np.array(indices.elements, dtype=np.int64).reshape(indices.shape)
    count = shape[gather_axis]
    inside = (index >= -count) & (index < count)
    rows = np.take(table, np.where(inside, index % max(count, 1), 0), axis=gather_axis) if count else \
        np.zeros(shape[:gather_axis] + list(index.shape) + shape[gather_axis + 1:])
    mask = inside.reshape((1,) * gather_axis + index.shape + (1,) * (rank - gather_axis - 1))
    return np.where(mask, rows, 0.0)


# --- Writing a case -------------------------------------------------------------------------------------------
INPUT_NAMES = ["data", "indices", "scales", "zero_points"]


def write_case(out_dir, name, case):
    """case: data, indices (a list: one per data set), scales, optional zero_points, attributes, outputs
    (one per data set, values), optional initializers (input names), optional error (a message fragment)."""
    directory = os.path.join(out_dir, name)
    inputs = {"data": case["data"], "indices": case["indices"][0], "scales": case["scales"]}
    if case.get("zero_points") is not None:
        inputs["zero_points"] = case["zero_points"]
    names = [n for n in INPUT_NAMES if n in inputs]
    initializers = case.get("initializers", set())
    scale_kind = case["scales"].kind
    outputs = []
    for indices, values in zip(case["indices"], case["outputs"]):
        values = np.asarray(values, dtype=np.float64)
        if "error" not in case:
            got = oracle(case, indices)
            assert got.shape == values.shape and (got == values).all(), "%s: oracle %s != %s" % (name, got, values)
        outputs.append(Tensor(scale_kind, values.shape, values.flatten()))
    node = helper.make_node("GatherBlockQuantized", names, ["output"], domain=DOMAIN, **case["attributes"])
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info(n, KINDS[inputs[n].kind][0], inputs[n].shape)
                       for n in names if n not in initializers],
        [helper.make_tensor_value_info("output", KINDS[scale_kind][0], outputs[0].shape)],
        initializer=[inputs[n].proto(n) for n in names if n in initializers])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", DEFAULT_OPSET),
                                                    helper.make_opsetid(DOMAIN, 1)])
    os.makedirs(directory)
    with open(os.path.join(directory, "model.onnx"), "wb") as file:
        file.write(model.SerializeToString())
    for number, (indices, output) in enumerate(zip(case["indices"], outputs)):
        data_set = os.path.join(directory, "test_data_set_%d" % number)
        os.makedirs(data_set)
        files = [n for n in names if n not in initializers]
        for slot, input_name in enumerate(files):
            tensor = indices if input_name == "indices" else inputs[input_name]
            with open(os.path.join(data_set, "input_%d.pb" % slot), "wb") as file:
                file.write(tensor.proto(input_name).SerializeToString())
        with open(os.path.join(data_set, "output_0.pb"), "wb") as file:
            file.write(output.proto("output").SerializeToString())
    if "error" in case:
        with open(os.path.join(directory, "expect_error"), "w") as file:
            file.write(case["error"] + "\n")


# --- ONNX Runtime's test values ------------------------------------------------------------------------------
# The 2x3x4 table most cases share (signed 4-bit values), its 2x3x1 scales and zero points.
TABLE_24 = [-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, -4, -3, -2, -1]
SCALES_231 = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]
ZERO_POINTS_231 = [-1, 1, 0, 0, 1, -1]
OUTPUT_WITH_ZERO_POINTS = [8, 10, 12, 14, 3, 4, 5, 6, -6, -4, -2, 0]  # index 1, with ZERO_POINTS_231
OUTPUT_NO_ZERO_POINTS = [8, 10, 12, 14, 4, 5, 6, 7, -8, -6, -4, -2]  # index 1, no zero points


def repeat_rows(patterns, times, tail):
    """Rows of `pattern` * times followed by its `tail` values, flattened."""
    return [v for pattern, extra in zip(patterns, tail) for v in pattern * times + extra]


ROWS_4 = [[-8, -7, -6, -5], [-4, -3, -2, -1], [0, 1, 2, 3], [4, 5, 6, 7], [4, 5, 6, 7], [-4, -3, -2, -1]]
TABLE_2x3x17 = repeat_rows(ROWS_4, 4, [[-8], [-4], [0], [4], [4], [-4]])
TABLE_2x3x18 = repeat_rows(ROWS_4, 4, [[-8, 0], [-4, 0], [0, 0], [4, 0], [4, 0], [-4, 0]])
TABLE_2x3x16 = repeat_rows(ROWS_4, 4, [[]] * 6)
SCALES_232 = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 2.0, 1.0]
ZERO_POINTS_232 = [-1, 1, 0, 0, 1, -1, 1, -1, 1, 0, -1, 1]
OUT_ROWS = [[6, 8, 10, 12], [3, 4, 5, 6], [-6, -4, -2, 0]]
OUTPUT_1x3x17 = repeat_rows(OUT_ROWS, 4, [[10], [4], [-5]])
OUTPUT_1x3x18 = repeat_rows(OUT_ROWS, 4, [[10, 2], [4, 0], [-5, -1]])
ROWS_2BIT = [[-2, -1, 0, 1], [1, 0, -1, -2], [0, 1, -2, -1], [-1, -2, 1, 0], [1] * 4, [-2] * 4]
TABLE_2BIT = repeat_rows(ROWS_2BIT, 4, [[]] * 6)


def index_tensor(kind, values, shape=None):
    return Tensor(kind, [len(values)] if shape is None else shape, values)


def integer_case(t1, t2, tind, data, data_shape, indices, indices_shape, scales, scales_shape, zero_points,
                 attributes, output, output_shape, error=None):
    """A case built as ONNX Runtime's RunUnpackedData builds it from signed values."""
    bits = attributes.get("bits", 4)
    case = {"data": quantized(t1, data, data_shape, bits),
            "indices": [index_tensor(tind, indices, indices_shape)],
            "scales": Tensor(t2, scales_shape, scales),
            "zero_points": quantized(t1, zero_points, scales_shape, bits) if zero_points else None,
            "attributes": attributes,
            "outputs": [np.array(output, dtype=np.float64).reshape(output_shape)]}
    if error is not None:
        case["error"] = error
    return case


def attrs(gather_axis, quantize_axis, block_size, bits=4):
    return {"gather_axis": gather_axis, "quantize_axis": quantize_axis, "block_size": block_size, "bits": bits}


FAIL = "GatherBlockQuantized: "


def fail_case(t1, t2, tind, gather_axis, quantize_axis, block_size, bits, error, zero_points=True):
    """Test_Fail_WithZeroPoints / Test_Fail_WithoutZeroPoints: the 2x3x4 table, index 1."""
    return integer_case(t1, t2, tind, TABLE_24, [2, 3, 4], [1], [1], SCALES_231, [2, 3, 1],
                        ZERO_POINTS_231 if zero_points else [], attrs(gather_axis, quantize_axis, block_size, bits),
                        OUTPUT_WITH_ZERO_POINTS, [1, 3, 4], error)


def error_cases():
    """The cases ONNX Runtime expects to fail, with the fragment vkindex's message must contain."""
    cases = []
    # UnsupportedTypes. Its uint4 and int4 data with bfloat16 scales are not here but in
    # bfloat16_scale_cases: ONNX Runtime's CPU kernel has no bfloat16 path, while the schema's T2 and
    # vkindex take bfloat16.
    for t1 in ["int8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]:
        cases.append(("UnsupportedTypes_%s_float_int32" % t1,
                      fail_case(t1, "float32", "int32", 0, 2, 16, 4, FAIL + "input 'data' has type " + t1)))
    for t1 in ["uint4", "int4"]:
        cases.append(("UnsupportedTypes_%s_float_int16" % t1,
                      fail_case(t1, "float32", "int16", 0, 2, 16, 4, FAIL + "input 'indices' has type int16")))
    cases.append(("UnsupportedTypes_uint8_float_int16",
                  fail_case("uint8", "float32", "int16", 0, 2, 16, 4, FAIL + "input 'indices' has type int16")))
    # UnsupportedUInt8DataType: gather_axis 1 with uint8 data (int16 indices are refused as well).
    cases.append(("UnsupportedUInt8DataType_int32",
                  fail_case("uint8", "float32", "int32", 1, 2, 16, 4, FAIL + "attribute 'gather_axis'", False)))
    cases.append(("UnsupportedUInt8DataType_int16",
                  fail_case("uint8", "float32", "int16", 1, 2, 16, 4, FAIL, False)))
    for t1, block_size in [("uint4", 8), ("int4", 17), ("uint8", 17)]:
        cases.append(("InvalidBlockSize_%s_%d" % (t1, block_size),
                      fail_case(t1, "float32", "int32", 0, 2, block_size, 4, FAIL + "attribute 'block_size'")))
    for t1, axis in [("uint4", 3), ("int4", -4), ("uint8", -4)]:
        cases.append(("InvalidGatherAxis_%s_%d" % (t1, axis),
                      fail_case(t1, "float32", "int32", axis, 2, 16, 4, FAIL + "attribute 'gather_axis'")))
    for t1, axis in [("uint4", 3), ("int4", -4), ("uint8", -4)]:
        cases.append(("InvalidQuantizeAxis_%s_%d" % (t1, axis),
                      fail_case(t1, "float32", "int32", 0, axis, 16, 4, FAIL + "attribute 'quantize_axis'")))
    for t1, bits in [("uint8", 0)] + [("uint4", b) for b in [0, 1, 2, 3, 5, 6, 7]]:
        cases.append(("NotSupportedBits_%s_%d" % (t1, bits),
                      fail_case(t1, "float32", "int32", 0, 2, 16, bits, FAIL + "attribute 'bits'")))
    # ShapeMismatch: 2x2x1 scales for the 2x3x4 table.
    for t1 in ["uint4", "int4", "uint8"]:
        cases.append(("ShapeMismatch_%s" % t1,
                      integer_case(t1, "float32", "int32", TABLE_24, [2, 3, 4], [1], [1], [1.0, 2.0, 1.0, 2.0],
                                   [2, 2, 1], [-1, 1, 0, 0], attrs(0, 2, 16), OUTPUT_WITH_ZERO_POINTS, [1, 3, 4],
                                   FAIL + "input 'scales' has shape")))
    # FpInvalidBlockSizeThrows
    cases.append(("FpInvalidBlockSizeThrows", {
        "data": float_codes("float8e4m3fn", [1, 2], [1, 2]), "indices": [index_tensor("int64", [0])],
        "scales": Tensor("float32", [1, 1], [1.0]),
        "attributes": {"gather_axis": 0, "quantize_axis": 1, "block_size": 8},
        "outputs": [np.array([[1.0, 2.0]])], "error": FAIL + "attribute 'block_size'"}))
    return cases


# The type combinations ONNX Runtime's TESTs instantiate its templates with: (T1, T2, Tind).
INT4_COMBOS = [(t1, t2, tind) for tind in ["int32", "int64"] for t2 in ["float32", "float16"]
               for t1 in ["uint4", "int4"]]
UINT8_COMBOS = [("uint8", t2, tind) for tind in ["int32", "int64"] for t2 in ["float32", "float16"]]


def with_negative_axes(name, build, axes, negative_axes):
    """A template ONNX Runtime runs with its axes as given and again as negative numbers."""
    return [(name, build(*axes)), (name + "_negative_axes", build(*negative_axes))]


def invalid_index_cases():
    """InvalidIndices, and the CUDA-only InvalidIndicesZeroFillCuda and NegativeInvalidIndicesZeroFillCuda
    (the same template; the CPU test expects the same): an index outside [-2, 1] gives a zero slice."""
    cases = []
    for test, index, combos in [("InvalidIndices", 2, [("uint4", "int32"), ("int4", "int32"), ("uint8", "int32"),
                                                       ("uint4", "int64")]),
                                ("NegativeInvalidIndices", -3, [("uint4", "int32"), ("uint4", "int64"),
                                                                ("uint8", "int32")])]:
        for t1, tind in combos:
            cases.append(("%s_%s_float_%s" % (test, t1, tind),
                          integer_case(t1, "float32", tind, TABLE_24, [2, 3, 4], [index], [1], SCALES_231, [2, 3, 1],
                                       ZERO_POINTS_231, attrs(0, 2, 16), [0] * 12, [1, 3, 4])))
    return cases


def int4_cases(t1, t2, tind):
    """GatherAxis0WithZeroPoints, GatherAxis1, GatherAxis2 and the CUDA-only
    GatherAxisWithZeroPointsNoPading (the CPU kernel computes the same) for one of INT4_COMBOS."""
    suffix = "_%s_%s_%s" % (t1, t2, tind)
    cases = with_negative_axes(
        "GatherAxis0WithZeroPoints" + suffix,
        lambda g, q: integer_case(t1, t2, tind, TABLE_2x3x17, [2, 3, 17], [1], [1], SCALES_232, [2, 3, 2],
                                  ZERO_POINTS_232, attrs(g, q, 16), OUTPUT_1x3x17, [1, 3, 17]), (0, 2), (-3, -1))
    cases += with_negative_axes(
        "GatherAxis1" + suffix,
        lambda g, q: integer_case(t1, t2, tind, TABLE_24, [2, 3, 4], [2, -3, 2], [1, 3], [1.0, 2.0] * 4, [2, 1, 4],
                                  [-1, 1, 0, 0, 1, -1, 0, 0], attrs(g, q, 16),
                                  [1, 0, 2, 6, -7, -16, -6, -10, 1, 0, 2, 6, -5, -4, -2, -2, 3, 12, 6, 14,
                                   -5, -4, -2, -2], [2, 1, 3, 4]), (1, 1), (-2, -2))
    cases += with_negative_axes(
        "GatherAxis2" + suffix,
        lambda g, q: integer_case(t1, t2, tind, TABLE_24, [2, 3, 4], [-2, 0], [2, 1], [1.0, 2.0] * 6, [1, 3, 4],
                                  [-1, 1, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1], attrs(g, q, 16),
                                  [-6, -7, -2, -5, 1, 0, 6, 5, 6, 3, -3, -4], [2, 3, 2, 1]), (2, 0), (-1, -3))
    cases.append(("GatherAxisWithZeroPointsNoPading" + suffix,
                  integer_case(t1, t2, tind, TABLE_2x3x16, [2, 3, 16], [1], [1], SCALES_231, [2, 3, 1],
                               ZERO_POINTS_231, attrs(0, 2, 16),
                               repeat_rows([[8, 10, 12, 14], [3, 4, 5, 6], [-6, -4, -2, 0]], 4, [[]] * 3),
                               [1, 3, 16])))
    return cases


def gather_axis0_cases():
    """GatherAxis0NoZeroPoints (int4), GatherAxis0WithZeroPoints_4Bits/_8Bits and
    GatherAxis0NoZeroPoints_4Bits/_8Bits (uint8), each with its axes negative too."""
    cases = []
    for t2, tind in [("float32", "int32"), ("float16", "int32"), ("float32", "int64"), ("float16", "int64")]:
        cases += with_negative_axes(
            "GatherAxis0NoZeroPoints_int4_%s_%s" % (t2, tind),
            lambda g, q: integer_case("int4", t2, tind, TABLE_24, [2, 3, 4], [1], [1], SCALES_231, [2, 3, 1], [],
                                      attrs(g, q, 16), OUTPUT_NO_ZERO_POINTS, [1, 3, 4]), (0, 2), (-3, -1))
    for bits in [4, 8]:
        for t2, tind in [("float32", "int32"), ("float16", "int64")]:
            cases += with_negative_axes(
                "GatherAxis0WithZeroPoints_%dBits_uint8_%s_%s" % (bits, t2, tind),
                lambda g, q: integer_case("uint8", t2, tind, TABLE_2x3x18, [2, 3, 18], [1], [1], SCALES_232,
                                          [2, 3, 2], ZERO_POINTS_232, attrs(g, q, 16, bits), OUTPUT_1x3x18,
                                          [1, 3, 18]), (0, 2), (-3, -1))
    for bits, combos in [(4, [("float32", "int32"), ("float16", "int32"), ("float32", "int64"), ("float16", "int64")]),
                         (8, [("float32", "int64"), ("float16", "int64")])]:
        for t2, tind in combos:
            cases += with_negative_axes(
                "GatherAxis0NoZeroPoints_%dBits_uint8_%s_%s" % (bits, t2, tind),
                lambda g, q: integer_case("uint8", t2, tind, TABLE_24, [2, 3, 4], [1], [1], SCALES_231, [2, 3, 1],
                                          [], attrs(g, q, 16, bits), OUTPUT_NO_ZERO_POINTS, [1, 3, 4]),
                (0, 2), (-3, -1))
    return cases


def two_bit_cases():
    """The uint8 cases of 2-bit codes (default zero point 2)."""
    cases = [("GatherAxis0NoZeroPoints_2Bits_Uint8",
              integer_case("uint8", "float32", "int32", TABLE_2BIT, [2, 3, 16], [1], [1], SCALES_231, [2, 3, 1], [],
                           attrs(0, 2, 16, 2), [-2, -4, 2, 0] * 4 + [1] * 16 + [-4] * 16, [1, 3, 16]))]
    # Zero points whose rows (5 blocks) do not fill whole bytes at 4 per byte. ONNX Runtime's WebGPU
    # companion of this case stores the same bytes (its padding lanes are -2, code 0): not repeated; nor is
    # WebGpu_GatherAxis0NoZeroPoints_2Bits_Uint8, the case above for WebGPU.
    cases.append(("GatherAxis0WithZeroPoints_2Bits_Uint8_PackedZpNotMultipleOf4",
                  integer_case("uint8", "float32", "int32", [0] * 160, [2, 80], [1], [1], [1.0] * 10, [2, 5],
                               [-2, 1, 0, -1, 1, 1, 0, -1, -2, 0], attrs(0, 1, 16, 2),
                               [v for v in [-1, 0, 1, 2, 0] for _ in range(16)], [1, 80])))
    for tind in ["int32", "int64"]:  # WebGpu_InvalidIndices_2Bits_Uint8 (WebGPU-only)
        cases.append(("WebGpu_InvalidIndices_2Bits_Uint8_" + tind,
                      integer_case("uint8", "float32", tind, TABLE_2BIT, [2, 3, 16], [2, -3], [2], SCALES_231,
                                   [2, 3, 1], [], attrs(0, 2, 16, 2), [0] * 96, [2, 3, 16])))
    return cases


def accelerator_only_cases():
    """ONNX Runtime's CUDA- and WebGPU-only cases whose expectations are the CPU kernel's too."""
    # GatherAxis0NoZeroPoints_4Bits_Cuda: 0xAA bytes are codes 10, 10 (the value 2 with the default zero
    # point 8), block 32 over 32 codes.
    cases = [("GatherAxis0NoZeroPoints_4Bits_Cuda_uint8_float_int64",
              integer_case("uint8", "float32", "int64", [2] * 64, [2, 32], [0, 1], [2], [0.5, 0.25], [2, 1], [],
                           attrs(0, 1, 32), [1.0] * 32 + [0.5] * 32, [2, 32]))]
    # WebGpu_EmptyIndices_8Bits_Uint8: an empty indices tensor gives an empty output.
    cases.append(("WebGpu_EmptyIndices_8Bits_Uint8",
                  integer_case("uint8", "float32", "int32", [0] * 32, [2, 16], [], [0], [1.0, 2.0], [2, 1], [],
                               attrs(0, 1, 16, 8), [], [0, 16])))
    # GatherAxis0_QuantizedAxis1_Uint8_8Bits_WithZeroPoints. Its 4-bit sibling is left out: its expected
    # output ignores the zero point ("CUDA doesn't subtract zero point", the test says), which ONNX
    # Runtime's CPU kernel, the reference here, subtracts.
    for t1, t2, tind in UINT8_COMBOS:
        cases.append(("GatherAxis0_QuantizedAxis1_Uint8_8Bits_WithZeroPoints_%s_%s" % (t2, tind),
                      integer_case(t1, t2, tind, list(range(-128, -112)) + list(range(16)), [2, 16], [1], [1],
                                   [1.0, 2.0], [2, 1], [10, -5], attrs(0, 1, 16, 8), list(range(10, 41, 2)), [1, 16])))
    # GatherAxisNoPadingUInt8_4Bits and GatherAxisNoPadingUInt8 (8 bits), index 0.
    rows_4 = [[-8, -7, -6, -5]] * 2 + [[0, 1, 2, 3]] * 2 + [[7, 6, 5, 4]] * 2
    table_4 = repeat_rows(rows_4, 4, [[]] * 6)
    output_4 = repeat_rows([[-8, -7, -6, -5], [-16, -14, -12, -10], [0, 1, 2, 3]], 4, [[]] * 3)
    down, up = list(range(127, 111, -1)), list(range(16))
    table_8, output_8 = down * 2 + up * 2 + down * 2, down + [2 * v for v in down] + up
    for name, bits, table, output in [("GatherAxisNoPadingUInt8_4Bits", 4, table_4, output_4),
                                      ("GatherAxisNoPadingUInt8", 8, table_8, output_8)]:
        for t1, t2, tind in UINT8_COMBOS:
            cases.append(("%s_%s_%s" % (name, t2, tind),
                          integer_case(t1, t2, tind, table, [2, 3, 16], [0], [1], SCALES_231, [2, 3, 1], [],
                                       attrs(0, 2, 16, bits), output, [1, 3, 16])))
    # CudaIntegerDefaults: only 'bits' given, so gather_axis 0, quantize_axis 1 and block_size 128 are the
    # defaults; uint4 codes 1 (the test's UInt4x2(1, 1)), zero point 0.
    cases.append(("CudaIntegerDefaults", {
        "data": Tensor("uint4", [1, 128], [1] * 128), "indices": [index_tensor("int64", [0])],
        "scales": Tensor("float32", [1, 1], [1.0]), "attributes": {"bits": 4},
        "outputs": [np.ones((1, 128))]}))
    return cases


def integer_success_cases():
    cases = invalid_index_cases()
    for t1, t2, tind in INT4_COMBOS:
        cases += int4_cases(t1, t2, tind)
    return cases + gather_axis0_cases() + two_bit_cases() + accelerator_only_cases()


def bfloat16_scale_cases():
    """UnsupportedTypes' uint4 and int4 data with bfloat16 scales: ONNX Runtime's CPU kernel has no
    bfloat16 output (its test expects a failure), but the schema's T2 has bfloat16 and vkindex takes it,
    so these are written as passing cases with the output the test lists (exact in bfloat16)."""
    return [("UnsupportedTypes_%s_bfloat16_int32_vkindex_accepts" % t1,
             fail_case(t1, "bfloat16", "int32", 0, 2, 16, 4, None)) for t1 in ["uint4", "int4"]]


def fp_case(kind, data_values, data_shape, tind, indices, scale_kind, scales, scales_shape, attributes, output,
            output_shape, data_initializer=True):
    case = {"data": float_codes(kind, data_values, data_shape),
            "indices": [index_tensor(tind, indices)],
            "scales": Tensor(scale_kind, scales_shape, scales), "attributes": attributes,
            "outputs": [np.array(output, dtype=np.float64).reshape(output_shape)]}
    if data_initializer:  # AddInput(..., is_initializer = true), as the test gives it
        case["initializers"] = {"data"}
    return case


FP_TABLE = [1, 2, 4, 8, -1, -2, -4, -8, 1, 1, 1, 1, 2, 2, 2, 2]
FP_ATTRS = {"gather_axis": 0, "quantize_axis": 1, "block_size": 0}
FP4_TABLE = [1, 2, 4, 6, -1, -2, -4, -6, 0.5, 1, 2, 4, 6, -0.5, 0, 0]  # Fp4OddRowsStartOnHighNibble's 8 pairs


def float_code_cases():
    e4m3 = "float8e4m3fn"
    cases = [
        ("FpBasicPerRowScale", fp_case(e4m3, FP_TABLE, [4, 4], "int64", [1, 3], "float32", [1.0, 0.5, 2.0, 3.0],
                                       [4, 1], FP_ATTRS, [-0.5, -1, -2, -4, 6, 6, 6, 6], [2, 4])),
        ("FpGlobalPerTensorScale", fp_case(e4m3, FP_TABLE, [4, 4], "int64", [1, 3], "float32", [0.5], [1, 1],
                                           FP_ATTRS, [-0.5, -1, -2, -4, 1, 1, 1, 1], [2, 4])),
        ("FpEmptyTrailingDimension", fp_case(e4m3, [], [2, 3, 0], "int64", [0], "float32", [], [2, 3, 0],
                                             {"gather_axis": 1, "quantize_axis": 2, "block_size": 0}, [], [2, 1, 0])),
        ("FpSubRowBlockScale", fp_case(e4m3, [1] * 16 + [4] * 16, [1, 32], "int64", [0], "float32", [1.0, 0.5],
                                       [1, 2], {"gather_axis": 0, "quantize_axis": 1, "block_size": 16},
                                       [1] * 16 + [2] * 16, [1, 32])),
        ("FpFloat16Output", fp_case(e4m3, [1, 2, 4, 8], [2, 2], "int32", [0, 1], "float16", [1.0, 2.0], [2, 1],
                                    FP_ATTRS, [1, 2, 8, 16], [2, 2])),
        # The CUDA-only ones: their expectations are the CPU kernel's too.
        ("FpFallbackWithPrepackingDisabledCuda", fp_case(e4m3, [1, 2, 3, 4], [2, 2], "int32", [1, 0], "float32",
                                                         [2.0, 0.5], [2, 1], FP_ATTRS, [1.5, 2, 2, 4], [2, 2])),
        ("FpDirectHostPageableCuda", fp_case(e4m3, [1, 2, 3, 4], [2, 2], "int64", [-1, 0, 1], "float16", [2.0, 0.5],
                                             [2, 1], FP_ATTRS, [1.5, 2, 2, 4, 1.5, 2], [3, 2])),
        ("FpBFloat16OutputCuda", fp_case(e4m3, [1, 2], [1, 2], "int64", [0], "bfloat16", [2.0], [1, 1], FP_ATTRS,
                                         [2, 4], [1, 2], False)),
        ("FpNegativeAxesCuda", fp_case(e4m3, [1, 2], [1, 2], "int64", [0], "float32", [2.0], [1, 1],
                                       {"gather_axis": -2, "quantize_axis": -1, "block_size": 0}, [2, 4], [1, 2],
                                       False)),
        ("FpEmptyIndicesCuda", fp_case(e4m3, [1, 2], [1, 2], "int64", [], "float32", [1.0], [1, 1], FP_ATTRS, [],
                                       [0, 2], False)),
        ("FpRank3NonLeadingGatherAxisDifferentQuantizeAxis",
         fp_case(e4m3, [1] * 24, [2, 3, 4], "int64", [0, 2], "float32", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3, 1],
                 {"gather_axis": 1, "quantize_axis": 2, "block_size": 0},
                 [1] * 4 + [3] * 4 + [4] * 4 + [6] * 4, [2, 2, 4])),
        ("FpValidNegativeIndices", fp_case(e4m3, FP_TABLE, [4, 4], "int64", [-3, -1], "float32",
                                           [1.0, 0.5, 2.0, 3.0], [4, 1], FP_ATTRS,
                                           [-0.5, -1, -2, -4, 6, 6, 6, 6], [2, 4])),
        ("FpInvalidOutOfRangeIndexZeroFills", fp_case(e4m3, FP_TABLE, [4, 4], "int64", [4], "float32",
                                                      [1.0, 0.5, 2.0, 3.0], [4, 1], FP_ATTRS, [0, 0, 0, 0], [1, 4])),
        ("Fp4BasicPerRowScale", fp_case("float4e2m1", FP4_TABLE[:8], [2, 4], "int64", [0, 1], "float32",
                                        [1.0, 0.5], [2, 1], FP_ATTRS, [1, 2, 4, 6, -0.5, -1, -2, -3], [2, 4])),
        ("Fp4OddLogicalDimension", fp_case("float4e2m1", [1, 2, 4, 6, -1], [1, 5], "int64", [0], "float32", [1.0],
                                           [1, 1], FP_ATTRS, [1, 2, 4, 6, -1], [1, 5])),
        ("Fp4OddRowsStartOnHighNibble", fp_case("float4e2m1", FP4_TABLE[:15], [3, 5], "int64", [1], "float32",
                                                [1.0, 0.5, 2.0], [3, 1], FP_ATTRS, [-1, -2, -3, 0.25, 0.5],
                                                [1, 5])),
    ]
    # FpDirectHostPageableCudaGraph (CUDA-only): one model, run with indices [0, 2] and then [3, 1].
    graph_case = fp_case(e4m3, [1, 2, 3, 4, 5, 6, 7, 8], [4, 2], "int64", [0, 2], "float32",
                         [1.0, 0.5, 2.0, 0.25], [4, 1], FP_ATTRS, [1, 2, 10, 12], [2, 2])
    graph_case["indices"].append(index_tensor("int64", [3, 1]))
    graph_case["outputs"].append(np.array([[1.75, 2.0], [1.5, 2.0]]))
    cases.append(("FpDirectHostPageableCudaGraph", graph_case))
    # Not in ONNX Runtime's test: FpBasicPerRowScale's table as the other float8 kinds its CPU kernel
    # registers (every value is exact in each).
    for kind in ["float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz"]:
        cases.append(("FpBasicPerRowScale_as_" + kind,
                      fp_case(kind, FP_TABLE, [4, 4], "int64", [1, 3], "float32", [1.0, 0.5, 2.0, 3.0], [4, 1],
                              FP_ATTRS, [-0.5, -1, -2, -4, 6, 6, 6, 6], [2, 4])))
    return cases


def all_cases():
    """(name, case) for every case, the integer successes twice (indices as an initializer the second
    time, as ONNX Runtime's RunGatherBlockQuantized does)."""
    cases = []
    for name, case in integer_success_cases() + bfloat16_scale_cases():
        cases.append((name, case))
        cases.append((name + "_indices_initializer", dict(case, initializers={"indices"})))
    return cases + float_code_cases() + error_cases()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    args = parser.parse_args()
    cases = all_cases()
    for number, (name, case) in enumerate(cases):
        write_case(args.out_dir, "%03d_%s" % (number, name), case)
    print(len(cases))


if __name__ == "__main__":
    main()
