#include "support/gather_forms.hpp"

#include "support/error_checks.hpp"
#include "support/unaligned_views.hpp"

namespace vkindex::test {
namespace {

// One call's inputs on the device.
struct GatherDeviceInputs {
  Tensor data;
  Tensor indices;
};

StatusOr<GatherDeviceInputs> uploadGatherInputs(Context& context, const HostTensor& data, const HostTensor& indices) {
  GatherDeviceInputs device;
  VKINDEX_ASSIGN_OR_RETURN(device.data, toDevice(context, data));
  VKINDEX_ASSIGN_OR_RETURN(device.indices, toDevice(context, indices));
  return device;
}

size_t normalizedAxis(int64_t axis, const Shape& shape) {
  return static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(shape.size()) : axis);
}

HostTensor errorFloats(Shape shape) {
  Rng rng(7);
  return randomTensor(rng, DataType::kFloat32, std::move(shape));
}

// An operator whose functions all take its attribute (axis or batch_dims) last but for the output, and
// its index errors' message.
using GatherReference = ReferenceResult (*)(const HostTensor& data, const HostTensor& indices, int64_t attribute,
                                            IndexPolicy policy);
using GatherRun = StatusOr<Tensor> (*)(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute,
                                       IndexPolicy policy);
using GatherRunInto = Status (*)(Context& context, const Tensor& data, const Tensor& indices, int64_t attribute,
                                 Tensor& output, IndexPolicy policy);

using GatherIndexMessage = std::string (*)(const std::string& op, const Shape& data_shape, const HostTensor& indices,
                                           int64_t attribute, uint64_t position);

GatherOperator bindGather(const char* op_name, const char* name, int64_t attribute, IndexPolicy policy,
                          GatherReference reference, GatherRun run, GatherRunInto run_into,
                          GatherIndexMessage message) {
  GatherOperator op;
  op.out_of_range = [=](const HostTensor& data, const HostTensor& indices, uint64_t position) {
    return message(op_name, data.shape, indices, attribute, position);
  };
  op.reference = [=](const HostTensor& data, const HostTensor& indices) {
    return reference(data, indices, attribute, policy);
  };
  op.run = [=](Context& context, const Tensor& data, const Tensor& indices) {
    return run(context, data, indices, attribute, policy);
  };
  op.run_into = [=](Context& context, const Tensor& data, const Tensor& indices, Tensor& output) {
    return run_into(context, data, indices, attribute, output, policy);
  };
  op.attribute = std::string(name) + " " + std::to_string(attribute) +
                 (policy == IndexPolicy::kSkip ? ", IndexPolicy::kSkip" : "");
  return op;
}

}  // namespace

GatherOperator gatherOperator(int64_t axis, IndexPolicy policy) {
  GatherOperator op = bindGather("Gather", "axis", axis, policy, referenceGather, gather, gather, axisIndexMessage);
  op.output_shape = [axis](const HostTensor& data, const HostTensor& indices) {
    const size_t a = normalizedAxis(axis, data.shape);
    Shape shape(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(a));
    shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
    shape.insert(shape.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(a) + 1, data.shape.end());
    return shape;
  };
  return op;
}

GatherOperator gatherElementsOperator(int64_t axis, IndexPolicy policy) {
  GatherOperator op = bindGather("GatherElements", "axis", axis, policy, referenceGatherElements, gatherElements,
                                 gatherElements, axisIndexMessage);
  op.output_shape = [](const HostTensor&, const HostTensor& indices) { return indices.shape; };
  return op;
}

GatherOperator gatherNDOperator(int64_t batch_dims, IndexPolicy policy) {
  GatherOperator op = bindGather("GatherND", "batch_dims", batch_dims, policy, referenceGatherND, gatherND, gatherND,
                                 tupleIndexMessage);
  // indices.shape[:-1] + data.shape[b + k:].
  op.output_shape = [batch_dims](const HostTensor& data, const HostTensor& indices) {
    Shape shape(indices.shape.begin(), indices.shape.end() - 1);
    const int64_t k = indices.shape.back();
    shape.insert(shape.end(), data.shape.begin() + batch_dims + k, data.shape.end());
    return shape;
  };
  return op;
}

void expectGatherMatchesReference(Context& context, const GatherOperator& op, const HostTensor& data,
                                  const HostTensor& indices, GatherForm form) {
  const bool into = form == GatherForm::kCallersOutput;
  SCOPED_TRACE(std::string(into ? "caller's output: " : "") + "data " + describe(data) + ", indices " +
               describe(indices) + ", " + op.attribute);
  const ReferenceResult expected = op.reference(data, indices);
  ASSERT_FALSE(expected.bad_index_position.has_value());
  VKINDEX_ASSERT_OK_AND_ASSIGN(GatherDeviceInputs device, uploadGatherInputs(context, data, indices));
  StatusOr<Tensor> output = into ? Tensor::create(context, data.dtype, op.output_shape(data, indices))
                                 : op.run(context, device.data, device.indices);
  ASSERT_TRUE(output.ok()) << output.status().toString();
  if (into) VKINDEX_ASSERT_OK(op.run_into(context, device.data, device.indices, *output));
  VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(*output));
  ASSERT_EQ(actual.dtype, expected.output.dtype);
  ASSERT_EQ(actual.shape, expected.output.shape);
  ASSERT_EQ(actual.bytes, expected.output.bytes);
  ASSERT_EQ(actual.strings, expected.output.strings);
}

void expectGatherThroughUnalignedViews(Context& context, const GatherOperator& op, const HostTensor& data,
                                       const HostTensor& indices, size_t neighbour_bytes) {
  const ReferenceResult expected = op.reference(data, indices);
  ASSERT_FALSE(expected.bad_index_position.has_value());
  ASSERT_EQ(expected.output.bytes.size() % 4, 4 - neighbour_bytes);
  expectOutputThroughUnalignedViews(
      context, data, indices, expected.output,
      [&](const Tensor& d, const Tensor& i, Tensor& output) { return op.run_into(context, d, i, output); });
}

std::vector<TypeAndIndexType> everyTypeAndIndexType() {
  std::vector<TypeAndIndexType> params;
  for (DataType dtype : kClassicDataTypes) {
    for (DataType index_type : {DataType::kInt32, DataType::kInt64}) params.emplace_back(dtype, index_type);
  }
  return params;
}

std::string typeAndIndexTypeName(const ::testing::TestParamInfo<TypeAndIndexType>& info) {
  return std::string(dataTypeName(std::get<0>(info.param))) + "_" + dataTypeName(std::get<1>(info.param));
}

void expectRandomCallsMatchReference(
    Context& context, const TypeAndIndexType& param, uint64_t seed,
    const std::function<GatherCall(Rng& rng, DataType dtype, DataType index_type)>& draw) {
  const auto [dtype, index_type] = param;
  Rng rng(seed + 97 * static_cast<uint64_t>(dtype) + static_cast<uint64_t>(index_type));
  for (int round = 0; round < 24; ++round) {
    const GatherCall call = draw(rng, dtype, index_type);
    SCOPED_TRACE("round " + std::to_string(round));
    ASSERT_NO_FATAL_FAILURE(expectGatherMatchesReference(context, call.op, call.data, call.indices));
  }
}

HostTensor dataOf(DataType dtype, Shape shape) {
  Rng rng(42);
  return randomTensor(rng, dtype, std::move(shape));
}

DataType rotatingType(size_t n) { return kClassicDataTypes[n % std::size(kClassicDataTypes)]; }
DataType alternatingIndexType(size_t n) { return n % 2 ? DataType::kInt64 : DataType::kInt32; }

Status gatherIntoCanary(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices,
                        const Shape& output_shape) {
  StatusOr<GatherDeviceInputs> device = uploadGatherInputs(context, data, indices);
  EXPECT_TRUE(device.ok()) << device.status().toString();
  if (!device.ok()) return device.status();
  return runIntoCanary(context, data.dtype, output_shape,
                       [&](Tensor& output) { return op.run_into(context, device->data, device->indices, output); });
}

Status gatherIntoCanary(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices) {
  return gatherIntoCanary(context, op, data, indices, op.output_shape(data, indices));
}

void expectGatherInvalid(Context& context, const GatherOperator& op, const HostTensor& data, const HostTensor& indices,
                         const std::string& message, const Shape* output_shape) {
  SCOPED_TRACE(message);
  VKINDEX_ASSERT_OK_AND_ASSIGN(GatherDeviceInputs device, uploadGatherInputs(context, data, indices));
  StatusOr<Tensor> result = op.run(context, device.data, device.indices);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(result.status().message(), message);
  if (output_shape == nullptr) return;
  Status status = gatherIntoCanary(context, op, data, indices, *output_shape);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), message);
}

void expectGatherOutOfRange(Context& context, const GatherOperator& op, const HostTensor& data,
                            const HostTensor& indices) {
  const ReferenceResult expected = op.reference(data, indices);
  ASSERT_TRUE(expected.bad_index_position.has_value());
  const std::string message = op.out_of_range(data, indices, *expected.bad_index_position);
  SCOPED_TRACE(message);
  Status status = gatherIntoCanary(context, op, data, indices);
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), message);
}

void expectGatherKeepsOutputStrings(Context& context, const GatherOperator& op, const HostTensor& data,
                                    const HostTensor& indices, const std::string& message) {
  const std::vector<std::string> kept = {"keep", "these"};
  VKINDEX_ASSERT_OK_AND_ASSIGN(GatherDeviceInputs device, uploadGatherInputs(context, data, indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, Tensor::fromStrings(context, {2}, kept));
  Status status = op.run_into(context, device.data, device.indices, output);
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_EQ(status.message(), message);
  EXPECT_EQ(output.strings(), kept);
}

void expectGatherOutputRejected(Context& context, const GatherOperator& op, const HostTensor& data,
                                const HostTensor& indices, const Shape& wrong_shape, const std::string& shape_message,
                                DataType wrong_type, const std::string& type_message) {
  VKINDEX_ASSERT_OK_AND_ASSIGN(GatherDeviceInputs device, uploadGatherInputs(context, data, indices));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor shaped, Tensor::create(context, data.dtype, wrong_shape));
  Status status = op.run_into(context, device.data, device.indices, shaped);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), shape_message);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor typed, Tensor::create(context, wrong_type, op.output_shape(data, indices)));
  status = op.run_into(context, device.data, device.indices, typed);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), type_message);
}

void expectGatherOverlapRejected(Context& context, const GatherOperator& op, const std::string& name,
                                 const Shape& index_shape) {
  const HostTensor index_values = indexTensor(DataType::kInt32, index_shape, {0, 1, 2, 3});
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor arena, Tensor::create(context, DataType::kFloat32, {64}));
  // Output inside data.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::view(context, DataType::kFloat32, {8}, arena.buffer(), 0, 256));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, toDevice(context, index_values));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, Tensor::view(context, DataType::kFloat32, {4}, arena.buffer(), 16, 256));
  Status status = op.run_into(context, data, indices, output);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), name + ": the output overlaps input 'data' in the same VkBuffer");
  // Output inside indices.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor own_data, toDevice(context, errorFloats({8})));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_view,
                               Tensor::view(context, DataType::kInt32, index_shape, arena.buffer(), 128, 256));
  VKINDEX_ASSERT_OK(index_view.upload(index_values.bytes.data(), 16));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor over_indices,
                               Tensor::view(context, DataType::kFloat32, {4}, arena.buffer(), 136, 256));
  status = op.run_into(context, own_data, index_view, over_indices);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), name + ": the output overlaps input 'indices' in the same VkBuffer");
}

void forEachBadIndexRound(Context& shared, Rng& rng, const std::function<void(const BadIndexRound&)>& each) {
  ContextOptions options;
  options.overrides.max_binding_bytes = 4096;
  StatusOr<std::unique_ptr<Context>> capped = makeTestContext(options);
  ASSERT_TRUE(capped.ok()) << capped.status().toString();
  const DataType types[] = {DataType::kUInt8, DataType::kFloat16, DataType::kFloat32, DataType::kComplex128};
  for (int round = 0; round < 24; ++round) {
    Context& context = round % 2 ? **capped : shared;
    const DataType dtype = types[rng() % 4];
    const DataType index_type = rng() % 2 ? DataType::kInt64 : DataType::kInt32;
    each({context, round, dtype, index_type});
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_EQ((*capped)->validationMessageCount(), 0u) << (*capped)->firstValidationMessage();
}

}  // namespace vkindex::test
