"""Devices and contexts (docs/python.md, "Contexts and devices")."""
import gc

import numpy as np
import pytest

import reference as ref
import vkindex


def test_devices_listed():
    devices = vkindex.devices()
    assert len(devices) >= 1
    for position, info in enumerate(devices):
        assert info.index == position
        assert isinstance(info.name, str) and info.name
        for field in ("type", "driver_name", "api_version"):
            assert hasattr(info, field), field


def test_session_context_is_the_default(ctx):
    assert vkindex.default_context() is ctx
    assert ctx.device.name in [info.name for info in vkindex.devices()]
    assert isinstance(ctx.validation_message_count, int)


def test_context_by_index_and_by_name_part(ctx):
    index = [info.name for info in vkindex.devices()].index(ctx.device.name)
    by_index = vkindex.Context(index)
    assert by_index.device.name == ctx.device.name
    part = ctx.device.name.split()[0].swapcase()  # a case-insensitive part of the name
    by_name = vkindex.Context(device=part)
    assert by_name.device.name == ctx.device.name
    data = np.arange(10, dtype=np.int32)
    got = vkindex.gather(data, [9, -10], context=by_name)
    ref.assert_same(got, data[[9, 0]])
    tensor = vkindex.Tensor.from_numpy(data, context=by_index)
    assert tensor.context is by_index
    # a Tensor input gives its own context: the result lives there too
    result = vkindex.gather(tensor, [1])
    assert result.context is by_index
    ref.assert_same(result.numpy(), data[[1]])


def test_unknown_device_refused():
    with pytest.raises(vkindex.Error):
        vkindex.Context(device="no such device name 0xdeadbeef")


def test_tensor_keeps_its_context_alive():
    context = vkindex.Context()
    tensor = vkindex.Tensor.from_numpy(np.arange(5, dtype=np.float64), context=context)
    del context
    gc.collect()
    got = vkindex.gather(tensor, [4, 0])
    ref.assert_same(got.numpy(), np.array([4.0, 0.0]))
    ref.assert_same(tensor.numpy(), np.arange(5, dtype=np.float64))


def test_explicit_context_argument(ctx):
    data = np.arange(6, dtype=np.uint8).reshape(2, 3)
    ref.assert_same(vkindex.gather_elements(data, [[2, 0, 1]], 1, context=ctx), np.array([[2, 0, 1]], np.uint8))
    ref.assert_same(vkindex.scatter_nd(data, [[1]], np.full((1, 3), 9, np.uint8), context=ctx),
                    np.array([[0, 1, 2], [9, 9, 9]], np.uint8))
