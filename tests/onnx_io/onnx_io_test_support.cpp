#include "onnx_io_test_support.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <iterator>
#include <system_error>

namespace vkindex::onnxio::test {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() / ("onnx_io_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

void writeProto(const std::string& path, const google::protobuf::MessageLite& message) {
  writeBytes(path, message.SerializeAsString());
}

void expectConsistent(const HostTensor& tensor) {
  if (tensor.dtype == DataType::kString) {
    EXPECT_TRUE(tensor.bytes.empty());
    EXPECT_EQ(static_cast<int64_t>(tensor.strings.size()), tensor.elementCount());
  } else {
    EXPECT_TRUE(tensor.strings.empty());
    EXPECT_EQ(static_cast<uint64_t>(tensor.bytes.size()),
              packedByteSize(tensor.dtype, static_cast<uint64_t>(tensor.elementCount())));
  }
}

onnx::TensorProto makeTensor(onnx::TensorProto_DataType type, std::vector<int64_t> dims) {
  onnx::TensorProto proto;
  proto.set_name("x");
  proto.set_data_type(type);
  for (int64_t dim : dims) proto.add_dims(dim);
  return proto;
}

onnx::ValueInfoProto* addValueInfo(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                                   const std::string& name, int32_t elem_type, std::vector<int64_t> dims) {
  onnx::ValueInfoProto* info = list->Add();
  info->set_name(name);
  onnx::TypeProto_Tensor* tensor_type = info->mutable_type()->mutable_tensor_type();
  tensor_type->set_elem_type(elem_type);
  onnx::TensorShapeProto* shape = tensor_type->mutable_shape();
  for (int64_t dim : dims) shape->add_dim()->set_dim_value(dim);
  return info;
}

}  // namespace vkindex::onnxio::test
