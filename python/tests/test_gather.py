"""Gather, GatherElements and GatherND against numpy, byte for byte."""
import numpy as np
import pytest

import reference as ref
import vkindex

AXIS_CASES = [(rank, axis) for rank in range(1, 5) for axis in range(-rank, rank)]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("rank,axis", AXIS_CASES)
def test_gather_axes_and_negative_indices(rng, rank, axis, index_dtype):
    shape = tuple(int(d) for d in rng.integers(1, 5, rank))
    data = ref.random_values(rng, "float32", shape)  # every bit pattern, NaN payloads included
    size = shape[axis]
    for index_shape in [(), (3,), (2, 3)]:
        indices = ref.random_indices(rng, index_shape, size, index_dtype)
        got = vkindex.gather(data, indices, axis)
        ref.assert_same(got, ref.gather(data, indices, axis))


def test_gather_doc_example():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    rows = vkindex.gather(table, np.array([3, 0, -1]))
    ref.assert_same(rows, table[[3, 0, -1]])


def test_gather_list_indices_and_keyword_axis():
    data = np.arange(20, dtype=np.int16).reshape(4, 5)
    ref.assert_same(vkindex.gather(data, [4, -5, 0], axis=1), data[:, [4, 0, 0]])
    ref.assert_same(vkindex.gather(data, [[1], [-1]]), data[[[1], [3]]])


def test_gather_empty_python_list():
    data = np.arange(6, dtype=np.float32).reshape(3, 2)
    ref.assert_same(vkindex.gather(data, []), np.zeros((0, 2), np.float32))
    ref.assert_same(vkindex.gather(data, [], axis=1), np.zeros((3, 0), np.float32))


def test_gather_rank0_index_drops_axis():
    data = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    for axis in range(3):
        for index in (0, -1, 1):
            got = vkindex.gather(data, np.array(index, dtype=np.int64), axis)
            expected = np.take(data, index, axis=axis)
            assert got.shape == expected.shape
            ref.assert_same(got, expected)


@pytest.mark.parametrize("index_shape", [(0,), (2, 0), (0, 3)])
def test_gather_empty_indices(index_shape):
    data = np.arange(12, dtype=np.float64).reshape(3, 4)
    indices = np.zeros(index_shape, dtype=np.int64)
    for axis in (0, 1, -1):
        got = vkindex.gather(data, indices, axis)
        ref.assert_same(got, ref.gather(data, indices, axis))


@pytest.mark.parametrize("shape,axis,index_shape", [
    ((0, 3), 1, (2,)),        # an empty outer dim: empty output
    ((3, 0), 0, (4,)),        # an empty inner dim: empty rows
    ((3, 0, 2), 1, (0,)),     # an empty axis with empty indices
    ((2, 0), 1, (0, 5)),
    ((0,), 0, (0,)),
])
def test_gather_zero_sized_dims(rng, shape, axis, index_shape):
    data = np.zeros(shape, dtype=np.uint8)
    size = shape[axis]
    indices = ref.random_indices(rng, index_shape, max(size, 1))
    got = vkindex.gather(data, indices, axis)
    assert got.shape == shape[:axis] + index_shape + shape[axis + 1:]
    ref.assert_same(got, ref.gather(data, indices, axis))


@pytest.mark.parametrize("columns", [1, 3, 64, 1000])
def test_gather_row_lengths(rng, columns):
    """Short rows (the kernel) and long rows (copy regions, runs of consecutive rows merged)."""
    data = ref.random_values(rng, "uint8", (50, columns))
    indices = np.concatenate([np.arange(10, 20), rng.integers(-50, 50, 30), np.arange(5, 0, -1), [7, 7, 7]])
    ref.assert_same(vkindex.gather(data, indices), ref.gather(data, indices))


def test_gather_device_indices_tensor(rng):
    """Indices given as a Tensor take the device path (not host indices): same result, numpy output."""
    data = ref.random_values(rng, "int64", (7, 5))
    indices = ref.random_indices(rng, (4, 3), 7)
    got = vkindex.gather(data, vkindex.Tensor.from_numpy(indices), 0)
    ref.assert_same(got, ref.gather(data, indices, 0))
    got = vkindex.gather(data, vkindex.Tensor.from_numpy(indices.astype(np.int32) % 5), -1)
    ref.assert_same(got, ref.gather(data, indices % 5, 1))


def test_gather_large(rng):
    """2 million float32 elements gathered by 65536 random int64 indices."""
    data = rng.standard_normal((1 << 16, 32), dtype=np.float32)
    indices = rng.integers(-(1 << 16), 1 << 16, 1 << 16)
    got = vkindex.gather(data, indices)
    ref.assert_same(got, np.take(data, indices, axis=0))
    # along the inner axis: every output element from another row position
    columns = rng.integers(-32, 32, 48).astype(np.int32)
    ref.assert_same(vkindex.gather(data, columns, axis=1), np.take(data, columns, axis=1))


# --- GatherElements -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("rank,axis", [(r, a) for r in range(1, 4) for a in range(-r, r)])
def test_gather_elements(rng, rank, axis, index_dtype):
    shape = tuple(int(d) for d in rng.integers(1, 6, rank))
    a = axis % rank
    data = ref.random_values(rng, "float64", shape)
    # indices: any size along the axis, at most data's elsewhere (smaller in some dims)
    index_shape = tuple(int(rng.integers(0, 8)) if d == a else int(rng.integers(1, shape[d] + 1))
                        for d in range(rank))
    indices = ref.random_indices(rng, index_shape, shape[a], index_dtype)
    got = vkindex.gather_elements(data, indices, axis)
    ref.assert_same(got, ref.gather_elements(data, indices, axis))


def test_gather_elements_matches_take_along_axis(rng):
    data = ref.random_values(rng, "int16", (6, 7, 5))
    indices = ref.random_indices(rng, (6, 9, 5), 7)
    ref.assert_same(vkindex.gather_elements(data, indices, axis=1), np.take_along_axis(data, indices, axis=1))


@pytest.mark.parametrize("index_shape", [(0, 3), (2, 0), (0, 0)])
def test_gather_elements_empty(index_shape):
    data = np.arange(12, dtype=np.int32).reshape(3, 4)
    indices = np.zeros(index_shape, dtype=np.int64)
    got = vkindex.gather_elements(data, indices, 1)
    assert got.shape == index_shape and got.dtype == np.int32


def test_gather_elements_large(rng):
    data = rng.integers(0, 2**31, (1024, 1024), dtype=np.int32)
    indices = rng.integers(-1024, 1024, (1024, 1024))
    ref.assert_same(vkindex.gather_elements(data, indices, axis=0), np.take_along_axis(data, indices, axis=0))


# --- GatherND -------------------------------------------------------------------------------------------
GATHER_ND_CASES = [
    # data shape, batch_dims, tuple length k, middle index dims
    ((5,), 0, 1, (3,)),
    ((4, 6), 0, 1, (2, 2)),
    ((4, 6), 0, 2, (5,)),
    ((3, 4, 5), 0, 3, (7,)),
    ((3, 4, 5), 0, 2, ()),
    ((2, 4, 5), 1, 1, (3,)),
    ((2, 4, 5), 1, 2, (6,)),
    ((2, 3, 4, 5), 2, 1, (2,)),
    ((2, 3, 4, 5), 2, 2, ()),
    ((2, 3, 4, 5), 1, 3, (4, 2)),
    ((3, 4), 0, 1, (0,)),      # no tuples
    ((2, 4, 3), 1, 1, (0,)),
]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("shape,batch_dims,k,middle", GATHER_ND_CASES)
def test_gather_nd(rng, shape, batch_dims, k, middle, index_dtype):
    data = ref.random_values(rng, "complex64", shape)
    index_shape = shape[:batch_dims] + middle + (k,)
    indices = np.zeros(index_shape, dtype=index_dtype)
    for c in range(k):
        size = shape[batch_dims + c]
        indices[..., c] = ref.random_indices(rng, index_shape[:-1], size, index_dtype)
    got = vkindex.gather_nd(data, indices, batch_dims)
    ref.assert_same(got, ref.gather_nd(data, indices, batch_dims))
    if batch_dims == 0:
        ref.assert_same(got, data[tuple(np.moveaxis(indices.astype(np.int64), -1, 0))])


def test_gather_nd_keyword_and_device_indices(rng):
    data = ref.random_values(rng, "uint16", (3, 5, 2))
    indices = ref.random_indices(rng, (3, 4, 1), 5)
    expected = ref.gather_nd(data, indices, 1)
    ref.assert_same(vkindex.gather_nd(data, indices, batch_dims=1), expected)
    ref.assert_same(vkindex.gather_nd(data, vkindex.Tensor.from_numpy(indices), batch_dims=1), expected)


def test_gather_nd_large(rng):
    data = rng.integers(0, 255, (512, 512, 4), dtype=np.uint8)
    indices = rng.integers(-512, 512, (100000, 2))
    expected = data[indices[:, 0], indices[:, 1]]
    ref.assert_same(vkindex.gather_nd(data, indices), expected)
