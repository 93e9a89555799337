"""index_policy="skip" (docs/operators.md, Index policy): an index outside [0, s-1] (negative ones
included, no wrapping) addresses nothing: a zero slice for gathers, no write for scatters."""
import numpy as np
import pytest

import reference as ref
import vkindex

# -1 does not wrap; 2^32 + 1 has a low word that alone would look valid.
ODD = [-1, 5, ref.INT64_MAX, ref.INT64_MIN, 2**32 + 1, -2**32 + 2]


@pytest.mark.parametrize("as_tensor", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_skip_zero_slices(rng, axis, as_tensor):
    data = ref.random_values(rng, "float32", (5, 5, 3))
    data[data == 0] = 1  # so that zero rows are visible
    indices = np.array([[0, -1, 4], [5, 2, ref.INT64_MAX], [ref.INT64_MIN, 2**32 + 1, 3]], dtype=np.int64)
    passed = vkindex.Tensor.from_numpy(indices) if as_tensor else indices
    got = vkindex.gather(data, passed, axis, index_policy="skip")
    ref.assert_same(got, ref.gather_skip(data, indices, axis))


def test_gather_skip_int32_and_long_rows(rng):
    """Long rows (the copy-region path without skipped indices, the kernel path with them)."""
    data = ref.random_values(rng, "uint8", (8, 4096))
    for indices in (np.array([7, 0, 1, 2], np.int32), np.array([7, -8, 8, 2], np.int32)):
        got = vkindex.gather(data, indices, index_policy="skip")
        ref.assert_same(got, ref.gather_skip(data, indices))


def test_gather_skip_strings():
    data = np.array(["a", "b", "c"], dtype=object)
    got = vkindex.gather(data, [2, -1, 3, 0], index_policy="skip")
    ref.assert_same(got, np.array(["c", "", "", "a"], dtype=object))


def test_gather_skip_empty_axis():
    """An empty indexed dim makes the whole output zeros."""
    data = np.ones((2, 0, 3), np.int32)
    got = vkindex.gather(data, [0, 1, -1], axis=1, index_policy="skip")
    ref.assert_same(got, np.zeros((2, 3, 3), np.int32))


def test_gather_elements_skip(rng):
    data = rng.integers(1, 100, (4, 5)).astype(np.int64)
    indices = np.array([[0, -1, 4], [5, 1, 2], [ref.INT64_MAX, 3, 2**32 + 2]])
    got = vkindex.gather_elements(data, indices, axis=1, index_policy="skip")
    expected = np.zeros(indices.shape, np.int64)
    for position in np.ndindex(indices.shape):
        index = int(indices[position])
        if 0 <= index < 5:
            expected[position] = data[position[0], index]
    ref.assert_same(got, expected)


@pytest.mark.parametrize("as_tensor", [False, True])
def test_gather_nd_skip_tuple_with_any_bad_component(rng, as_tensor):
    data = rng.integers(1, 100, (3, 4, 2)).astype(np.int16)
    indices = np.array([[0, 1], [2, -1], [3, 0], [1, 4], [2, 3], [-3, 0], [2**32, 1]])
    passed = vkindex.Tensor.from_numpy(indices) if as_tensor else indices
    got = vkindex.gather_nd(data, passed, index_policy="skip")
    expected = np.zeros((7, 2), np.int16)
    for t, (i, j) in enumerate(indices):
        if 0 <= i < 3 and 0 <= j < 4:
            expected[t] = data[i, j]
    ref.assert_same(got, expected)


@pytest.mark.parametrize("reduction", ["none", "add", "mul", "max", "min"])
def test_scatter_elements_skip(rng, reduction):
    data = rng.standard_normal((3, 6)).astype(np.float32)
    indices = rng.choice(np.array(ODD + [0, 1, 2, 3, 4, 5, 0, 0], dtype=np.int64), (3, 12))
    updates = rng.standard_normal((3, 12)).astype(np.float32)
    got = vkindex.scatter_elements(data, indices, updates, axis=1, reduction=reduction, index_policy="skip")
    ref.assert_same(got, ref.scatter_elements(data, indices, updates, 1, reduction, skip=True))


@pytest.mark.parametrize("reduction", ["none", "add"])
def test_scatter_nd_skip_paged_kv_rows(rng, reduction):
    """A pool of 8 slots written by 6 tokens, two of them padding (slot -1) and one beyond the pool."""
    pool = rng.standard_normal((8, 4)).astype(np.float32)
    slots = np.array([[3], [-1], [7], [8], [-1], [3]])
    rows = rng.standard_normal((6, 4)).astype(np.float32)
    got = vkindex.scatter_nd(pool, slots, rows, reduction, index_policy="skip")
    ref.assert_same(got, ref.scatter_nd(pool, slots, rows, reduction, skip=True))
    t = vkindex.Tensor.from_numpy(pool)
    assert vkindex.scatter_nd(t, slots, rows, reduction, index_policy="skip", in_place=True) is t
    ref.assert_same(t.numpy(), ref.scatter_nd(pool, slots, rows, reduction, skip=True))


def test_scatter_nd_skip_two_components(rng):
    data = rng.integers(0, 50, (3, 4)).astype(np.int32)
    indices = np.array([[0, 0], [2, -1], [-1, 2], [2, 3], [3, 0], [1, 2**32 + 1]])
    updates = np.arange(1, 7, dtype=np.int32)
    got = vkindex.scatter_nd(data, indices, updates, "add", index_policy="skip")
    ref.assert_same(got, ref.scatter_nd(data, indices, updates, "add", skip=True))


def test_scatter_skip_strings():
    data = np.array(["a", "b"], dtype=object)
    got = vkindex.scatter_elements(data, [1, -1, 2, 0, 1], np.array(["x", "y", "z", "u", "v"]), reduction="add",
                                   index_policy="skip")
    ref.assert_same(got, np.array(["au", "bxv"], dtype=object))


def test_skip_never_raises_for_values():
    data = np.zeros((2, 2), np.float32)
    for index in ODD:
        ref.assert_same(vkindex.gather(data, [index], index_policy="skip"), np.zeros((1, 2), np.float32))


def test_error_policy_is_default_and_explicit():
    data = np.arange(4, dtype=np.int32)
    with pytest.raises(vkindex.OutOfRangeError):
        vkindex.gather(data, [4])
    with pytest.raises(vkindex.OutOfRangeError):
        vkindex.gather(data, [4], index_policy="error")
    ref.assert_same(vkindex.gather(data, [-4], index_policy="error"), np.array([0], np.int32))
