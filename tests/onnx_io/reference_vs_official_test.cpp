// The CPU references of tests/support (the oracle of the randomized GPU suites) against ONNX's own
// expected outputs: every official GatherElements and GatherND node test of libonnx-testdata, byte for
// byte. No device: an oracle that disagrees with ONNX would make every GPU comparison meaningless.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "onnx_io.hpp"
#include "onnx_io_test_support.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

using onnxio::test::kNodeTestRoot;
using onnxio::test::nodeTestDir;
namespace fs = std::filesystem;

// The references take the test support's tensors; onnx_io has its own (same packing, other names).
HostTensor fromOnnx(const onnxio::HostTensor& tensor) {
  HostTensor host;
  host.dtype = tensor.dtype;
  host.shape = tensor.dims;
  host.bytes = tensor.bytes;
  host.strings = tensor.strings;
  return host;
}

// An int attribute of the node, or the operator's default when the model leaves it out.
int64_t intAttribute(const onnxio::NodeModel& model, const std::string& name, int64_t default_value) {
  auto it = model.attributes.find(name);
  if (it == model.attributes.end()) return default_value;
  EXPECT_EQ(it->second.kind, onnxio::AttributeValue::Kind::kInt) << name;
  return it->second.i;
}

// Runs `reference` on every data set of the node test `dir` and compares with ONNX's output.
template <typename Reference>
void expectReferenceMatchesOfficial(const std::string& dir, const std::string& op_type, const char* attribute,
                                    Reference reference) {
  SCOPED_TRACE(dir);
  StatusOr<onnxio::NodeTest> test = onnxio::readNodeTest(nodeTestDir(dir));
  ASSERT_TRUE(test.ok()) << test.status().toString();
  ASSERT_EQ(test->model.op_type, op_type);
  const int64_t value = intAttribute(test->model, attribute, 0);
  ASSERT_FALSE(test->data_sets.empty());
  for (const onnxio::TestDataSet& data_set : test->data_sets) {
    SCOPED_TRACE(data_set.dir);
    ASSERT_EQ(data_set.inputs.size(), 2u);
    ASSERT_EQ(data_set.outputs.size(), 1u);
    const ReferenceResult result =
        reference(fromOnnx(data_set.inputs[0]), fromOnnx(data_set.inputs[1]), value, IndexPolicy::kError);
    ASSERT_FALSE(result.bad_index_position.has_value()) << "at " << *result.bad_index_position;
    const HostTensor expected = fromOnnx(data_set.outputs[0]);
    EXPECT_EQ(result.output.dtype, expected.dtype);
    EXPECT_EQ(result.output.shape, expected.shape);
    EXPECT_EQ(result.output.bytes, expected.bytes);
    EXPECT_EQ(result.output.strings, expected.strings);
  }
}

TEST(ReferenceVsOfficial, GatherElements) {
  SKIP_WITHOUT_TESTDATA();
  for (const char* dir :
       {"test_gather_elements_0", "test_gather_elements_1", "test_gather_elements_negative_indices"}) {
    expectReferenceMatchesOfficial(dir, "GatherElements", "axis", referenceGatherElements);
  }
}

TEST(ReferenceVsOfficial, GatherND) {
  SKIP_WITHOUT_TESTDATA();
  for (const char* dir :
       {"test_gathernd_example_float32", "test_gathernd_example_int32", "test_gathernd_example_int32_batch_dim1"}) {
    expectReferenceMatchesOfficial(dir, "GatherND", "batch_dims", referenceGatherND);
  }
}

// The official cases are all valid; these small hand-made ones (values from the ONNX docs' index rules)
// show that the references find the first bad ELEMENT position, which the GPU error tests rely on.
TEST(ReferenceVsOfficial, ReferencesReportTheFirstBadElementPosition) {
  HostTensor data;
  data.dtype = DataType::kFloat32;
  data.shape = {2, 3};
  data.bytes.assign(2 * 3 * 4, 0);
  // GatherElements on axis 1 (size 3): 3 is bad at flat position 2, -4 at 3.
  HostTensor indices = indexTensor(DataType::kInt64, {2, 2}, {0, -3, 3, -4});
  EXPECT_EQ(referenceGatherElements(data, indices, 1).bad_index_position, 2u);
  // The axis dim of indices may exceed data's: axis 0 (size 2) with 3 rows of indices.
  indices = indexTensor(DataType::kInt32, {3, 1}, {1, -2, 2});
  EXPECT_EQ(referenceGatherElements(data, indices, 0).bad_index_position, 2u);
  // GatherND, tuples of 2: tuple 0 is (1, 3) with component 1 bad (dim 1 of size 3), although
  // tuple 1 = (2, 0) has a bad component 0: element 1 comes first.
  indices = indexTensor(DataType::kInt64, {2, 2}, {1, 3, 2, 0});
  EXPECT_EQ(referenceGatherND(data, indices, 0).bad_index_position, 1u);
  // Components are checked against their own dim: -3 is fine for dim 1 (size 3), not for dim 0 (size 2).
  indices = indexTensor(DataType::kInt64, {2, 2}, {-2, -3, -3, 0});
  EXPECT_EQ(referenceGatherND(data, indices, 0).bad_index_position, 2u);
  // With batch_dims 1, a 1-tuple indexes dim 1 (size 3).
  indices = indexTensor(DataType::kInt32, {2, 1}, {-3, 3});
  EXPECT_EQ(referenceGatherND(data, indices, 1).bad_index_position, 1u);
}

// Shapes the official cases lack: rank-1 indices (one tuple: a scalar-like output) and string data.
TEST(ReferenceVsOfficial, ReferencesHandleRankOneIndicesAndStrings) {
  HostTensor words;
  words.dtype = DataType::kString;
  words.shape = {2, 3};
  words.strings = {"a", "b", "c", "d", "e", "f"};
  // One full tuple: output shape [] holding data[1][-1].
  ReferenceResult one = referenceGatherND(words, indexTensor(DataType::kInt32, {2}, {1, -1}), 0);
  EXPECT_EQ(one.output.shape, Shape{});
  EXPECT_EQ(one.output.strings, (std::vector<std::string>{"f"}));
  // One partial tuple: output shape [3], the row data[-2].
  ReferenceResult row = referenceGatherND(words, indexTensor(DataType::kInt64, {1}, {-2}), 0);
  EXPECT_EQ(row.output.shape, Shape{3});
  EXPECT_EQ(row.output.strings, (std::vector<std::string>{"a", "b", "c"}));
  // GatherElements on axis -1 with indices narrower than data in dim 0 and wider in the axis dim.
  ReferenceResult elements = referenceGatherElements(words, indexTensor(DataType::kInt64, {1, 4}, {2, -3, 0, -1}), -1);
  EXPECT_EQ(elements.output.shape, (Shape{1, 4}));
  EXPECT_EQ(elements.output.strings, (std::vector<std::string>{"c", "a", "a", "c"}));
  // GatherND with batch_dims 1: batch i takes data[i][tuple].
  ReferenceResult batched = referenceGatherND(words, indexTensor(DataType::kInt32, {2, 2, 1}, {0, 2, -1, 1}), 1);
  EXPECT_EQ(batched.output.shape, (Shape{2, 2}));
  EXPECT_EQ(batched.output.strings, (std::vector<std::string>{"a", "c", "f", "e"}));
}

}  // namespace
}  // namespace vkindex::test
