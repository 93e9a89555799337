"""TensorScatter (ONNX opset 24): linear and circular, any sequence axis, every type (the float8 and
4-bit ones included, odd element counts), in place on a Tensor, the index policy and its errors."""
import numpy as np
import pytest

import reference as ref
import vkindex


@pytest.mark.parametrize("mode", ["linear", "circular"])
@pytest.mark.parametrize("shape,axis,seq_len", [
    ((2, 3, 6, 4), -2, 2),
    ((2, 3, 6, 4), 2, 1),
    ((3, 5, 2), 1, 3),
    ((3, 5, 2), -1, 2),
    ((2, 7), 1, 7),
    ((2, 7), -1, 0),
    ((4, 2, 3, 5, 2), 3, 4),
])
def test_tensor_scatter_modes_and_axes(rng, shape, axis, seq_len, mode):
    past = ref.random_values(rng, "float32", shape)
    a = axis % len(shape)
    update_shape = shape[:a] + (seq_len,) + shape[a + 1:]
    update = ref.random_values(rng, "float32", update_shape)
    max_seq = shape[a]
    if mode == "linear":
        writes = rng.integers(0, max_seq - seq_len + 1, shape[0])
    else:
        writes = rng.integers(0, 3 * max_seq, shape[0])
    got = vkindex.tensor_scatter(past, update, writes, axis=axis, mode=mode)
    ref.assert_same(got, ref.tensor_scatter(past, update, writes, axis, mode))


def test_tensor_scatter_absent_write_indices(rng):
    past = ref.random_values(rng, "int32", (3, 4, 2))
    update = ref.random_values(rng, "int32", (3, 2, 2))
    ref.assert_same(vkindex.tensor_scatter(past, update), ref.tensor_scatter(past, update, None))
    ref.assert_same(vkindex.tensor_scatter(past, update, None, axis=1, mode="circular"),
                    ref.tensor_scatter(past, update, None, 1, "circular"))


def test_tensor_scatter_onnx_example():
    """ONNX's test_tensorscatter (onnx/backend/test/case/node/tensorscatter.py)."""
    rows = [[1, 2, 3, 4, 5], [5, 6, 7, 8, 9], [8, 7, 6, 5, 4], [4, 3, 2, 1, 0]]
    past = np.array([[rows], [rows]], dtype=np.float32)
    update = np.array([[[[5] * 5]], [[[1] * 5]]], dtype=np.float32)
    expected = np.array([[[rows[0], [5] * 5, rows[2], rows[3]]], [[rows[0], rows[1], [1] * 5, rows[3]]]],
                        dtype=np.float32)
    ref.assert_same(vkindex.tensor_scatter(past, update, np.array([1, 2]), mode="linear"), expected)


def test_circular_wraps_huge_write_indices(rng):
    past = ref.random_values(rng, "uint16", (3, 5, 2))
    update = ref.random_values(rng, "uint16", (3, 4, 2))
    writes = np.array([ref.INT64_MAX, ref.INT64_MAX - 3, 5 * 10**17 + 3], dtype=np.int64)
    got = vkindex.tensor_scatter(past, update, writes, axis=1, mode="circular")
    ref.assert_same(got, ref.tensor_scatter(past, update, [int(w) for w in writes], 1, "circular"))


def test_in_place_kv_write_doc_example(rng):
    cache = vkindex.Tensor.from_numpy(np.zeros((1, 8, 1024, 64), np.float16))
    row = np.ones((1, 8, 1, 64), np.float16)
    result = vkindex.tensor_scatter(cache, row, np.array([5]), axis=2, in_place=True)
    assert result is cache
    expected = np.zeros((1, 8, 1024, 64), np.float16)
    expected[:, :, 5] = 1
    ref.assert_same(cache.numpy(), expected)
    # a second token, circular, after the first
    token = rng.standard_normal((1, 8, 1, 64)).astype(np.float16)
    vkindex.tensor_scatter(cache, token, np.array([1024 + 6]), axis=2, mode="circular", in_place=True)
    expected[:, :, 6] = token[:, :, 0]
    ref.assert_same(cache.numpy(), expected)


def test_tensor_scatter_on_tensor_not_in_place(rng):
    past = ref.random_values(rng, "float64", (2, 4, 3))
    update = ref.random_values(rng, "float64", (2, 1, 3))
    t = vkindex.Tensor.from_numpy(past)
    out = vkindex.tensor_scatter(t, update, np.array([3, 0]), axis=1)
    assert isinstance(out, vkindex.Tensor) and out is not t
    ref.assert_same(out.numpy(), ref.tensor_scatter(past, update, [3, 0], 1))
    ref.assert_same(t.numpy(), past)


# --- Every type -------------------------------------------------------------------------------------------
def type_arrays(rng, name, shape):
    """(numpy array, dtype= argument) of a type's elements."""
    if name == "string":
        return ref.random_values(rng, "string", shape), None
    if name == "bfloat16":
        return ref.random_values(rng, "uint16", shape), "bfloat16"
    if name == "int4":
        return rng.integers(-8, 8, shape).astype(np.int8), name
    if name in ref.FOUR_BIT:
        return rng.integers(0, 16, shape).astype(np.uint8), name
    if name in ref.FLOAT8:
        return rng.integers(0, 256, shape).astype(np.uint8), name
    return ref.random_values(rng, name, shape), None


@pytest.mark.parametrize("mode", ["linear", "circular"])
@pytest.mark.parametrize("name", ref.CLASSIC + ["bfloat16", "string"] + ref.LOW_PRECISION)
def test_tensor_scatter_every_type(rng, name, mode):
    # odd sizes everywhere: 3 x 5 x 3 = 45 elements, rows of 3 starting mid-byte for 4-bit types
    past, dtype = type_arrays(rng, name, (3, 5, 3))
    update, _ = type_arrays(rng, name, (3, 2, 3))
    writes = np.array([0, 3, 2]) if mode == "linear" else np.array([4, 9, 1])
    extra = {"dtype": dtype} if dtype else {}
    got = vkindex.tensor_scatter(past, update, writes, axis=1, mode=mode, **extra)
    ref.assert_same(got, ref.tensor_scatter(past, update, writes, 1, mode))


@pytest.mark.parametrize("name", ref.FOUR_BIT)
def test_tensor_scatter_four_bit_in_place_odd_rows(rng, name):
    """A 4-bit cache of 3 x 7 x 1 (21 elements, rows start mid-byte) written in place: the neighbouring
    nibbles keep their values."""
    past, dtype = type_arrays(rng, name, (3, 7, 1))
    t = vkindex.Tensor.from_numpy(past, dtype=dtype)
    expected = past
    for step in range(3):
        update, _ = type_arrays(rng, name, (3, 1, 1))
        writes = rng.integers(0, 7, 3)
        assert vkindex.tensor_scatter(t, update, writes, axis=1, in_place=True, dtype=dtype) is t
        expected = ref.tensor_scatter(expected, update, writes, 1)
        ref.assert_same(t.numpy(), expected)


# --- Index policy and errors ------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["linear", "circular"])
def test_tensor_scatter_skip(rng, mode):
    past = ref.random_values(rng, "int16", (4, 5, 2))
    update = ref.random_values(rng, "int16", (4, 2, 2))
    writes = np.array([-1, 4, 3, ref.INT64_MAX])  # linear: -1, 4 and INT64_MAX are skipped
    got = vkindex.tensor_scatter(past, update, writes, axis=1, mode=mode, index_policy="skip")
    ref.assert_same(got, ref.tensor_scatter(past, update, [int(w) for w in writes], 1, mode, skip=True))


def test_tensor_scatter_linear_out_of_range_message(rng):
    past = np.zeros((2, 3, 4, 5), np.float32)
    update = np.ones((2, 3, 2, 5), np.float32)
    t = vkindex.Tensor.from_numpy(past)
    with pytest.raises(vkindex.OutOfRangeError) as info:
        vkindex.tensor_scatter(t, update, np.array([0, 3]), axis=2, in_place=True)
    assert str(info.value) == (
        "TensorScatter: write_indices[1] = 3 is out of range for seq_len 2 and max_seq 4 (axis 2) in linear mode "
        "(allowed [0, 2]: the write index plus seq_len must not exceed max_seq)")
    assert info.value.code == "out of range"
    ref.assert_same(t.numpy(), past)  # nothing written, batch entry 0 included


def test_tensor_scatter_circular_negative_message():
    with pytest.raises(vkindex.OutOfRangeError) as info:
        vkindex.tensor_scatter(np.zeros((3, 4), np.int8), np.zeros((3, 1), np.int8), np.array([1, 2, -1]), axis=1,
                               mode="circular")
    assert str(info.value) == (
        "TensorScatter: write_indices[2] = -1 is out of range for seq_len 1 and max_seq 4 (axis 1) in circular mode "
        "(allowed [0, 9223372036854775807]: positions wrap, but a write index may not be negative)")


def test_tensor_scatter_batch_axis_refused():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.tensor_scatter(np.zeros((2, 4), np.float32), np.zeros((2, 4), np.float32), axis=0)
    assert str(info.value) == ("TensorScatter: attribute 'axis' = 0 names the batch axis 0; the sequence axis must be "
                               "another (allowed [1, 1] or [-1, -1])")


def test_tensor_scatter_update_too_long():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.tensor_scatter(np.zeros((2, 3), np.float32), np.zeros((2, 4), np.float32), axis=1)
    assert str(info.value) == ("TensorScatter: input 'update' has seq_len 4 along axis 1, more than past_cache's "
                               "max_seq 3")


def test_tensor_scatter_unknown_mode():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.tensor_scatter(np.zeros((2, 3), np.float32), np.zeros((2, 1), np.float32), axis=1, mode="ring")
    assert "mode" in str(info.value) and "ring" in str(info.value)


def test_int4_given_as_uint8_codes_comes_back_sign_extended(rng):
    past = rng.integers(0, 16, (2, 5)).astype(np.uint8)
    update = rng.integers(0, 16, (2, 2)).astype(np.uint8)
    got = vkindex.tensor_scatter(past, update, np.array([3, 0]), axis=1, dtype="int4")
    signed = lambda codes: ((codes.astype(np.int16) ^ 8) - 8).astype(np.int8)  # noqa: E731
    ref.assert_same(got, ref.tensor_scatter(signed(past), signed(update), [3, 0], 1))
