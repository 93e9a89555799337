"""ScatterElements and ScatterND against numpy's sequential loops, byte for byte: every reduction,
duplicate-heavy indices (updates fold in row-major index order, float arithmetic in the element's
type), k = 0 tuples, empty and large cases."""
import numpy as np
import pytest

import reference as ref
import vkindex

REDUCTIONS = ["none", "add", "mul", "max", "min"]


def duplicate_indices(rng, shape, size, targets, dtype=np.int64):
    """Indices hitting only `targets` distinct positions, negative and positive spellings mixed."""
    hot = rng.choice(size, min(targets, size), replace=False)
    picked = hot[rng.integers(0, len(hot), int(np.prod(shape, dtype=np.int64)))]
    negative = rng.random(picked.shape) < 0.3
    return np.where(negative, picked - size, picked).astype(dtype).reshape(shape)


def test_scatter_nd_doc_example():
    counts = np.zeros(5, dtype=np.float32)
    ids = np.array([[1], [4], [1]])
    total = vkindex.scatter_nd(counts, ids, np.array([0.5, 2.0, 0.25], np.float32), reduction="add")
    expected = np.array([0, (np.float32(0) + np.float32(0.5)) + np.float32(0.25), 0, 0, 2.0], np.float32)
    ref.assert_same(total, expected)
    ref.assert_same(counts, np.zeros(5, np.float32))  # the input is not written


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("kind", ["float32", "int32"])
@pytest.mark.parametrize("rank,axis", [(r, a) for r in range(1, 4) for a in range(-r, r)])
def test_scatter_elements(rng, rank, axis, kind, reduction):
    shape = tuple(int(d) for d in rng.integers(1, 5, rank))
    a = axis % rank
    index_shape = tuple(int(rng.integers(1, 7)) if d == a else int(rng.integers(1, shape[d] + 1))
                        for d in range(rank))
    index_dtype = np.int32 if rank % 2 else np.int64
    indices = duplicate_indices(rng, index_shape, shape[a], 2, index_dtype)
    if kind == "float32":
        data = rng.standard_normal(shape).astype(np.float32)
        updates = rng.standard_normal(index_shape).astype(np.float32)
    else:
        data = rng.integers(-2**31, 2**31, shape, dtype=np.int32)
        updates = rng.integers(-2**31, 2**31, index_shape, dtype=np.int32)
    got = vkindex.scatter_elements(data, indices, updates, axis, reduction)
    ref.assert_same(got, ref.scatter_elements(data, indices, updates, axis, reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape,k,middle", [
    ((6,), 1, (9,)),
    ((4, 5), 1, (7,)),
    ((4, 5), 2, (3, 4)),
    ((3, 4, 2), 2, (5,)),
    ((3, 4, 2), 3, (11,)),
    ((3, 2), 0, (3,)),      # k = 0: every tuple addresses the whole of data
    ((4, 3), 1, ()),        # indices of rank 1: one tuple
])
def test_scatter_nd(rng, shape, k, middle, reduction):
    index_shape = middle + (k,)
    indices = np.zeros(index_shape, dtype=np.int64)
    for c in range(k):
        indices[..., c] = duplicate_indices(rng, middle, shape[c], 2)
    data = rng.standard_normal(shape).astype(np.float32)
    updates = rng.standard_normal(middle + shape[k:]).astype(np.float32)
    got = vkindex.scatter_nd(data, indices, updates, reduction)
    ref.assert_same(got, ref.scatter_nd(data, indices, updates, reduction))
    got = vkindex.scatter_nd(data, indices.astype(np.int32), updates, reduction=reduction)
    ref.assert_same(got, ref.scatter_nd(data, indices, updates, reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("op", ["elements", "nd"])
@pytest.mark.parametrize("kind", ["float32", "float16", "float64"])
def test_duplicate_heavy_1000_updates_to_3_targets(rng, kind, op, reduction):
    """1000 updates onto 3 targets: the result is the in-order fold, bit for bit (float sums are
    order-dependent, so any other order would show)."""
    size = 10
    data = rng.standard_normal(size).astype(kind)
    if reduction == "mul":  # stay finite: factors near 1
        updates = (1 + (rng.random(1000) - 0.5) * 0.02).astype(kind)
    else:
        updates = (rng.standard_normal(1000) * 10.0 ** rng.integers(-3, 3, 1000)).astype(kind)
    rows = duplicate_indices(rng, (1000,), size, 3)
    if op == "elements":
        got = vkindex.scatter_elements(data, rows, updates, 0, reduction)
    else:
        got = vkindex.scatter_nd(data, rows[:, None], updates, reduction)
    expected = ref.scatter_elements(data, rows, updates, 0, reduction)
    ref.assert_same(got, expected)


def test_duplicates_last_update_wins():
    data = np.zeros((3, 2), dtype=np.int32)
    indices = np.array([[0], [2], [0], [-3], [2]])
    updates = np.arange(10, dtype=np.int32).reshape(5, 2)
    got = vkindex.scatter_nd(data, indices, updates)
    ref.assert_same(got, np.array([[6, 7], [0, 0], [8, 9]], np.int32))
    got = vkindex.scatter_elements(np.zeros(4, np.int8), [1, 1, 3, 1, -1], np.array([5, 6, 7, 8, 9], np.int8))
    ref.assert_same(got, np.array([0, 8, 0, 9], np.int8))


def test_float32_add_order_is_visible():
    """A sum whose value depends on the order: ((1e8 + 1) + 1) ... = 1e8 in float32, while the ones
    added first would give 1e8 + 8."""
    data = np.zeros(1, np.float32)
    updates = np.array([1e8] + [1.0] * 8, np.float32)
    got = vkindex.scatter_elements(data, np.zeros(9, np.int64), updates, reduction="add")
    ref.assert_same(got, np.array([1e8], np.float32))
    updates = np.array([1.0] * 8 + [1e8], np.float32)
    got = vkindex.scatter_elements(data, np.zeros(9, np.int64), updates, reduction="add")
    ref.assert_same(got, np.array([1e8 + 8], np.float32))


@pytest.mark.parametrize("kind", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min"])
def test_nan_and_signed_zero_rules(kind, reduction):
    """docs/reductions.md: NaN results as x86 SSE gives them (current first), max/min keep the current
    value on NaN updates and equal zeros."""
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.5, -2.0, 1e-40]
    if kind == "bfloat16":
        values = ref.f32_array_to_bf16(np.array(special, np.float32))
        # a NaN with payload too
        values = np.append(values, np.uint16(0x7F81))
        dtype = "bfloat16"
    else:
        values = np.array(special, dtype=kind)
        bits = ref.raw(values).copy()
        payload = {"float16": 0x7C01, "float32": 0x7F800001, "float64": 0x7FF0000000000001}[kind]
        values = np.append(bits, bits.dtype.type(payload)).view(kind)  # a signalling NaN
        dtype = None
    n = len(values)
    # every (current, update) pair once: data[i] combined with updates of row i
    data = np.repeat(values, n)
    updates = np.tile(values, n)
    indices = np.arange(n * n, dtype=np.int64)
    kwargs = {"dtype": dtype} if dtype else {}
    got = vkindex.scatter_elements(data, indices, updates, 0, reduction, **kwargs)
    expected = ref.scatter_elements(data, indices, updates, 0, reduction, kind=kind)
    ref.assert_same(got, expected)


@pytest.mark.parametrize("op", ["elements", "nd"])
def test_empty_updates_leave_data(rng, op):
    data = rng.standard_normal((3, 4)).astype(np.float32)
    if op == "elements":
        got = vkindex.scatter_elements(data, np.zeros((0, 4), np.int64), np.zeros((0, 4), np.float32),
                                       reduction="add")
    else:
        got = vkindex.scatter_nd(data, np.zeros((0, 1), np.int64), np.zeros((0, 4), np.float32), reduction="mul")
    ref.assert_same(got, data)


def test_scatter_zero_sized_data():
    data = np.zeros((0, 3), np.float32)
    got = vkindex.scatter_nd(data, np.zeros((0, 1), np.int64), np.zeros((0, 3), np.float32))
    ref.assert_same(got, data)
    got = vkindex.scatter_elements(np.zeros((2, 0), np.int8), np.zeros((2, 0), np.int64), np.zeros((2, 0), np.int8),
                                   axis=1)
    ref.assert_same(got, np.zeros((2, 0), np.int8))


@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min", "none"])
def test_large_duplicate_heavy_float32(rng, reduction):
    """200000 updates onto 16 targets (70% onto 4 hot ones): np.<ufunc>.at folds in index order."""
    targets = 16
    count = 200000
    rows = rng.integers(0, targets, count)
    pick = rng.random(count) < 0.7
    rows[pick] = rng.integers(0, 4, int(pick.sum()))
    if reduction == "mul":
        data = (1 + (rng.random(targets) - 0.5) * 0.01).astype(np.float32)
        updates = (1 + (rng.random(count) - 0.5) * 1e-4).astype(np.float32)
    else:
        data = rng.standard_normal(targets).astype(np.float32)
        updates = rng.standard_normal(count).astype(np.float32)
    expected = data.copy()
    if reduction == "none":
        # last update wins: for each target the last position that names it
        hit, from_back = np.unique(rows[::-1], return_index=True)
        expected[hit] = updates[count - 1 - from_back]
    else:
        ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[reduction]
        ufunc.at(expected, rows, updates)
    got = vkindex.scatter_elements(data, rows, updates, 0, reduction)
    ref.assert_same(got, expected)


def test_large_scatter_nd_rows(rng):
    """100000 rows of 8 float32 onto 60000 targets (some hot), add; int64 indices, negative ones too."""
    targets, count, columns = 60000, 100000, 8
    rows = rng.integers(0, targets, count)
    rows[rng.random(count) < 0.5] = 17
    data = rng.standard_normal((targets, columns)).astype(np.float32)
    updates = rng.standard_normal((count, columns)).astype(np.float32)
    expected = data.copy()
    np.add.at(expected, rows, updates)
    stored = np.where(rng.random(count) < 0.3, rows - targets, rows)
    got = vkindex.scatter_nd(data, stored[:, None], updates, "add")
    ref.assert_same(got, expected)


@pytest.mark.parametrize("kind", ["int32", "uint32", "int64", "uint64", "int8", "uint16"])
@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min"])
def test_integer_reductions_wrap(rng, kind, reduction):
    """Integers wrap at their width; 5000 updates onto 5 targets."""
    info = np.iinfo(kind)
    data = rng.integers(info.min, info.max, 5, dtype=kind, endpoint=True)
    updates = rng.integers(info.min, info.max, 5000, dtype=kind, endpoint=True)
    rows = rng.integers(0, 5, 5000)
    expected = data.copy()
    ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[reduction]
    with np.errstate(all="ignore"):
        ufunc.at(expected, rows, updates)
    got = vkindex.scatter_nd(data, rows[:, None], updates, reduction)
    ref.assert_same(got, expected)
