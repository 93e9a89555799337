// TensorProto -> HostTensor. ONNX lets a writer put the elements in raw_data or in one typed field
// chosen by the element type; every form decodes to the same packed little-endian bytes.
#include <climits>
#include <cstring>
#include <vector>

#include "base/host_memory.hpp"
#include "onnx_proto_decode.hpp"
#include "proto_file.hpp"
#include "quote.hpp"

namespace vkindex::onnxio {
namespace {

// Cap on the element count so that count * 16 (the widest element) still fits in int64.
constexpr int64_t kMaxElements = INT64_MAX / 16;

// Where a TensorProto keeps its elements.
enum class Storage { kNone, kRaw, kFloat, kInt32, kString, kInt64, kDouble, kUInt64 };

const char* storageName(Storage storage) {
  switch (storage) {
    case Storage::kNone: return "no data";
    case Storage::kRaw: return "raw_data";
    case Storage::kFloat: return "float_data";
    case Storage::kInt32: return "int32_data";
    case Storage::kString: return "string_data";
    case Storage::kInt64: return "int64_data";
    case Storage::kDouble: return "double_data";
    case Storage::kUInt64: return "uint64_data";
  }
  return "unknown storage";
}

// The typed field onnx.proto assigns to each element type.
Storage typedStorageFor(DataType type) {
  if (!isClassicDataType(type)) return Storage::kInt32;  // float8 bit patterns, packed 4-bit pairs
  switch (type) {
    case DataType::kFloat32:
    case DataType::kComplex64: return Storage::kFloat;
    case DataType::kBool:
    case DataType::kInt8:
    case DataType::kUInt8:
    case DataType::kInt16:
    case DataType::kUInt16:
    case DataType::kInt32:
    case DataType::kFloat16:
    case DataType::kBFloat16: return Storage::kInt32;
    case DataType::kInt64: return Storage::kInt64;
    case DataType::kUInt32:
    case DataType::kUInt64: return Storage::kUInt64;
    case DataType::kFloat64:
    case DataType::kComplex128: return Storage::kDouble;
    case DataType::kString: return Storage::kString;
    default: break;  // the low-precision types: above
  }
  return Storage::kNone;
}

int64_t typedFieldSize(const onnx::TensorProto& proto, Storage storage) {
  switch (storage) {
    case Storage::kFloat: return proto.float_data_size();
    case Storage::kInt32: return proto.int32_data_size();
    case Storage::kString: return proto.string_data_size();
    case Storage::kInt64: return proto.int64_data_size();
    case Storage::kDouble: return proto.double_data_size();
    case Storage::kUInt64: return proto.uint64_data_size();
    case Storage::kNone:
    case Storage::kRaw: break;
  }
  return 0;
}

bool isComplex(DataType type) { return type == DataType::kComplex64 || type == DataType::kComplex128; }

// Typed-field entries holding `count` elements: two per complex element (real, imaginary), one per
// packed pair of 4-bit elements (onnx.proto: the first in the low nibble), one per element otherwise.
int64_t typedEntriesFor(DataType type, int64_t count) {
  if (isComplex(type)) return 2 * count;
  if (elementBits(type) == 4) return count / 2 + count % 2;
  return count;
}

// Inclusive value range and byte width of each type that rides in int32_data. float16/bfloat16 are
// their unsigned 16-bit patterns, which is how onnx.helper writes them; the float8 types their 8-bit
// patterns, and the 4-bit types a packed pair per entry.
struct Int32Slot {
  int64_t lo, hi;
  size_t width;
};

Int32Slot int32SlotFor(DataType type) {
  if (!isClassicDataType(type)) return {0, 255, 1};  // a float8 bit pattern or a packed 4-bit pair
  switch (type) {
    case DataType::kBool: return {0, 1, 1};
    case DataType::kInt8: return {-128, 127, 1};
    case DataType::kUInt8: return {0, 255, 1};
    case DataType::kInt16: return {-32768, 32767, 2};
    case DataType::kUInt16:
    case DataType::kFloat16:
    case DataType::kBFloat16: return {0, 65535, 2};
    default: return {INT32_MIN, INT32_MAX, 4};
  }
}

// Appends the low `width` bytes of `bits`, least significant first, independent of host byte order.
void appendLittleEndian(std::vector<uint8_t>* out, uint64_t bits, size_t width) {
  for (size_t i = 0; i < width; ++i) out->push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

uint64_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

uint64_t doubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// Decodes the typed field into `tensor->bytes`; sizes have been checked by the caller, values not yet.
Status unpackTypedField(const onnx::TensorProto& proto, Storage storage, const std::string& where, HostTensor* tensor) {
  std::vector<uint8_t>& out = tensor->bytes;
  const DataType type = tensor->dtype;
  const uint64_t entries = static_cast<uint64_t>(typedFieldSize(proto, storage));
  const uint64_t out_bytes = elementBits(type) == 4 ? entries : entries * elementSize(type) / (isComplex(type) ? 2 : 1);
  VKINDEX_RETURN_IF_ERROR(checkHostAllocation(out_bytes, where + ": decoding " + storageName(storage)));
  out.reserve(static_cast<size_t>(out_bytes));
  switch (storage) {
    case Storage::kFloat:
      for (float value : proto.float_data()) appendLittleEndian(&out, floatBits(value), 4);
      break;
    case Storage::kDouble:
      for (double value : proto.double_data()) appendLittleEndian(&out, doubleBits(value), 8);
      break;
    case Storage::kInt64:
      for (int64_t value : proto.int64_data()) appendLittleEndian(&out, static_cast<uint64_t>(value), 8);
      break;
    case Storage::kInt32: {
      const Int32Slot slot = int32SlotFor(type);
      for (int i = 0; i < proto.int32_data_size(); ++i) {
        const int64_t value = proto.int32_data(i);
        if (value < slot.lo || value > slot.hi) {
          return invalidArgument(where + ": int32_data[" + std::to_string(i) + "] = " + std::to_string(value) +
                                 " is out of range for " + dataTypeName(type));
        }
        appendLittleEndian(&out, static_cast<uint64_t>(value), slot.width);
      }
      break;
    }
    case Storage::kUInt64: {
      const size_t width = elementSize(type);
      for (int i = 0; i < proto.uint64_data_size(); ++i) {
        const uint64_t value = proto.uint64_data(i);
        if (width == 4 && value > UINT32_MAX) {
          return invalidArgument(where + ": uint64_data[" + std::to_string(i) + "] = " + std::to_string(value) +
                                 " is out of range for uint32");
        }
        appendLittleEndian(&out, value, width);
      }
      break;
    }
    case Storage::kString: tensor->strings.assign(proto.string_data().begin(), proto.string_data().end()); break;
    case Storage::kNone:
    case Storage::kRaw: break;
  }
  return Status::Ok();
}

// Validates dims and returns the element count, refusing negative sizes and counts past kMaxElements.
// A zero dim empties the tensor wherever it sits, whatever the other dims hold ([0, INT64_MAX] has no
// element, as ONNX Runtime reads it too): the zeros are found before any dim is multiplied, so no
// product can overflow on the way to 0.
StatusOr<int64_t> checkedElementCount(const onnx::TensorProto& proto, const std::string& where) {
  const std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  bool empty = false;
  for (size_t axis = 0; axis < dims.size(); ++axis) {
    if (dims[axis] < 0) {
      return invalidArgument(where + ": negative dimension " + std::to_string(dims[axis]) + " at axis " +
                             std::to_string(axis) + " in dims " + formatDims(dims));
    }
    empty = empty || dims[axis] == 0;
  }
  if (empty) return 0;
  int64_t count = 1;
  for (const int64_t dim : dims) {
    if (count > kMaxElements / dim) {
      return invalidArgument(where + ": dims " + formatDims(dims) + " are too large: they multiply past " +
                             std::to_string(kMaxElements) + " elements");
    }
    count *= dim;
  }
  return count;
}

// ONNX's bool is one byte, 0 or 1 (the typed field's values are checked likewise). raw_data is copied
// as it is, so a byte such as 2 would reach the operators as a bool that is neither: refused, naming the
// first one.
Status checkBoolBytes(const std::string& raw, const std::string& where) {
  for (size_t i = 0; i < raw.size(); ++i) {
    const auto byte = static_cast<uint8_t>(raw[i]);
    if (byte > 1) {
      return invalidArgument(where + ": raw_data[" + std::to_string(i) + "] = " + std::to_string(byte) +
                             " is not a bool (allowed 0 and 1)");
    }
  }
  return Status::Ok();
}

// Picks the single place the elements live, rejecting tensors that fill two of them.
StatusOr<Storage> findStorage(const onnx::TensorProto& proto, const std::string& where) {
  Storage found = proto.has_raw_data() ? Storage::kRaw : Storage::kNone;
  for (Storage typed :
       {Storage::kFloat, Storage::kInt32, Storage::kString, Storage::kInt64, Storage::kDouble, Storage::kUInt64}) {
    if (typedFieldSize(proto, typed) == 0) continue;
    if (found != Storage::kNone) {
      return invalidArgument(where + ": has both " + storageName(found) + " and " + storageName(typed) +
                             "; a tensor keeps its elements in one place");
    }
    found = typed;
  }
  return found;
}

}  // namespace

StatusOr<HostTensor> decodeTensorProto(const onnx::TensorProto& proto, const std::string& origin) {
  const std::string where = origin + ": tensor " + (proto.name().empty() ? "(unnamed)" : quoteName(proto.name()));
  if (proto.data_location() == onnx::TensorProto_DataLocation_EXTERNAL || proto.external_data_size() > 0) {
    return unsupported(where + ": data stored in an external file (data_location EXTERNAL) is not supported");
  }
  if (proto.has_segment()) return unsupported(where + ": segmented tensors are not supported");

  if (proto.data_type() == onnx::TensorProto_DataType_UNDEFINED) {
    return invalidArgument(where + ": data_type is not set (UNDEFINED)");
  }
  const std::optional<DataType> dtype = dataTypeFromOnnx(proto.data_type());
  if (!dtype) {
    return unsupported(where + ": data_type code " + std::to_string(proto.data_type()) + " is not supported");
  }

  VKINDEX_ASSIGN_OR_RETURN(const int64_t count, checkedElementCount(proto, where));
  VKINDEX_ASSIGN_OR_RETURN(const Storage storage, findStorage(proto, where));

  HostTensor tensor;
  tensor.name = proto.name();
  tensor.dtype = *dtype;
  tensor.dims.assign(proto.dims().begin(), proto.dims().end());
  const std::string shape_text = "dims " + formatDims(tensor.dims) + " of " + dataTypeName(*dtype);

  if (storage == Storage::kNone) {
    if (count == 0) return tensor;
    return invalidArgument(where + ": has no data but " + shape_text + " need " + std::to_string(count) + " elements");
  }

  if (storage == Storage::kRaw) {
    if (*dtype == DataType::kString) {
      return invalidArgument(where + ": string tensors cannot use raw_data (ONNX stores them in string_data)");
    }
    const int64_t need = static_cast<int64_t>(packedByteSize(*dtype, static_cast<uint64_t>(count)));
    const std::string& raw = proto.raw_data();
    if (static_cast<int64_t>(raw.size()) != need) {
      return invalidArgument(where + ": raw_data has " + std::to_string(raw.size()) + " bytes but " + shape_text +
                             " need " + std::to_string(need));
    }
    if (*dtype == DataType::kBool) VKINDEX_RETURN_IF_ERROR(checkBoolBytes(raw, where));
    // raw_data is little-endian by definition, which is already the HostTensor layout.
    VKINDEX_RETURN_IF_ERROR(checkHostAllocation(raw.size(), where + ": decoding raw_data"));
    tensor.bytes.assign(raw.begin(), raw.end());
    return tensor;
  }

  const Storage expected = typedStorageFor(*dtype);
  if (storage != expected) {
    return invalidArgument(where + ": " + storageName(storage) + " cannot hold " + dataTypeName(*dtype) +
                           " elements (expected " + storageName(expected) + ")");
  }
  const int64_t need = typedEntriesFor(*dtype, count);
  const int64_t have = typedFieldSize(proto, storage);
  if (have != need) {
    return invalidArgument(where + ": " + storageName(storage) + " has " + std::to_string(have) + " values but " +
                           shape_text + " need " + std::to_string(need));
  }
  VKINDEX_RETURN_IF_ERROR(unpackTypedField(proto, storage, where, &tensor));
  return tensor;
}

StatusOr<HostTensor> readTensorFile(const std::string& path) {
  onnx::TensorProto proto;
  VKINDEX_RETURN_IF_ERROR(parseProtoFile(path, "TensorProto", &proto));
  return decodeTensorProto(proto, path);
}

}  // namespace vkindex::onnxio
