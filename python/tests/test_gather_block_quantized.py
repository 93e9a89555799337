"""GatherBlockQuantized (com.microsoft) against a reference of ONNX Runtime's CPU arithmetic:
(code - zero_point) in float32 times the scale widened to float32 (one IEEE multiply, subnormals kept,
overflow to inf), rounded once to the scales' type; out-of-range indices give zero slices by default."""
import numpy as np
import pytest

import reference as ref
import vkindex


def random_scales(rng, shape, kind):
    """Scales of every magnitude: float32 from subnormal to near FLT_MAX, float16/bfloat16 every finite
    pattern; returned as (array to pass, float32 values for the reference)."""
    count = int(np.prod(shape))
    sign = rng.integers(0, 2, count).astype(np.uint32)
    if kind == "float32":
        exponent = rng.integers(0, 255, count).astype(np.uint32)
        bits = (sign << 31) | (exponent << 23) | rng.integers(0, 1 << 23, count).astype(np.uint32)
        array = bits.view(np.float32).reshape(shape)
        return array, array
    if kind == "float16":
        exponent = rng.integers(0, 31, count).astype(np.uint16)
        bits = (sign.astype(np.uint16) << 15) | (exponent << 10) | rng.integers(0, 1 << 10, count).astype(np.uint16)
        array = bits.view(np.float16).reshape(shape)
        return array, array.astype(np.float32)
    exponent = rng.integers(0, 255, count).astype(np.uint16)
    bits = ((sign.astype(np.uint16) << 15) | (exponent << 7) | rng.integers(0, 1 << 7, count).astype(np.uint16))
    bits = bits.reshape(shape)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def mild_scales(rng, shape, kind):
    """Scales in [0.01, 2), either sign."""
    values = ((rng.random(shape) * 2 + 0.01) * np.where(rng.random(shape) < 0.5, -1, 1)).astype(np.float32)
    if kind == "bfloat16":
        bits = ref.f32_array_to_bf16(values)
        return bits, (bits.astype(np.uint32) << 16).view(np.float32)
    array = values.astype(kind)
    return array, array.astype(np.float32)


def scale_kwargs(kind):
    return {"scales_dtype": "bfloat16"} if kind == "bfloat16" else {}


MIXED_INDICES = np.array([[0, -1, 3], [5, -6, 2]])  # in range for 6 rows
SKIPPED_INDICES = np.array([1, 6, -7, 2**40, -1])   # 6, -7 and 2^40 give zero rows for 6 rows


@pytest.mark.parametrize("with_zero_points", [False, True])
@pytest.mark.parametrize("scale_kind", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("kind", ["uint4", "int4"])
def test_four_bit_embedding(rng, kind, scale_kind, with_zero_points):
    rows, codes_per_row, block = 6, 64, 16
    low, high = (-8, 8) if kind == "int4" else (0, 16)
    numpy_type = np.int8 if kind == "int4" else np.uint8
    codes = rng.integers(low, high, (rows, codes_per_row)).astype(numpy_type)
    scales, scale_values = random_scales(rng, (rows, codes_per_row // block), scale_kind)
    zero_points = rng.integers(low, high, scales.shape).astype(numpy_type) if with_zero_points else None
    for indices in (MIXED_INDICES, SKIPPED_INDICES):
        got = vkindex.gather_block_quantized(codes, indices, scales, zero_points, gather_axis=0, quantize_axis=1,
                                             block_size=block, bits=4, dtype=kind, **scale_kwargs(scale_kind))
        expected = ref.dequantize_gather(codes, indices, scale_values, zero_points, 0, 1, block, scale_kind)
        ref.assert_same(got, expected)


@pytest.mark.parametrize("scale_kind", ["float32", "float16"])
@pytest.mark.parametrize("with_zero_points", [False, True])
@pytest.mark.parametrize("bits", [8, 4, 2])
def test_uint8_codes(rng, bits, with_zero_points, scale_kind):
    """uint8 data: 8 / bits codes per byte along the last axis; default zero point 2^(bits-1)."""
    rows, codes_per_row, block = 5, 64, 16
    codes = rng.integers(0, 1 << bits, (rows, codes_per_row)).astype(np.uint8)
    data = codes if bits == 8 else ref.pack_uint8_rows(codes, bits)
    assert data.shape == (rows, codes_per_row * bits // 8)
    scales, scale_values = mild_scales(rng, (rows, codes_per_row // block), scale_kind)
    if with_zero_points:
        zero_codes = rng.integers(0, 1 << bits, scales.shape).astype(np.uint8)
        zero_points = zero_codes if bits == 8 else ref.pack_uint8_rows(zero_codes, bits)
    else:
        zero_codes, zero_points = None, None
    indices = np.array([4, -5, 7, 0, 0], dtype=np.int32)
    got = vkindex.gather_block_quantized(data, indices, scales, zero_points, quantize_axis=-1, block_size=block,
                                         bits=bits)
    expected = ref.dequantize_gather(codes, indices, scale_values, zero_codes, 0, 1, block, scale_kind,
                                     default_zero_point=1 << (bits - 1))
    ref.assert_same(got, expected)


def test_uint8_two_bit_zero_points_rows_not_filling_bytes(rng):
    """80 codes, block 16: 5 zero points a row, packed 4 per byte with a padded second byte."""
    codes = rng.integers(0, 4, (2, 80)).astype(np.uint8)
    zero_codes = rng.integers(0, 4, (2, 5)).astype(np.uint8)
    scales = np.ones((2, 5), np.float32)
    got = vkindex.gather_block_quantized(ref.pack_uint8_rows(codes, 2), [1, 0], scales,
                                         ref.pack_uint8_rows(zero_codes, 2), block_size=16, bits=2)
    expected = ref.dequantize_gather(codes, np.array([1, 0]), scales, zero_codes, 0, 1, 16, "float32")
    ref.assert_same(got, expected)


@pytest.mark.parametrize("gather_axis,quantize_axis", [(1, 2), (2, 0), (-1, -3), (0, 2), (1, 0)])
def test_int4_other_layouts(rng, gather_axis, quantize_axis):
    shape = [3, 4, 5]
    shape[quantize_axis] = 32
    shape = tuple(shape)
    codes = rng.integers(-8, 8, shape).astype(np.int8)
    scales_shape = list(shape)
    scales_shape[quantize_axis] = 2
    scales, scale_values = mild_scales(rng, tuple(scales_shape), "float32")
    zero_points = rng.integers(-8, 8, scales_shape).astype(np.int8)
    size = shape[gather_axis]
    indices = np.array([[size - 1, -size], [0, size]])  # the last is out of range: a zero slice
    got = vkindex.gather_block_quantized(codes, indices, scales, zero_points, gather_axis=gather_axis,
                                         quantize_axis=quantize_axis, block_size=16, dtype="int4")
    expected = ref.dequantize_gather(codes, indices, scale_values, zero_points, gather_axis, quantize_axis, 16,
                                     "float32")
    ref.assert_same(got, expected)


def finite_float_codes(rng, kind, shape):
    """Random codes whose values are finite (no NaN or infinity codes)."""
    width = 4 if kind == "float4e2m1" else 8
    allowed = [c for c in range(1 << width) if np.isfinite(ref.decode_float_code(kind, c))]
    return np.array(allowed, np.uint8)[rng.integers(0, len(allowed), shape)]


# Each float kind once, the three scale types spread over them (each pair is its own kernel variant, and
# SwiftShader compiles each for about a second).
FLOAT_CODE_CASES = [("float8e4m3fn", "float32"), ("float8e4m3fnuz", "float16"), ("float8e5m2", "bfloat16"),
                    ("float8e5m2fnuz", "float32"), ("float4e2m1", "float16"), ("float4e2m1", "bfloat16")]


@pytest.mark.parametrize("kind,scale_kind", FLOAT_CODE_CASES)
def test_float_codes(rng, kind, scale_kind):
    rows, along = 7, 5  # odd: 4-bit rows start mid-byte
    codes = finite_float_codes(rng, kind, (rows, along))
    scales, scale_values = mild_scales(rng, (rows, 1), scale_kind)  # block_size 0: one block per row
    indices = np.array([6, -7, 3, 7])
    got = vkindex.gather_block_quantized(codes, indices, scales, gather_axis=0, quantize_axis=1, block_size=0,
                                         dtype=kind, **scale_kwargs(scale_kind))
    expected = ref.dequantize_gather(codes, indices, scale_values, None, 0, 1, 0, scale_kind, float_kind=kind)
    ref.assert_same(got, expected)


def test_float8_shared_scale(rng):
    """A scales dim of 1 off quantize_axis is shared along it (one per-tensor scale)."""
    codes = finite_float_codes(rng, "float8e4m3fn", (4, 4))
    scales = np.array([[0.5]], np.float32)
    got = vkindex.gather_block_quantized(codes, [1, 3], scales, block_size=0, dtype="float8e4m3fn")
    expected = ref.dequantize_gather(codes, np.array([1, 3]), np.broadcast_to(scales, (4, 1)), None, 0, 1, 0,
                                     "float32", float_kind="float8e4m3fn")
    ref.assert_same(got, expected)


def test_ort_published_case():
    """ONNX Runtime's GatherAxis0WithZeroPoints (int4, 2x3x4 table, index 1): output 8 10 12 14 / 3 4 5 6 /
    -6 -4 -2 0."""
    table = np.array([-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, -4, -3, -2, -1],
                     np.int8).reshape(2, 3, 4)
    scales = np.array([1.0, 2.0, 1.0, 2.0, 1.0, 2.0], np.float32).reshape(2, 3, 1)
    zero_points = np.array([-1, 1, 0, 0, 1, -1], np.int8).reshape(2, 3, 1)
    got = vkindex.gather_block_quantized(table, np.array([1], np.int32), scales, zero_points, gather_axis=0,
                                         quantize_axis=2, block_size=16, dtype="int4")
    ref.assert_same(got, np.array([8, 10, 12, 14, 3, 4, 5, 6, -6, -4, -2, 0], np.float32).reshape(1, 3, 4))


def test_zero_point_equal_code_negative_scale_gives_negative_zero():
    codes = np.full((1, 16), 5, np.uint8)
    got = vkindex.gather_block_quantized(codes, [0], np.array([[-3.0]], np.float16),
                                         np.array([[5]], np.uint8), block_size=16, dtype="uint4")
    ref.assert_same(got, np.full((1, 16), -0.0, np.float16))


def test_rank0_and_empty_indices(rng):
    codes = rng.integers(0, 16, (3, 32)).astype(np.uint8)
    scales = np.ones((3, 2), np.float32)
    got = vkindex.gather_block_quantized(codes, np.array(2), scales, block_size=16, dtype="uint4")
    ref.assert_same(got, ref.dequantize_gather(codes, np.array(2), scales, None, 0, 1, 16, "float32"))
    got = vkindex.gather_block_quantized(codes, np.zeros((0,), np.int64), scales, block_size=16, dtype="uint4")
    ref.assert_same(got, np.zeros((0, 32), np.float32))


def test_default_attributes(rng):
    """gather_axis 0, quantize_axis 1, block_size 128, bits 4 by default."""
    codes = rng.integers(0, 16, (4, 256)).astype(np.uint8)
    scales, scale_values = mild_scales(rng, (4, 2), "float32")
    got = vkindex.gather_block_quantized(codes, [3, 1], scales, dtype="uint4")
    ref.assert_same(got, ref.dequantize_gather(codes, np.array([3, 1]), scale_values, None, 0, 1, 128, "float32"))


def test_large_embedding(rng):
    """A 4096 x 512 uint4 table, 2048 token ids (1M output elements), float16 scales."""
    codes = rng.integers(0, 16, (4096, 512)).astype(np.uint8)
    scales, scale_values = mild_scales(rng, (4096, 4), "float16")
    zero_points = rng.integers(0, 16, (4096, 4)).astype(np.uint8)
    indices = rng.integers(-4096, 4096, 2048)
    got = vkindex.gather_block_quantized(codes, indices, scales, zero_points, block_size=128, dtype="uint4")
    ref.assert_same(got, ref.dequantize_gather(codes, indices, scale_values, zero_points, 0, 1, 128, "float16"))


def test_tensor_inputs_give_tensor(rng):
    codes = rng.integers(0, 16, (3, 32)).astype(np.uint8)
    scales = np.full((3, 2), 0.5, np.float32)
    data = vkindex.Tensor.from_numpy(codes, dtype="uint4")
    got = vkindex.gather_block_quantized(data, np.array([2, 0]), vkindex.Tensor.from_numpy(scales), block_size=16)
    assert isinstance(got, vkindex.Tensor) and got.dtype == "float" and got.shape == (2, 32)
    ref.assert_same(got.numpy(), ref.dequantize_gather(codes, np.array([2, 0]), scales, None, 0, 1, 16, "float32"))


# --- Errors ---------------------------------------------------------------------------------------------
def test_index_policy_error_message():
    codes = np.zeros((4, 16), np.uint8)
    with pytest.raises(vkindex.OutOfRangeError) as info:
        vkindex.gather_block_quantized(codes, np.array([0, 1, 7, 9]), np.ones((4, 1), np.float32), block_size=16,
                                       dtype="uint4", index_policy="error")
    assert str(info.value) == ("GatherBlockQuantized: indices[2] = 7 is out of range for axis 0 of size 4 "
                               "(allowed [-4, 3])")


def test_bits_not_allowed():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.gather_block_quantized(np.zeros((2, 16), np.uint8), [0], np.ones((2, 1), np.float32), block_size=16,
                                       bits=3)
    assert str(info.value) == ("GatherBlockQuantized: attribute 'bits' = 3 is not allowed for data of type uint8 "
                               "(allowed 2, 4, 8)")


def test_block_size_not_allowed():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.gather_block_quantized(np.zeros((2, 16), np.uint8), [0], np.ones((2, 2), np.float32), block_size=8,
                                       dtype="uint4")
    assert str(info.value) == ("GatherBlockQuantized: attribute 'block_size' = 8 is not allowed for data of type "
                               "uint4 (allowed a power of 2 not less than 16)")


def test_data_type_not_allowed():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.gather_block_quantized(np.zeros((2, 16), np.float32), [0], np.ones((2, 1), np.float32),
                                       block_size=16)
    assert str(info.value) == ("GatherBlockQuantized: input 'data' has type float (allowed int4, uint4, uint8, "
                               "float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float4e2m1)")


def test_scales_shape_wrong():
    with pytest.raises(vkindex.InvalidArgumentError) as info:
        vkindex.gather_block_quantized(np.zeros((2, 32), np.uint8), [0], np.ones((2, 3), np.float32), block_size=16,
                                       dtype="uint4")
    assert str(info.value).startswith("GatherBlockQuantized: input 'scales' has shape [2, 3], expected [2, 2]")
