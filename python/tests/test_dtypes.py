"""Every element type through every operator (docs/python.md "Types"): the numpy types as they are,
strings as str/bytes/object arrays (results: object arrays of str), bfloat16 as uint16 bits, the
float8 and 4-bit types refused by the operators other than TensorScatter (and GatherBlockQuantized)."""
import numpy as np
import pytest

import reference as ref
import vkindex

NUMERIC = [k for k in ref.CLASSIC if k != "bool"]
REAL = [k for k in NUMERIC if not k.startswith("complex")]


def all_ops(rng, data, kind, extra):
    """Runs the five operators on `data` (shape (4, 5)) and checks each against the reference."""
    shape = data.shape
    indices = ref.random_indices(rng, (3, 2), shape[1])
    ref.assert_same(vkindex.gather(data, indices, 1, **extra), ref.gather(data, indices, 1))
    element_indices = ref.random_indices(rng, (3, 7), shape[1])
    ref.assert_same(vkindex.gather_elements(data, element_indices, 1, **extra),
                    ref.gather_elements(data, element_indices, 1))
    nd_indices = np.stack([ref.random_indices(rng, (6,), shape[0]), ref.random_indices(rng, (6,), shape[1])], -1)
    ref.assert_same(vkindex.gather_nd(data, nd_indices, **extra), ref.gather_nd(data, nd_indices))
    nd_rows = ref.random_indices(rng, (2, 1), shape[0], np.int32)
    ref.assert_same(vkindex.gather_nd(data, nd_rows, **extra), ref.gather_nd(data, nd_rows))
    updates = ref.random_values(rng, kind, (3, 7)) if kind != "bfloat16" else ref.random_values(rng, "uint16", (3, 7))
    got = vkindex.scatter_elements(data, element_indices, updates, 1, **extra)
    ref.assert_same(got, ref.scatter_elements(data, element_indices, updates, 1, kind=kind))
    row_updates = ref.random_values(rng, kind if kind != "bfloat16" else "uint16", (2, shape[1]))
    got = vkindex.scatter_nd(data, nd_rows, row_updates, **extra)
    ref.assert_same(got, ref.scatter_nd(data, nd_rows, row_updates, kind=kind))


@pytest.mark.parametrize("kind", ref.CLASSIC)
def test_every_numpy_type_moves_bit_exactly(rng, kind):
    data = ref.random_values(rng, kind, (4, 5))  # every bit pattern: NaN payloads, subnormals
    all_ops(rng, data, kind, {})


def test_bfloat16_moves_bit_exactly(rng):
    data = ref.random_values(rng, "uint16", (4, 5))
    all_ops(rng, data, "bfloat16", {"dtype": "bfloat16"})


# max and min are not defined for complex (test_errors checks the refusal)
REDUCTION_CASES = [(kind, reduction) for kind in NUMERIC + ["bfloat16"] for reduction in ["add", "mul", "max", "min"]
                   if not (kind.startswith("complex") and reduction in ("max", "min"))]


@pytest.mark.parametrize("kind,reduction", REDUCTION_CASES)
def test_reductions_every_numeric_type(rng, kind, reduction):
    if kind == "bfloat16":
        def draw(shape):
            return ref.f32_array_to_bf16((rng.standard_normal(shape) * 4).astype(np.float32))
        extra = {"dtype": "bfloat16"}
    elif kind.startswith("float") or kind.startswith("complex"):
        def draw(shape):
            values = rng.standard_normal(shape) * 4
            if kind.startswith("complex"):
                values = values + 1j * rng.standard_normal(shape)
            return values.astype(kind)
        extra = {}
    else:
        def draw(shape):
            return ref.random_values(rng, kind, shape)
        extra = {}
    data = draw((3, 4))
    indices = ref.random_indices(rng, (9, 4), 3)  # three updates per target on average
    updates = draw((9, 4))
    got = vkindex.scatter_elements(data, indices, updates, 0, reduction, **extra)
    ref.assert_same(got, ref.scatter_elements(data, indices, updates, 0, reduction, kind=kind))
    rows = ref.random_indices(rng, (8, 1), 3)
    row_updates = draw((8, 4))
    got = vkindex.scatter_nd(data, rows, row_updates, reduction, **extra)
    ref.assert_same(got, ref.scatter_nd(data, rows, row_updates, reduction, kind=kind))


@pytest.mark.parametrize("reduction", ["add", "mul"])
def test_bool_add_is_or_mul_is_and(reduction):
    data = np.array([False, False, True, True])
    indices = np.array([0, 1, 2, 3, 1, 3])
    updates = np.array([False, True, False, True, False, False])
    got = vkindex.scatter_elements(data, indices, updates, reduction=reduction)
    if reduction == "add":
        expected = np.array([False, True, True, True])
    else:
        expected = np.array([False, False, False, False])
    ref.assert_same(got, expected)
    ref.assert_same(got, ref.scatter_elements(data, indices, updates, 0, reduction))


# --- Strings -----------------------------------------------------------------------------------------------
def string_inputs(strings):
    """The same strings as a U array, an S array (their UTF-8 bytes), an object array of str and of
    bytes; every result is an object array of str."""
    return {
        "U": np.array(strings.tolist(), dtype=str),
        "S": np.array([s.encode() for s in strings.flat], dtype=bytes).reshape(strings.shape),
        "object-str": strings,
        "object-bytes": np.array([s.encode() for s in strings.flat], dtype=object).reshape(strings.shape),
    }


@pytest.mark.parametrize("form", ["U", "S", "object-str", "object-bytes"])
def test_strings_every_operator(rng, form):
    strings = ref.random_values(rng, "string", (4, 5))
    data = string_inputs(strings)[form]
    indices = ref.random_indices(rng, (2, 3), 5)
    ref.assert_same(vkindex.gather(data, indices, 1), ref.gather(strings, indices, 1))
    element_indices = ref.random_indices(rng, (4, 6), 5)
    ref.assert_same(vkindex.gather_elements(data, element_indices, -1), ref.gather_elements(strings, element_indices, 1))
    nd_indices = ref.random_indices(rng, (3, 2), 4)
    ref.assert_same(vkindex.gather_nd(data, nd_indices), ref.gather_nd(strings, nd_indices))


@pytest.mark.parametrize("reduction", ["none", "add"])
def test_string_scatters(rng, reduction):
    strings = ref.random_values(rng, "string", (3, 4))
    indices = ref.random_indices(rng, (5, 4), 3)
    updates = ref.random_values(rng, "string", (5, 4))
    got = vkindex.scatter_elements(strings, indices, updates, 0, reduction)
    ref.assert_same(got, ref.scatter_elements(strings, indices, updates, 0, reduction))
    rows = np.array([[2], [0], [-1], [2]])
    row_updates = ref.random_values(rng, "string", (4, 4))
    got = vkindex.scatter_nd(np.array(strings.tolist(), dtype=str), rows, np.array(row_updates.tolist(), str),
                             reduction)
    ref.assert_same(got, ref.scatter_nd(strings, rows, row_updates, reduction))


def test_string_add_appends_in_index_order():
    data = np.array(["a", "b"], dtype=object)
    got = vkindex.scatter_elements(data, [1, 0, 1, 1], np.array(["x", "y", "z", ""], dtype=object), reduction="add")
    ref.assert_same(got, np.array(["a" + "y", "b" + "x" + "z"], dtype=object))


def test_unicode_and_empty_strings_round_trip():
    data = np.array(["", "\u00e9\u00e8", "\U0001F600 smile", "plain"], dtype=object)
    got = vkindex.gather(data, [3, 2, 1, 0, 0])
    ref.assert_same(got, data[[3, 2, 1, 0, 0]])


# --- Low-precision types ----------------------------------------------------------------------------------
def low_precision_array(rng, name, shape):
    if name == "int4":
        return rng.integers(-8, 8, shape).astype(np.int8)
    if name in ref.FOUR_BIT:
        return rng.integers(0, 16, shape).astype(np.uint8)
    return rng.integers(0, 256, shape).astype(np.uint8)


OP_NAMES = {"gather": "Gather", "gather_elements": "GatherElements", "gather_nd": "GatherND",
            "scatter_elements": "ScatterElements", "scatter_nd": "ScatterND"}


@pytest.mark.parametrize("op", list(OP_NAMES))
@pytest.mark.parametrize("name", ref.LOW_PRECISION)
def test_low_precision_types_refused_outside_tensor_scatter(rng, name, op):
    data = low_precision_array(rng, name, (3, 5))
    calls = {
        "gather": lambda: vkindex.gather(data, [0, 2], 1, dtype=name),
        "gather_elements": lambda: vkindex.gather_elements(data, np.zeros((3, 2), np.int64), 1, dtype=name),
        "gather_nd": lambda: vkindex.gather_nd(data, [[1]], dtype=name),
        "scatter_elements": lambda: vkindex.scatter_elements(data, np.zeros((1, 5), np.int64), data[:1], dtype=name),
        "scatter_nd": lambda: vkindex.scatter_nd(data, [[1]], data[:1], dtype=name),
    }
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        calls[op]()
    onnx_op = OP_NAMES[op]
    assert str(info.value) == (
        "%s: input 'data' has type %s, which %s does not take (ONNX allows the float8, int4, uint4 and "
        "float4e2m1 types in TensorScatter, not in %s)" % (onnx_op, name, onnx_op, onnx_op))


def test_dtypes_lists_every_name():
    assert set(ref.ALL_NAMES) <= set(vkindex.DTYPES), sorted(set(ref.ALL_NAMES) - set(vkindex.DTYPES))


@pytest.mark.parametrize("bad", ["float7", ""])
def test_unknown_dtype_name(bad):
    """docs/python.md: an unknown dtype raises InvalidArgumentError naming the operator and the argument."""
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.gather(np.zeros(4, np.uint16), [0], dtype=bad)
    assert "dtype" in str(info.value) and repr(bad) in str(info.value)
    assert "Gather" in str(info.value) or "gather" in str(info.value), str(info.value)


def test_unknown_dtype_name_in_tensor_from_numpy():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.Tensor.from_numpy(np.zeros(4, np.uint8), dtype="float9")
    assert "dtype" in str(info.value) and "float9" in str(info.value)


@pytest.mark.parametrize("name", ref.FOUR_BIT)
def test_four_bit_code_above_15_in_an_operator(name):
    """A 4-bit code above 15: InvalidArgumentError naming the operator and the input."""
    past = np.zeros((2, 3), np.uint8)
    update = np.array([[1], [16]], np.uint8)
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.tensor_scatter(past, update, np.array([0, 1]), axis=1, dtype=name)
    assert "TensorScatter" in str(info.value) and "update" in str(info.value), str(info.value)
