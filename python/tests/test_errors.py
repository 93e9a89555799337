"""Errors: the exception classes, their codes, vkindex's exact messages (src/ops/op_state.cpp,
src/plan/*.cpp), nothing written on a bad index, and no crash on odd input."""
import numpy as np
import pytest

import reference as ref
import vkindex

CLASSES = [
    ("InvalidArgumentError", "invalid argument", ValueError),
    ("OutOfRangeError", "out of range", IndexError),
    ("UnsupportedError", "unsupported", NotImplementedError),
    ("DeviceError", "device error", RuntimeError),
    ("InternalError", "internal error", RuntimeError),
    ("ResourceExhaustedError", "resource exhausted", MemoryError),
]


@pytest.mark.parametrize("name,code,builtin", CLASSES)
def test_exception_hierarchy(name, code, builtin):
    cls = getattr(vkindex, name)
    assert issubclass(cls, vkindex.Error)
    assert issubclass(cls, builtin)
    assert issubclass(vkindex.Error, Exception)
    # the code each class carries, as docs/python.md's table names it
    assert getattr(cls, "code", None) == code


def expect(cls, call):
    with pytest.raises(cls) as info:
        call()
    error = info.value
    assert isinstance(error, vkindex.Error)
    assert str(error) == error.message
    return error


def test_out_of_range_error_fields():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    error = expect(vkindex.OutOfRangeError, lambda: vkindex.gather(table, np.array([4])))
    assert isinstance(error, IndexError)
    assert error.code == "out of range"
    assert error.message == "Gather: indices[0] = 4 is out of range for axis 0 of size 4 (allowed [-4, 3])"


def test_invalid_argument_error_fields():
    error = expect(vkindex.InvalidArgumentError, lambda: vkindex.gather(np.zeros((2, 2)), [0], axis=2))
    assert isinstance(error, ValueError)
    assert error.code == "invalid argument"
    assert error.message == ("Gather: attribute 'axis' = 2 is out of range for input 'data' of rank 2 "
                             "(allowed [-2, 1])")


# --- Bad index values: exact messages ---------------------------------------------------------------------
@pytest.mark.parametrize("as_tensor", [False, True])  # host indices and device indices
def test_gather_bad_index_messages(as_tensor):
    data = np.zeros((3, 5), np.int32)

    def indices(values):
        array = np.array(values)
        return vkindex.Tensor.from_numpy(array) if as_tensor else array

    error = expect(vkindex.OutOfRangeError, lambda: vkindex.gather(data, indices([[0, 1, 2], [4, -6, 5]]), 1))
    assert error.message == "Gather: indices[1, 1] = -6 is out of range for axis 1 of size 5 (allowed [-5, 4])"
    error = expect(vkindex.OutOfRangeError, lambda: vkindex.gather(data, indices([2**32 + 1]), 0))
    assert error.message == "Gather: indices[0] = 4294967297 is out of range for axis 0 of size 3 (allowed [-3, 2])"
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.gather(data, indices(np.array([0, ref.INT64_MIN], np.int64)), 0))
    assert error.message == ("Gather: indices[1] = -9223372036854775808 is out of range for axis 0 of size 3 "
                             "(allowed [-3, 2])")
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.gather(data, indices(np.array([1, 2, 3], np.int32)), 0))
    assert error.message == "Gather: indices[2] = 3 is out of range for axis 0 of size 3 (allowed [-3, 2])"


def test_gather_empty_axis_message():
    error = expect(vkindex.OutOfRangeError, lambda: vkindex.gather(np.zeros((2, 0), np.float32), [0], 1))
    assert error.message == ("Gather: indices[0] = 0 is out of range for axis 1 of size 0 "
                             "(an empty axis admits no index)")


def test_gather_elements_bad_index_message():
    data = np.zeros((2, 3), np.float32)
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.gather_elements(data, np.array([[0, 1], [2, 3]]), axis=1))
    assert error.message == ("GatherElements: indices[1, 1] = 3 is out of range for axis 1 of size 3 "
                             "(allowed [-3, 2])")


def test_gather_nd_bad_component_message():
    data = np.zeros((4, 5, 2), np.float32)
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.gather_nd(data, np.array([[0, 0], [1, 7], [9, 9]])))
    assert error.message == ("GatherND: indices[1] (component 1) = 7 is out of range for data dim 1 of size 5 "
                             "(allowed [-5, 4])")
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.gather_nd(data, np.array([[[0], [3]], [[-6], [1]], [[0], [0]], [[0], [0]]]),
                                             batch_dims=1))
    assert error.message == ("GatherND: indices[1, 0] (component 0) = -6 is out of range for data dim 1 of size 5 "
                             "(allowed [-5, 4])")


def test_first_bad_index_is_reported(rng):
    """Many bad indices: the message names the first (lowest position)."""
    indices = rng.integers(0, 100, 100000)
    indices[70001] = 100
    indices[90000] = -101
    indices[99999] = 5000
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.scatter_elements(np.zeros(100, np.int8), indices, np.ones(100000, np.int8)))
    assert error.message == ("ScatterElements: indices[70001] = 100 is out of range for axis 0 of size 100 "
                             "(allowed [-100, 99])")


@pytest.mark.parametrize("reduction", ["none", "add"])
def test_scatter_nd_bad_index_leaves_tensor_unchanged(rng, reduction):
    data = rng.standard_normal((6, 4)).astype(np.float32)
    t = vkindex.Tensor.from_numpy(data)
    indices = np.array([[0], [5], [-7], [2]])
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.scatter_nd(t, indices, np.ones((4, 4), np.float32), reduction, in_place=True))
    assert error.message == ("ScatterND: indices[2] (component 0) = -7 is out of range for data dim 0 of size 6 "
                             "(allowed [-6, 5])")
    ref.assert_same(t.numpy(), data)  # rows 0 and 5, before the bad tuple, not written either


def test_scatter_elements_bad_index_leaves_tensor_unchanged(rng):
    data = rng.integers(0, 100, (3, 4)).astype(np.int64)
    t = vkindex.Tensor.from_numpy(data)
    indices = np.array([[0, 1, 2, 3], [1, 1, 4, 0]])
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.scatter_elements(t, indices, np.ones((2, 4), np.int64), axis=1, reduction="mul",
                                                    in_place=True))
    assert error.message == ("ScatterElements: indices[1, 2] = 4 is out of range for axis 1 of size 4 "
                             "(allowed [-4, 3])")
    ref.assert_same(t.numpy(), data)


def test_scatter_nd_two_component_message():
    error = expect(vkindex.OutOfRangeError,
                   lambda: vkindex.scatter_nd(np.zeros((2, 3), np.uint8), np.array([[[1, 2]], [[1, -4]]]),
                                              np.zeros((2, 1), np.uint8)))
    assert error.message == ("ScatterND: indices[1, 0] (component 1) = -4 is out of range for data dim 1 of size 3 "
                             "(allowed [-3, 2])")


# --- Malformed calls ------------------------------------------------------------------------------------
def test_bad_axis_messages():
    data = np.zeros((2, 3), np.float32)
    error = expect(vkindex.InvalidArgumentError, lambda: vkindex.gather(data, [0], axis=-3))
    assert error.message == ("Gather: attribute 'axis' = -3 is out of range for input 'data' of rank 2 "
                             "(allowed [-2, 1])")
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.gather_elements(data, np.zeros((2, 3), np.int64), axis=2))
    assert error.message == ("GatherElements: attribute 'axis' = 2 is out of range for input 'data' of rank 2 "
                             "(allowed [-2, 1])")
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.scatter_elements(data, np.zeros((2, 3), np.int64), data, axis=-5))
    assert error.message == ("ScatterElements: attribute 'axis' = -5 is out of range for input 'data' of rank 2 "
                             "(allowed [-2, 1])")


@pytest.mark.parametrize("axis", [2**62, -2**62, 2**63 - 1])
def test_huge_axis_values(axis):
    error = expect(vkindex.InvalidArgumentError, lambda: vkindex.gather(np.zeros(3), [0], axis=axis))
    assert error.message == ("Gather: attribute 'axis' = %d is out of range for input 'data' of rank 1 "
                             "(allowed [-1, 0])" % axis)


def test_axis_beyond_int64_does_not_crash():
    with pytest.raises((vkindex.Error, TypeError, OverflowError, ValueError)):
        vkindex.gather(np.zeros(3), [0], axis=2**64)


def test_batch_dims_out_of_range():
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.gather_nd(np.zeros((2, 3)), np.zeros((2, 1), np.int64), batch_dims=2))
    assert error.message == ("GatherND: attribute 'batch_dims' = 2 is out of range for input 'data' of rank 2 "
                             "and input 'indices' of rank 2 (allowed [0, 1])")


@pytest.mark.parametrize("op", ["scatter_elements", "scatter_nd"])
@pytest.mark.parametrize("bad", ["sum", "ADD", "", "maximum"])
def test_unknown_reduction(op, bad):
    data = np.zeros(4, np.float32)
    call = (lambda: vkindex.scatter_elements(data, [0], np.ones(1, np.float32), reduction=bad)) \
        if op == "scatter_elements" else \
        (lambda: vkindex.scatter_nd(data, [[0]], np.ones(1, np.float32), reduction=bad))
    error = expect(vkindex.InvalidArgumentError, call)
    assert "reduction" in error.message
    assert any(name in error.message for name in ("ScatterElements", "ScatterND", "scatter_elements", "scatter_nd"))


@pytest.mark.parametrize("op", ["gather", "scatter_nd"])
def test_unknown_index_policy(op):
    call = (lambda: vkindex.gather(np.zeros(4), [0], index_policy="wrap")) if op == "gather" else \
        (lambda: vkindex.scatter_nd(np.zeros(4), [[0]], np.ones(1), index_policy="wrap"))
    error = expect(vkindex.InvalidArgumentError, call)
    assert "index_policy" in error.message or "index policy" in error.message


@pytest.mark.parametrize("op", ["gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd",
                                "gather_block_quantized"])
@pytest.mark.parametrize("float_type", [np.float32, np.float64, np.float16])
def test_float_indices_refused(op, float_type):
    data = np.zeros((3, 4), np.float32)
    indices = np.zeros((1, 1), float_type)
    calls = {
        "gather": lambda: vkindex.gather(data, indices),
        "gather_elements": lambda: vkindex.gather_elements(data, indices),
        "gather_nd": lambda: vkindex.gather_nd(data, indices),
        "scatter_elements": lambda: vkindex.scatter_elements(data, indices, np.zeros((1, 1), np.float32)),
        "scatter_nd": lambda: vkindex.scatter_nd(data, indices, np.zeros((1, 4), np.float32)),
        "gather_block_quantized": lambda: vkindex.gather_block_quantized(np.zeros((3, 16), np.uint8), indices[0],
                                                                         np.ones((3, 1), np.float32), block_size=16,
                                                                         dtype="uint4"),
    }
    error = expect(vkindex.InvalidArgumentError, calls[op])
    assert "indices" in error.message


def test_scatter_elements_shape_mismatch():
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.scatter_elements(np.zeros((3, 3), np.float32), np.zeros((2, 2), np.int64),
                                                    np.zeros((2, 3), np.float32)))
    assert error.message == ("ScatterElements: input 'updates' has shape [2, 3] but input 'indices' has shape "
                             "[2, 2]; they must be equal")


def test_scatter_nd_shape_mismatch():
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.scatter_nd(np.zeros((5, 2), np.float32), np.zeros((3, 1), np.int64),
                                              np.zeros((3, 3), np.float32)))
    assert error.message == ("ScatterND: input 'updates' has shape [3, 3], expected [3, 2] "
                             "(indices.shape[:-1] + data.shape[k:])")
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.scatter_nd(np.zeros((5, 2), np.float32), np.zeros((3, 3), np.int64),
                                              np.zeros((3,), np.float32)))
    assert error.message == ("ScatterND: the last dim of input 'indices' is 3, the length of each index tuple, "
                             "which must lie in [0, 2] (data's rank 2)")


def test_gather_elements_rank_mismatch():
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.gather_elements(np.zeros((3, 3), np.float32), np.zeros((3,), np.int64)))
    assert error.message == ("GatherElements: input 'indices' has rank 1 but input 'data' has rank 2; "
                             "they must be equal")
    error = expect(vkindex.InvalidArgumentError,
                   lambda: vkindex.gather_elements(np.zeros((3, 3), np.float32), np.zeros((3, 4), np.int64), 0))
    assert error.message == ("GatherElements: input 'indices' dim 1 = 4 exceeds input 'data' dim 1 = 3 "
                             "(dims other than axis 0 allow at most data's)")


@pytest.mark.parametrize("kind,reduction,allowed", [
    ("complex64", "max", "complex allows none, add, mul"),
    ("complex128", "min", "complex allows none, add, mul"),
    ("bool", "max", "bool allows none, add as OR, mul as AND"),
    ("bool", "min", "bool allows none, add as OR, mul as AND"),
    ("string", "mul", "string allows none, add as concatenation"),
    ("string", "max", "string allows none, add as concatenation"),
])
@pytest.mark.parametrize("op", ["ScatterElements", "ScatterND"])
def test_reduction_not_defined_for_type(kind, reduction, allowed, op):
    if kind == "string":
        data = np.array(["a", "b"], dtype=object)
    else:
        data = np.zeros(2, dtype=kind)
    if op == "ScatterElements":
        call = lambda: vkindex.scatter_elements(data, [1], data[:1], reduction=reduction)  # noqa: E731
    else:
        call = lambda: vkindex.scatter_nd(data, [[1]], data[:1], reduction=reduction)  # noqa: E731
    error = expect(vkindex.InvalidArgumentError, call)
    assert error.message == "%s: reduction '%s' is not defined for %s (%s)" % (op, reduction, kind, allowed)


def test_rank0_data_refused():
    scalar = np.array(3.0, np.float32)
    error = expect(vkindex.InvalidArgumentError, lambda: vkindex.gather(scalar, [0]))
    assert error.message == "Gather: input 'data' must have rank >= 1, got a scalar (rank 0)"
    error = expect(vkindex.InvalidArgumentError, lambda: vkindex.scatter_nd(scalar, [0], scalar))
    assert error.message == "ScatterND: input 'data' must have rank >= 1, got a scalar (rank 0)"
    error = expect(vkindex.InvalidArgumentError, lambda: vkindex.gather_nd(np.zeros(3), np.array(0)))
    assert error.message == "GatherND: input 'indices' must have rank >= 1, got a scalar (rank 0)"


def test_rank0_bad_index_message():
    error = expect(vkindex.OutOfRangeError, lambda: vkindex.gather(np.zeros(4), np.array(7)))
    assert error.message == "Gather: indices[] = 7 is out of range for axis 0 of size 4 (allowed [-4, 3])"


@pytest.mark.parametrize("bad", [None, "text", 3.5, object()])
def test_weird_inputs_do_not_crash(bad):
    with pytest.raises((vkindex.Error, TypeError, ValueError)):
        vkindex.gather(bad, [0])
    with pytest.raises((vkindex.Error, TypeError, ValueError)):
        vkindex.gather(np.zeros(3), bad)


def test_none_updates_and_indices():
    with pytest.raises((vkindex.Error, TypeError, ValueError)):
        vkindex.scatter_nd(np.zeros(3), [[0]], None)
    with pytest.raises((vkindex.Error, TypeError, ValueError)):
        vkindex.scatter_elements(np.zeros(3), None, np.zeros(1))


def test_module_still_works_after_errors():
    for _ in range(3):
        with pytest.raises(vkindex.OutOfRangeError):
            vkindex.gather(np.zeros(4), [9])
    ref.assert_same(vkindex.gather(np.arange(4.0), [3, 1]), np.array([3.0, 1.0]))


def test_options_are_keyword_only():
    """docs/python.md: the arguments after `*` (index_policy, in_place, mode, ...) are keywords only."""
    data = np.zeros(3, np.float32)
    with pytest.raises(TypeError):
        vkindex.gather(data, [0], 0, "skip")
    with pytest.raises(TypeError):
        vkindex.scatter_nd(data, [[0]], np.ones(1, np.float32), "none", "skip")
    with pytest.raises(TypeError):
        vkindex.tensor_scatter(np.zeros((1, 2), np.float32), np.zeros((1, 1), np.float32), None, 1)
