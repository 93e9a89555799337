"""vkindex.Tensor: round trips for every type, its properties, chaining, in-place scatters."""
import numpy as np
import pytest

import reference as ref
import vkindex

ELEMENT_BYTES = {"bool": 1, "int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4, "int64": 8,
                 "uint64": 8, "float16": 2, "float32": 4, "float64": 8, "complex64": 8, "complex128": 16}


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 0, 3), ()])
@pytest.mark.parametrize("kind", ref.CLASSIC)
def test_round_trip_numpy_types(rng, kind, shape):
    array = ref.random_values(rng, kind, shape)
    tensor = vkindex.Tensor.from_numpy(array)
    assert isinstance(tensor, vkindex.Tensor)
    assert tensor.shape == shape and isinstance(tensor.shape, tuple)
    assert tensor.dtype == ref.ONNX_NAME[kind]
    assert tensor.size == int(np.prod(shape))
    assert tensor.nbytes == int(np.prod(shape)) * ELEMENT_BYTES[kind]
    ref.assert_same(tensor.numpy(), array)


def test_round_trip_bfloat16(rng):
    bits = ref.random_values(rng, "uint16", (3, 3))
    tensor = vkindex.Tensor.from_numpy(bits, dtype="bfloat16")
    assert tensor.dtype == "bfloat16" and tensor.nbytes == 18 and tensor.shape == (3, 3) and tensor.size == 9
    ref.assert_same(tensor.numpy(), bits)


@pytest.mark.parametrize("form", ["U", "S", "object"])
def test_round_trip_strings(form):
    strings = np.array([["", "a", "\u00e9\u00e9"], ["long " * 20, "x", "yz"]], dtype=object)
    if form == "U":
        array = np.array(strings.tolist(), dtype=str)
    elif form == "S":
        array = np.array([s.encode() for s in strings.flat], dtype=bytes).reshape(strings.shape)
    else:
        array = strings
    tensor = vkindex.Tensor.from_numpy(array)
    assert tensor.dtype == "string" and tensor.shape == (2, 3) and tensor.size == 6
    assert tensor.nbytes == 0  # strings have no device bytes
    ref.assert_same(tensor.numpy(), strings)


@pytest.mark.parametrize("count", [1, 2, 7, 8, 33])
@pytest.mark.parametrize("name", ref.LOW_PRECISION)
def test_round_trip_low_precision(rng, name, count):
    four_bit = name in ref.FOUR_BIT
    if name == "int4":
        array = rng.integers(-8, 8, count).astype(np.int8)
    else:
        array = rng.integers(0, 16 if four_bit else 256, count).astype(np.uint8)
    tensor = vkindex.Tensor.from_numpy(array, dtype=name)
    assert tensor.dtype == name and tensor.shape == (count,) and tensor.size == count
    assert tensor.nbytes == ((count + 1) // 2 if four_bit else count)
    ref.assert_same(tensor.numpy(), array)


def test_int4_from_uint8_codes_sign_extends(rng):
    codes = np.arange(16, dtype=np.uint8).reshape(2, 8)[:, ::-1].copy()
    tensor = vkindex.Tensor.from_numpy(codes, dtype="int4")
    expected = ((codes.astype(np.int16) ^ 8) - 8).astype(np.int8)
    ref.assert_same(tensor.numpy(), expected)


@pytest.mark.parametrize("name", ref.FOUR_BIT)
def test_four_bit_code_above_15_refused(name):
    with pytest.raises(vkindex.InvalidArgumentError):
        vkindex.Tensor.from_numpy(np.array([1, 16, 2], dtype=np.uint8), dtype=name)


def test_int4_value_outside_its_range_refused():
    """int4 given as int8 must lie in [-8, 7] (docs/python.md, Types)."""
    with pytest.raises(vkindex.InvalidArgumentError):
        vkindex.Tensor.from_numpy(np.array([0, 8], dtype=np.int8), dtype="int4")
    with pytest.raises(vkindex.InvalidArgumentError):
        vkindex.Tensor.from_numpy(np.array([-9], dtype=np.int8), dtype="int4")


def test_tensor_context(ctx):
    tensor = vkindex.Tensor.from_numpy(np.zeros(3, np.float32))
    assert tensor.context is ctx or tensor.context == ctx
    explicit = vkindex.Tensor.from_numpy(np.ones(3, np.float32), context=ctx)
    ref.assert_same(explicit.numpy(), np.ones(3, np.float32))


# --- Chaining ----------------------------------------------------------------------------------------------
def test_chained_calls_return_tensors(rng):
    table = rng.standard_normal((10, 6)).astype(np.float32)
    t = vkindex.Tensor.from_numpy(table)
    rows = vkindex.gather(t, np.array([9, 0, -3, 4]))
    assert isinstance(rows, vkindex.Tensor)
    assert rows.shape == (4, 6) and rows.dtype == "float"
    cols = vkindex.gather(rows, vkindex.Tensor.from_numpy(np.array([5, 5, 1], np.int32)), axis=1)
    assert isinstance(cols, vkindex.Tensor)
    ref.assert_same(cols.numpy(), table[[9, 0, -3, 4]][:, [5, 5, 1]])
    elements = vkindex.gather_elements(cols, np.array([[2, 0, 1]]), 0)
    assert isinstance(elements, vkindex.Tensor)
    ref.assert_same(elements.numpy(), np.take_along_axis(cols.numpy(), np.array([[2, 0, 1]]), 0))
    nd = vkindex.gather_nd(t, np.array([[1, 2], [-1, -1]]))
    assert isinstance(nd, vkindex.Tensor)
    ref.assert_same(nd.numpy(), table[[1, -1], [2, -1]])
    scattered = vkindex.scatter_nd(t, np.array([[0]]), np.full((1, 6), 7, np.float32), "add")
    assert isinstance(scattered, vkindex.Tensor) and scattered is not t
    expected = table.copy()
    expected[0] += np.float32(7)
    ref.assert_same(scattered.numpy(), expected)
    ref.assert_same(t.numpy(), table)  # not in place: the input tensor is unchanged


def test_numpy_first_input_gives_numpy(rng):
    data = np.arange(6, dtype=np.int32)
    got = vkindex.gather(data, vkindex.Tensor.from_numpy(np.array([1, 2])))
    assert isinstance(got, np.ndarray)
    ref.assert_same(got, data[[1, 2]])
    got = vkindex.scatter_elements(data, vkindex.Tensor.from_numpy(np.array([0])),
                                   vkindex.Tensor.from_numpy(np.array([9], np.int32)))
    assert isinstance(got, np.ndarray)
    ref.assert_same(got, np.array([9, 1, 2, 3, 4, 5], np.int32))


# --- In place ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", ["none", "add", "max"])
def test_scatter_nd_in_place(rng, reduction):
    data = rng.standard_normal((8, 3)).astype(np.float32)
    t = vkindex.Tensor.from_numpy(data)
    indices = np.array([[2], [7], [2], [-8]])
    updates = rng.standard_normal((4, 3)).astype(np.float32)
    result = vkindex.scatter_nd(t, indices, updates, reduction, in_place=True)
    assert result is t
    ref.assert_same(t.numpy(), ref.scatter_nd(data, indices, updates, reduction))
    # again, onto the updated tensor
    vkindex.scatter_nd(t, indices, updates, reduction, in_place=True)
    ref.assert_same(t.numpy(), ref.scatter_nd(ref.scatter_nd(data, indices, updates, reduction), indices, updates,
                                              reduction))


@pytest.mark.parametrize("reduction", ["none", "mul", "min"])
def test_scatter_elements_in_place(rng, reduction):
    data = rng.integers(-100, 100, (4, 5)).astype(np.int64)
    t = vkindex.Tensor.from_numpy(data)
    indices = ref.random_indices(rng, (4, 7), 5)
    updates = rng.integers(-100, 100, (4, 7)).astype(np.int64)
    result = vkindex.scatter_elements(t, indices, updates, axis=1, reduction=reduction, in_place=True)
    assert result is t
    ref.assert_same(t.numpy(), ref.scatter_elements(data, indices, updates, 1, reduction))


def test_in_place_with_tensor_updates_and_indices(rng):
    data = np.zeros((5, 2), np.float16)
    t = vkindex.Tensor.from_numpy(data)
    indices = vkindex.Tensor.from_numpy(np.array([[4], [0]], np.int32))
    updates = vkindex.Tensor.from_numpy(np.array([[1, 2], [3, 4]], np.float16))
    assert vkindex.scatter_nd(t, indices, updates, in_place=True) is t
    ref.assert_same(t.numpy(), np.array([[3, 4], [0, 0], [0, 0], [0, 0], [1, 2]], np.float16))


def test_in_place_string_tensor():
    t = vkindex.Tensor.from_numpy(np.array(["a", "b", "c"]))
    assert vkindex.scatter_elements(t, [2, 0, 2], np.array(["x", "y", "z"]), reduction="add", in_place=True) is t
    ref.assert_same(t.numpy(), np.array(["ay", "b", "cxz"], dtype=object))


@pytest.mark.parametrize("op", ["scatter_nd", "scatter_elements", "tensor_scatter"])
def test_in_place_needs_a_tensor(op):
    data = np.zeros((2, 3), np.float32)
    with pytest.raises(vkindex.InvalidArgumentError):
        if op == "scatter_nd":
            vkindex.scatter_nd(data, [[0]], np.ones((1, 3), np.float32), in_place=True)
        elif op == "scatter_elements":
            vkindex.scatter_elements(data, [[0, 1, 0]], np.ones((1, 3), np.float32), in_place=True)
        else:
            vkindex.tensor_scatter(data, np.ones((2, 1), np.float32), np.array([0, 1]), axis=1, in_place=True)
    ref.assert_same(data, np.zeros((2, 3), np.float32))


def test_bfloat16_tensor_chain(rng):
    bits = ref.random_values(rng, "uint16", (6, 4))
    t = vkindex.Tensor.from_numpy(bits, dtype="bfloat16")
    rows = vkindex.gather(t, [5, -6, 2])
    assert isinstance(rows, vkindex.Tensor) and rows.dtype == "bfloat16"
    ref.assert_same(rows.numpy(), bits[[5, 0, 2]])
    updates = ref.f32_array_to_bf16(np.array([[1.5, -2.0, 3.25, 0.0]], np.float32))
    assert vkindex.scatter_nd(t, [[3]], updates, "add", in_place=True, dtype="bfloat16") is t
    ref.assert_same(t.numpy(), ref.scatter_nd(bits, np.array([[3]]), updates, "add", kind="bfloat16"))


def test_numpy_asarray_reads_a_tensor(rng):
    values = rng.standard_normal((3, 5)).astype(np.float32)
    tensor = vkindex.Tensor.from_numpy(values)
    assert np.asarray(tensor).tobytes() == values.tobytes()
    assert np.asarray(tensor, dtype=np.float64).tobytes() == values.astype(np.float64).tobytes()
