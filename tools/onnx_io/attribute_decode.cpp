// AttributeProto -> AttributeValue for the attribute kinds vkindex ops use (axis, batch_dims,
// reduction, plus lists and tensors for completeness). Graph-valued attributes are refused.
#include "onnx_proto_decode.hpp"
#include "quote.hpp"

namespace vkindex::onnxio {
namespace {

using AttributeType = onnx::AttributeProto_AttributeType;

// Old models (IR version 1) may leave `type` unset; like the ONNX checker, infer it from the one
// field that carries a value.
AttributeType inferType(const onnx::AttributeProto& proto) {
  if (proto.has_f()) return onnx::AttributeProto_AttributeType_FLOAT;
  if (proto.has_i()) return onnx::AttributeProto_AttributeType_INT;
  if (proto.has_s()) return onnx::AttributeProto_AttributeType_STRING;
  if (proto.has_t()) return onnx::AttributeProto_AttributeType_TENSOR;
  if (proto.has_g()) return onnx::AttributeProto_AttributeType_GRAPH;
  if (proto.has_sparse_tensor()) return onnx::AttributeProto_AttributeType_SPARSE_TENSOR;
  if (proto.has_tp()) return onnx::AttributeProto_AttributeType_TYPE_PROTO;
  if (proto.floats_size() > 0) return onnx::AttributeProto_AttributeType_FLOATS;
  if (proto.ints_size() > 0) return onnx::AttributeProto_AttributeType_INTS;
  if (proto.strings_size() > 0) return onnx::AttributeProto_AttributeType_STRINGS;
  if (proto.tensors_size() > 0) return onnx::AttributeProto_AttributeType_TENSORS;
  if (proto.graphs_size() > 0) return onnx::AttributeProto_AttributeType_GRAPHS;
  if (proto.sparse_tensors_size() > 0) return onnx::AttributeProto_AttributeType_SPARSE_TENSORS;
  if (proto.type_protos_size() > 0) return onnx::AttributeProto_AttributeType_TYPE_PROTOS;
  return onnx::AttributeProto_AttributeType_UNDEFINED;
}

// A scalar attribute whose value field is absent would silently read as 0 or ""; call it broken instead.
Status requireField(bool present, const char* field, const std::string& where, AttributeType type) {
  if (present) return Status::Ok();
  return invalidArgument(where + ": has type " + onnx::AttributeProto_AttributeType_Name(type) + " but no '" + field +
                         "' value");
}

}  // namespace

StatusOr<AttributeValue> decodeAttribute(const onnx::AttributeProto& proto, const std::string& origin) {
  const std::string where = origin + ": attribute " + (proto.name().empty() ? "(unnamed)" : quoteName(proto.name()));
  if (proto.name().empty()) return invalidArgument(where + ": has no name");
  // ref_attr_name only has meaning inside a function body, never on a model's own node.
  if (!proto.ref_attr_name().empty()) {
    return invalidArgument(where + ": refers to function attribute " + quoteName(proto.ref_attr_name()) +
                           ", which is only valid inside a function body");
  }
  const AttributeType type =
      proto.type() == onnx::AttributeProto_AttributeType_UNDEFINED ? inferType(proto) : proto.type();
  AttributeValue value;
  switch (type) {
    case onnx::AttributeProto_AttributeType_INT:
      VKINDEX_RETURN_IF_ERROR(requireField(proto.has_i(), "i", where, type));
      value.kind = AttributeValue::Kind::kInt;
      value.i = proto.i();
      return value;
    case onnx::AttributeProto_AttributeType_FLOAT:
      VKINDEX_RETURN_IF_ERROR(requireField(proto.has_f(), "f", where, type));
      value.kind = AttributeValue::Kind::kFloat;
      value.f = proto.f();
      return value;
    case onnx::AttributeProto_AttributeType_STRING:
      VKINDEX_RETURN_IF_ERROR(requireField(proto.has_s(), "s", where, type));
      value.kind = AttributeValue::Kind::kString;
      value.s = proto.s();
      return value;
    case onnx::AttributeProto_AttributeType_TENSOR: {
      VKINDEX_RETURN_IF_ERROR(requireField(proto.has_t(), "t", where, type));
      value.kind = AttributeValue::Kind::kTensor;
      VKINDEX_ASSIGN_OR_RETURN(value.tensor, decodeTensorProto(proto.t(), where));
      return value;
    }
    case onnx::AttributeProto_AttributeType_INTS:
      value.kind = AttributeValue::Kind::kInts;
      value.ints.assign(proto.ints().begin(), proto.ints().end());
      return value;
    case onnx::AttributeProto_AttributeType_FLOATS:
      value.kind = AttributeValue::Kind::kFloats;
      value.floats.assign(proto.floats().begin(), proto.floats().end());
      return value;
    case onnx::AttributeProto_AttributeType_STRINGS:
      value.kind = AttributeValue::Kind::kStrings;
      value.strings.assign(proto.strings().begin(), proto.strings().end());
      return value;
    case onnx::AttributeProto_AttributeType_UNDEFINED:
      return invalidArgument(where + ": has no type and carries no value");
    default:
      return unsupported(where + ": attributes of type " + onnx::AttributeProto_AttributeType_Name(type) +
                         " are not supported by onnx_io");
  }
}

}  // namespace vkindex::onnxio
