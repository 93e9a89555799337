// Out of memory is a status (issue 10): a device allocation that fails, and host memory that runs out
// under an address-space cap, each give kResourceExhausted naming the buffer and its bytes. Nothing
// crashes, nothing is half written, and the context keeps working afterwards.
//
// Device failures are injected: the test puts its own vkAllocateMemory in front of the driver's in
// the context's function table, failing the n-th call, for every n an operation reaches.
#include <sys/resource.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "support/gpu_test.hpp"
#include "vk/device.hpp"

namespace vkindex::test {
namespace {

// The injected vkAllocateMemory: the `countdown`-th call from arming fails with
// VK_ERROR_OUT_OF_DEVICE_MEMORY; the others reach the driver.
struct AllocationFault {
  static inline PFN_vkAllocateMemory driver = nullptr;
  static inline int countdown = 0;
  static inline bool fired = false;

  static VKAPI_ATTR VkResult VKAPI_CALL allocate(VkDevice device, const VkMemoryAllocateInfo* info,
                                                 const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
    if (countdown > 0 && --countdown == 0) {
      fired = true;
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    return driver(device, info, allocator, memory);
  }
};

// Arms the fault on `context` for one scope and restores the driver's function after it.
class InjectedAllocationFailure {
 public:
  InjectedAllocationFailure(Context& context, int failing_call)
      : table_(implOf(context).device->functionsForTesting()) {
    AllocationFault::driver = table_.vkAllocateMemory;
    AllocationFault::countdown = failing_call;
    AllocationFault::fired = false;
    table_.vkAllocateMemory = &AllocationFault::allocate;
  }
  ~InjectedAllocationFailure() {
    table_.vkAllocateMemory = AllocationFault::driver;
    AllocationFault::countdown = 0;
  }
  InjectedAllocationFailure(const InjectedAllocationFailure&) = delete;
  InjectedAllocationFailure& operator=(const InjectedAllocationFailure&) = delete;

 private:
  VolkDeviceTable& table_;
};

std::vector<float> iota(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i) * 0.5f;
  return values;
}

StatusOr<Tensor> floats(Context& context, const Shape& shape, const std::vector<float>& values) {
  return Tensor::fromHost(context, DataType::kFloat32, shape, values.data(), values.size() * sizeof(float));
}

StatusOr<Tensor> int64s(Context& context, const Shape& shape, const std::vector<int64_t>& values) {
  return Tensor::fromHost(context, DataType::kInt64, shape, values.data(), values.size() * sizeof(int64_t));
}

// One operation from host bytes to host bytes, every device allocation it needs made inside.
using Operation = std::function<StatusOr<std::vector<uint8_t>>(Context&)>;

struct NamedOperation {
  const char* name;
  Operation run;
};

std::vector<NamedOperation> operations() {
  return {
      {"upload and download",
       [](Context& c) -> StatusOr<std::vector<uint8_t>> {
         VKINDEX_ASSIGN_OR_RETURN(Tensor t, floats(c, {64}, iota(64)));
         return t.toHost();
       }},
      {"Gather",
       [](Context& c) -> StatusOr<std::vector<uint8_t>> {
         VKINDEX_ASSIGN_OR_RETURN(Tensor data, floats(c, {16, 8}, iota(128)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor indices, int64s(c, {5}, {3, -1, 0, 3, 7}));
         VKINDEX_ASSIGN_OR_RETURN(Tensor output, gather(c, data, indices, 0));
         return output.toHost();
       }},
      {"GatherElements",
       [](Context& c) -> StatusOr<std::vector<uint8_t>> {
         VKINDEX_ASSIGN_OR_RETURN(Tensor data, floats(c, {4, 8}, iota(32)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor indices, int64s(c, {2, 8}, std::vector<int64_t>(16, -2)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor output, gatherElements(c, data, indices, 0));
         return output.toHost();
       }},
      {"GatherND",
       [](Context& c) -> StatusOr<std::vector<uint8_t>> {
         VKINDEX_ASSIGN_OR_RETURN(Tensor data, floats(c, {4, 4, 8}, iota(128)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor indices, int64s(c, {3, 2}, {0, 1, 3, 3, -1, 0}));
         VKINDEX_ASSIGN_OR_RETURN(Tensor output, gatherND(c, data, indices, 0));
         return output.toHost();
       }},
      {"ScatterND add, duplicate rows",
       [](Context& c) -> StatusOr<std::vector<uint8_t>> {
         VKINDEX_ASSIGN_OR_RETURN(Tensor data, floats(c, {16, 8}, iota(128)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor indices, int64s(c, {6, 1}, {2, 2, 9, 2, -1, 9}));
         VKINDEX_ASSIGN_OR_RETURN(Tensor updates, floats(c, {6, 8}, iota(48)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor output, scatterND(c, data, indices, updates, Reduction::kAdd));
         return output.toHost();
       }},
      {"ScatterElements max",
       [](Context& c) -> StatusOr<std::vector<uint8_t>> {
         VKINDEX_ASSIGN_OR_RETURN(Tensor data, floats(c, {4, 8}, iota(32)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor indices, int64s(c, {2, 8}, std::vector<int64_t>(16, 1)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor updates, floats(c, {2, 8}, iota(16)));
         VKINDEX_ASSIGN_OR_RETURN(Tensor output, scatterElements(c, data, indices, updates, 0, Reduction::kMax));
         return output.toHost();
       }},
  };
}

// "<what>: out of memory in vkAllocateMemory of <n> bytes (VK_ERROR_OUT_OF_DEVICE_MEMORY)"; returns <what>.
std::string allocationPurpose(const std::string& message) {
  static const std::regex kPattern(
      "(.+): out of memory in vkAllocateMemory of [0-9]+ bytes "
      "\\(VK_ERROR_OUT_OF_DEVICE_MEMORY\\)");
  std::smatch match;
  return std::regex_match(message, match, kPattern) ? match[1].str() : "";
}

class OutOfMemoryTest : public GpuTest {
 protected:
  // A context of this test's own: its function table is patched, and a failure must not leave the
  // shared context in a state the other tests would notice.
  static Context& ownContext() {
    static std::unique_ptr<Context> own = [] {
      StatusOr<std::unique_ptr<Context>> created = makeContext({});
      EXPECT_TRUE(created.ok()) << created.status().toString();
      return created.ok() ? std::move(created).value() : nullptr;
    }();
    return *own;
  }
};

TEST_F(OutOfMemoryTest, EveryFailingDeviceAllocationIsAStatusNamingTheBuffer) {
  Context& context = ownContext();
  for (const NamedOperation& operation : operations()) {
    SCOPED_TRACE(operation.name);
    VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> expected, operation.run(context));
    std::set<std::string> purposes;
    int failing_call = 1;
    for (;; ++failing_call) {
      SCOPED_TRACE("failing allocation " + std::to_string(failing_call));
      StatusOr<std::vector<uint8_t>> result = [&] {
        InjectedAllocationFailure fault(context, failing_call);
        return operation.run(context);
      }();
      if (!AllocationFault::fired) {
        // Past the operation's last allocation: it ran untouched.
        ASSERT_TRUE(result.ok()) << result.status().toString();
        EXPECT_EQ(*result, expected);
        break;
      }
      ASSERT_FALSE(result.ok());
      EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted) << result.status().toString();
      const std::string purpose = allocationPurpose(result.status().message());
      EXPECT_FALSE(purpose.empty()) << result.status().message();
      purposes.insert(purpose);
      // The context is whole: the same operation, with nothing failing, gives the same bytes.
      StatusOr<std::vector<uint8_t>> again = operation.run(context);
      ASSERT_TRUE(again.ok()) << again.status().toString();
      EXPECT_EQ(*again, expected);
    }
    // Every operation allocates its inputs and a staging buffer at least.
    EXPECT_GE(failing_call, 3);
    EXPECT_EQ(purposes.count("Tensor::create"), 1u);
    EXPECT_EQ(purposes.count("upload staging buffer"), 1u);
    EXPECT_EQ(purposes.count("download staging buffer"), 1u);
    if (std::string(operation.name) != "upload and download") {
      const std::string op = std::string(operation.name).substr(0, std::string(operation.name).find(' '));
      EXPECT_EQ(purposes.count(op + " output"), 1u) << "the output's allocation names its operator";
    }
  }
}

TEST_F(OutOfMemoryTest, AFailedAllocationLeavesAGivenOutputUnwritten) {
  Context& context = ownContext();
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, floats(context, {16, 8}, iota(128)));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, int64s(context, {6, 1}, {2, 2, 9, 2, -1, 9}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor updates, floats(context, {6, 8}, iota(48)));
  const std::vector<float> canary(128, -7.25f);
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, floats(context, {16, 8}, canary));
  VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> before, output.toHost());
  // ScatterND without reduction allocates a winner table (one word per data row) before it records
  // any work; fail that, and anything else it allocates, in turn.
  int failing_call = 1;
  for (;; ++failing_call) {
    SCOPED_TRACE("failing allocation " + std::to_string(failing_call));
    Status status = [&] {
      InjectedAllocationFailure fault(context, failing_call);
      return scatterND(context, data, indices, updates, Reduction::kNone, output);
    }();
    if (!AllocationFault::fired) {
      VKINDEX_ASSERT_OK(status);
      break;
    }
    EXPECT_EQ(status.code(), StatusCode::kResourceExhausted) << status.toString();
    VKINDEX_ASSERT_OK_AND_ASSIGN(std::vector<uint8_t> after, output.toHost());
    EXPECT_EQ(after, before) << "a failed operation wrote its output";
  }
  EXPECT_GE(failing_call, 2) << "the operator allocated nothing, so nothing was tested";
}

// Sets RLIMIT_AS (what `ulimit -v` sets) to the address space in use now plus `headroom` bytes, and
// restores the previous limit when it goes out of scope.
class AddressSpaceCap {
 public:
  explicit AddressSpaceCap(uint64_t headroom) {
    ::getrlimit(RLIMIT_AS, &previous_);
    rlimit capped = previous_;
    capped.rlim_cur = currentAddressSpace() + headroom;
    applied_ = ::setrlimit(RLIMIT_AS, &capped) == 0;
  }
  ~AddressSpaceCap() { ::setrlimit(RLIMIT_AS, &previous_); }
  AddressSpaceCap(const AddressSpaceCap&) = delete;
  AddressSpaceCap& operator=(const AddressSpaceCap&) = delete;
  bool applied() const { return applied_; }

 private:
  // VmSize from /proc/self/status, in bytes.
  static uint64_t currentAddressSpace() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;
    }
    return 0;
  }

  rlimit previous_{};
  bool applied_ = false;
};

#if defined(__SANITIZE_ADDRESS__)
#define VKINDEX_SKIP_UNDER_AN_ADDRESS_SPACE_CAP() \
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space; RLIMIT_AS cannot be applied"
#else
#define VKINDEX_SKIP_UNDER_AN_ADDRESS_SPACE_CAP() (void)0
#endif

constexpr uint64_t kMiB = uint64_t(1) << 20;

TEST_F(OutOfMemoryTest, ToHostBeyondTheHostsMemoryIsAStatus) {
  VKINDEX_SKIP_UNDER_AN_ADDRESS_SPACE_CAP();
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor big, Tensor::create(context(), DataType::kUInt8, {int64_t(256 * kMiB)}));
  StatusOr<std::vector<uint8_t>> bytes = [&] {
    AddressSpaceCap cap(64 * kMiB);
    EXPECT_TRUE(cap.applied());
    return big.toHost();
  }();
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(bytes.status().message(), "Tensor::toHost: cannot allocate 268435456 bytes of host memory");
  // download() into memory the caller owns needs no host allocation of vkindex's (first MiB shown).
  VKINDEX_ASSERT_OK_AND_ASSIGN(
      Tensor view, Tensor::view(context(), DataType::kUInt8, {int64_t(kMiB)}, big.buffer(), 0, big.byteSize()));
  std::vector<uint8_t> mine(kMiB);
  VKINDEX_ASSERT_OK(view.download(mine.data(), mine.size()));
}

TEST_F(OutOfMemoryTest, AStringGatherFarLargerThanItsInputIsAStatus) {
  VKINDEX_SKIP_UNDER_AN_ADDRESS_SPACE_CAP();
  // One 1 MiB string picked 512 times: 512 MiB of output from 1 MiB of input.
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data, Tensor::fromStrings(context(), {1}, {std::string(kMiB, 's')}));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor indices, int64s(context(), {512}, std::vector<int64_t>(512, 0)));
  VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor few, int64s(context(), {2}, {0, -1}));
  VKINDEX_ASSERT_OK(gather(context(), data, few, 0).status());  // the pipelines exist before the cap
  StatusOr<Tensor> output = [&] {
    AddressSpaceCap cap(64 * kMiB);
    EXPECT_TRUE(cap.applied());
    return gather(context(), data, indices, 0);
  }();
  ASSERT_FALSE(output.ok());
  EXPECT_EQ(output.status().code(), StatusCode::kResourceExhausted);
  const uint64_t bytes = 512 * (sizeof(std::string) + kMiB + 1);
  EXPECT_EQ(output.status().message(),
            "Gather output (512 strings): cannot allocate " + std::to_string(bytes) + " bytes of host memory");
}

}  // namespace
}  // namespace vkindex::test
