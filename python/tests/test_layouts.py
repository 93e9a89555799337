"""Arrays in any memory layout and byte order (docs/python.md, Types): non-contiguous slices, negative
strides, transposes, Fortran order and big-endian arrays give the bytes their packed little-endian
copies give."""
import numpy as np
import pytest

import reference as ref
import vkindex


def layouts(base):
    """(name, view) pairs of non-contiguous or non-native arrays holding base's values, base of rank 2."""
    rows, cols = base.shape
    wide = np.zeros((rows * 2, cols * 3), dtype=base.dtype)
    wide[::2, 1::3] = base
    big = base.astype(base.dtype.newbyteorder(">")) if base.dtype.itemsize > 1 and base.dtype != object else None
    result = [
        ("strided", wide[::2, 1::3]),
        ("reversed", base[::-1, ::-1][::-1, ::-1]),
        ("negative-stride", np.ascontiguousarray(base[::-1])[::-1]),
        ("transposed", np.ascontiguousarray(base.T).T),
        ("fortran", np.asfortranarray(base)),
    ]
    if big is not None:
        result.append(("big-endian", big))
        result.append(("big-endian-fortran", np.asfortranarray(big)))
    for name, view in result:
        assert np.array_equal(ref.raw(view), ref.raw(base)) if base.dtype != object else \
            (view == base).all(), name
    return result


@pytest.mark.parametrize("kind", ["float32", "int64", "float64", "complex64", "uint16", "int8"])
def test_data_layouts_every_operator(rng, kind):
    base = ref.random_values(rng, kind, (5, 4))
    indices = ref.random_indices(rng, (3,), 4)
    element_indices = ref.random_indices(rng, (5, 6), 4)
    nd = ref.random_indices(rng, (3, 1), 5)
    updates = ref.random_values(rng, kind, (5, 6))
    row_updates = ref.random_values(rng, kind, (3, 4))
    expected = [
        ref.gather(base, indices, 1),
        ref.gather_elements(base, element_indices, 1),
        ref.gather_nd(base, nd),
        ref.scatter_elements(base, element_indices, updates, 1),
        ref.scatter_nd(base, nd, row_updates),
    ]
    for name, data in layouts(base):
        got = [
            vkindex.gather(data, indices, 1),
            vkindex.gather_elements(data, element_indices, 1),
            vkindex.gather_nd(data, nd),
            vkindex.scatter_elements(data, element_indices, updates, 1),
            vkindex.scatter_nd(data, nd, row_updates),
        ]
        for op, (g, e) in enumerate(zip(got, expected)):
            assert ref.same_bytes(g, e), "%s, operator %d: %s" % (name, op, ref.describe(g, e))


def test_indices_and_updates_layouts(rng):
    data = ref.random_values(rng, "float32", (6, 5))
    base_indices = ref.random_indices(rng, (6, 5), 5)
    base_updates = rng.standard_normal((6, 5)).astype(np.float32)
    expected_gather = ref.gather_elements(data, base_indices, 1)
    expected_scatter = ref.scatter_elements(data, base_indices, base_updates, 1, "add")
    index_forms = layouts(base_indices) + [("int32-big-endian", base_indices.astype(">i4"))]
    update_forms = layouts(base_updates)
    for (index_name, indices), (update_name, updates) in zip(index_forms, update_forms * 2):
        got = vkindex.gather_elements(data, indices, 1)
        assert ref.same_bytes(got, expected_gather), index_name + ": " + ref.describe(got, expected_gather)
        got = vkindex.scatter_elements(data, indices, updates, 1, "add")
        assert ref.same_bytes(got, expected_scatter), "%s/%s: %s" % (index_name, update_name,
                                                                     ref.describe(got, expected_scatter))


def test_host_indices_layouts(rng):
    """Host indices (gather, gather_nd): strided and big-endian ones too."""
    data = ref.random_values(rng, "int32", (7, 3))
    wide = ref.random_indices(rng, (20,), 7)
    for indices in (wide[::3], wide[::-2], wide.astype(">i8")[1::2], wide.astype(">i4"),
                    np.asfortranarray(wide.reshape(4, 5))):
        ref.assert_same(vkindex.gather(data, indices), ref.gather(data, np.ascontiguousarray(indices)))
    tuples = ref.random_indices(rng, (2, 6), 3)
    ref.assert_same(vkindex.gather_nd(data, tuples.T), ref.gather_nd(data, np.ascontiguousarray(tuples.T)))


def test_big_endian_bfloat16_bits(rng):
    bits = ref.random_values(rng, "uint16", (4, 3))
    got = vkindex.gather(bits.astype(">u2"), [2, 0], dtype="bfloat16")
    ref.assert_same(got, bits[[2, 0]])


def test_strings_non_contiguous(rng):
    strings = ref.random_values(rng, "string", (6, 4))
    u = np.array(strings.tolist(), dtype=str)
    for view, expected in ((u[::2, ::-1], strings[::2, ::-1]), (u.T, strings.T), (np.asfortranarray(u), strings)):
        got = vkindex.gather(view, [1, -1], axis=1)
        ref.assert_same(got, ref.gather(np.ascontiguousarray(expected), [1, -1], 1))


def test_tensor_from_non_contiguous(rng):
    base = ref.random_values(rng, "float64", (5, 4))
    for name, view in layouts(base):
        tensor = vkindex.Tensor.from_numpy(view)
        assert tensor.shape == (5, 4), name
        ref.assert_same(tensor.numpy(), base)


def test_large_strided_gather(rng):
    """A 2-million-element strided, big-endian table: the same bytes as its contiguous copy."""
    base = rng.standard_normal((4096, 1024)).astype(">f4")[:, ::2]
    indices = rng.integers(-4096, 4096, 4096)
    got = vkindex.gather(base, indices)
    ref.assert_same(got, np.take(np.ascontiguousarray(base).astype("<f4"), indices, axis=0))
