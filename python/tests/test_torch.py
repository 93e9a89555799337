"""The scatter reductions against PyTorch where it defines them the same: torch.scatter_reduce
(include_self=True) is ScatterElements, torch.index_add is ScatterND on the leading axis (and
ScatterElements with broadcast indices on another). PyTorch does not promise an order for float
reductions, so the floats here hold small integers whose sums and products are exact in any order;
integer types are exact (wrapping) whatever the order."""
import numpy as np
import pytest

import reference as ref
import vkindex

try:
    import torch
except Exception as error:  # noqa: BLE001 - any import failure means no torch
    torch = None
    TORCH_ERROR = repr(error)
else:
    TORCH_ERROR = ""

pytestmark = [pytest.mark.skipif(torch is None, reason="PyTorch is not importable: %s" % TORCH_ERROR),
              pytest.mark.filterwarnings("ignore:scatter_reduce\\(\\) is in beta")]

TORCH_REDUCE = {"add": "sum", "mul": "prod", "max": "amax", "min": "amin"}
KINDS = ["int32", "int64", "int16", "uint8", "int8", "float32", "float64", "float16", "bfloat16"]


def as_torch(array, kind):
    if kind == "bfloat16":
        return torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
    return torch.from_numpy(array.copy())


def from_torch(tensor, kind):
    if kind == "bfloat16":
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


def values(rng, kind, shape, reduction):
    """Small integers: exact sums (add), factors of magnitude <= 2 in few duplicates (mul)."""
    if reduction == "mul":
        pool = np.array([1, 2, -1, 1, 3] if kind != "uint8" else [1, 2, 1, 3])
        base = pool[rng.integers(0, len(pool), int(np.prod(shape)))].reshape(shape)
    else:
        low = 0 if kind == "uint8" else -9
        base = rng.integers(low, 10, shape)
    if kind == "bfloat16":
        return ref.f32_array_to_bf16(base.astype(np.float32))
    return base.astype(kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min"])
@pytest.mark.parametrize("dim", [0, 1])
def test_scatter_reduce(rng, kind, reduction, dim):
    shape = (6, 5)
    index_shape = (12, 4) if dim == 0 else (4, 9)
    size = shape[dim]
    index = rng.integers(0, size, index_shape)
    data = values(rng, kind, shape, reduction)
    src = values(rng, kind, index_shape, reduction)
    expected = torch.scatter_reduce(as_torch(data, kind), dim, torch.from_numpy(index), as_torch(src, kind),
                                    TORCH_REDUCE[reduction], include_self=True)
    extra = {"dtype": "bfloat16"} if kind == "bfloat16" else {}
    got = vkindex.scatter_elements(data, index, src, dim, reduction, **extra)
    ref.assert_same(got, from_torch(expected, kind))


@pytest.mark.parametrize("kind", ["int32", "int64", "uint8", "float32", "float64", "float16"])
def test_scatter_reduce_integer_wrap(rng, kind):
    """Duplicate-heavy sums that wrap for integers (torch wraps too); floats exact."""
    count = 3000
    index = rng.integers(0, 4, count)
    if kind.startswith("float"):
        data = rng.integers(-50, 50, 4).astype(kind)
        src = rng.integers(-3, 4, count).astype(kind)  # partial sums stay well inside float16's exact range
    else:
        info = np.iinfo(kind)
        data = rng.integers(info.min, info.max, 4, dtype=kind, endpoint=True)
        src = rng.integers(info.min, info.max, count, dtype=kind, endpoint=True)
    expected = torch.scatter_reduce(torch.from_numpy(data), 0, torch.from_numpy(index), torch.from_numpy(src),
                                    "sum", include_self=True)
    got = vkindex.scatter_elements(data, index, src, 0, "add")
    ref.assert_same(got, expected.numpy())


@pytest.mark.parametrize("kind", ["int32", "int64", "float32", "float64", "float16", "bfloat16"])
def test_index_add_rows(rng, kind):
    """torch.index_add along dim 0: ScatterND with k = 1 and reduction add."""
    data = values(rng, kind, (7, 3, 2), "add")
    index = rng.integers(0, 7, 40)
    source = values(rng, kind, (40, 3, 2), "add")
    expected = torch.index_add(as_torch(data, kind), 0, torch.from_numpy(index), as_torch(source, kind))
    extra = {"dtype": "bfloat16"} if kind == "bfloat16" else {}
    got = vkindex.scatter_nd(data, index[:, None], source, "add", **extra)
    ref.assert_same(got, from_torch(expected, kind))


def test_index_add_inner_dim(rng):
    """torch.index_add along dim 1: ScatterElements with the index broadcast over the other dims."""
    data = rng.integers(-100, 100, (4, 6)).astype(np.int64)
    index = rng.integers(0, 6, 15)
    source = rng.integers(-100, 100, (4, 15)).astype(np.int64)
    expected = torch.index_add(torch.from_numpy(data), 1, torch.from_numpy(index), torch.from_numpy(source))
    got = vkindex.scatter_elements(data, np.broadcast_to(index, (4, 15)), source, axis=1, reduction="add")
    ref.assert_same(got, expected.numpy())


def test_scatter_none_unique_indices_matches_torch_scatter(rng):
    """torch.Tensor.scatter (no reduction) with unique targets, where its result is defined."""
    data = rng.standard_normal((5, 8)).astype(np.float32)
    index = np.stack([rng.permutation(8)[:6] for _ in range(3)])
    src = rng.standard_normal((3, 6)).astype(np.float32)
    expected = torch.from_numpy(data.copy()).scatter(1, torch.from_numpy(index), torch.from_numpy(src))
    got = vkindex.scatter_elements(data, index, src, axis=1)
    ref.assert_same(got, expected.numpy())
