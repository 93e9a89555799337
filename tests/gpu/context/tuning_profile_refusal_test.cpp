// The profiles a Context refuses: whatever sits at a profile's path costs at most the table's tuning and
// one warning that says why, never a failed creation, an abort or a hang. Each case checks the reason in
// the warning, that every value is the table's, and (for the damaged files) that the context still
// computes. Hostile file kinds sit where a context looks by itself, in the pipeline cache folder, which
// other processes may share.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/tuning_profile_loading.hpp"
#include "gpu/context/tuning_profile_fixture.hpp"
#include "support/random_tensors.hpp"
#include "support/reference_ops.hpp"

namespace vkindex::test {
namespace {

using plan::TuningValue;

// `text` with its one occurrence of `from` replaced (a test failure where it has none).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no " << from << " in\n" << text;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

class TuningProfileRefusalTest : public TuningProfileTest {
 protected:
  // A gather on `ctx` gives the reference's bytes: a refused profile leaves a working context.
  static void expectGatherWorks(Context& ctx) {
    Rng rng(8);
    const HostTensor data = randomTensor(rng, DataType::kFloat32, {12, 5});
    const HostTensor indices = indexTensor(DataType::kInt64, {4}, {11, -12, 0, 3});
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor data_tensor, toDevice(ctx, data));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor index_tensor, toDevice(ctx, indices));
    VKINDEX_ASSERT_OK_AND_ASSIGN(Tensor output, gather(ctx, data_tensor, index_tensor, 0));
    VKINDEX_ASSERT_OK_AND_ASSIGN(HostTensor actual, toHost(output));
    EXPECT_TRUE(actual.bytes == referenceGather(data, indices, 0).output.bytes);
    EXPECT_EQ(ctx.validationMessageCount(), 0u) << ctx.firstValidationMessage();
  }

  // Writes `text` where a context looks by itself and expects a fresh context to refuse it for `reason`.
  void expectAutomaticRefused(const std::string& text, const std::string& reason) {
    ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), text));
    std::unique_ptr<Context> ctx = contextWith({});
    ASSERT_TRUE(ctx);
    expectRefused(*ctx, automaticPath().string(), reason);
  }
};

TEST_F(TuningProfileRefusalTest, DamagedFilesAreRefused) {
  const std::string valid = profileText(nonTableSettings());
  Rng rng(3);
  std::string garbage(2048, '\0');
  for (char& c : garbage) c = static_cast<char>(rng() & 0xFF);
  struct Damage {
    const char* what;
    std::string text;
    const char* reason;
  };
  const Damage cases[] = {
      {"random bytes", garbage, "not valid JSON"},
      {"an empty file", "", "not valid JSON"},
      {"the first half of a profile", valid.substr(0, valid.size() / 2), "not valid JSON"},
      {"JSON of another kind", "{\"format\": \"vkindex pipeline cache\", \"version\": 1}",
       "is not \"vkindex tuning profile\""},
      {"an unknown tuning value", replaced(valid, "\"row_items\"", "\"row_itemz\""),
       "unknown tuning value \"row_itemz\""},
  };
  for (const Damage& damage : cases) {
    SCOPED_TRACE(damage.what);
    const fs::path path = dir_ / "damaged.json";
    ASSERT_NO_FATAL_FAILURE(writeText(path, damage.text));
    std::unique_ptr<Context> ctx = contextNaming(path.string());
    ASSERT_TRUE(ctx);
    expectRefused(*ctx, path.string(), damage.reason);
    expectGatherWorks(*ctx);
  }
}

TEST_F(TuningProfileRefusalTest, ProfilesOfAnotherDeviceDriverOrVersionAreRefused) {
  const DeviceInfo& device = context().device();
  struct Foreign {
    const char* what;
    plan::TuningProfile profile;
    const char* reason;
  };
  std::vector<Foreign> cases = {
      {"another device id", profileFor(nonTableSettings()), "not this device"},
      {"another vendor id", profileFor(nonTableSettings()), "not this device"},
      {"another driver version", profileFor(nonTableSettings()), "not this device"},
      {"another pipeline cache uuid", profileFor(nonTableSettings()), "pipeline cache uuid"},
      {"another vkindex", profileFor(nonTableSettings()), "measured with vkindex 0.0.0-other, this is"},
  };
  cases[0].profile.identity.device_id = device.device_id ^ 0x1;
  cases[1].profile.identity.vendor_id = device.vendor_id ^ 0x1;
  cases[2].profile.identity.driver_version = device.driver_version + 1;
  cases[3].profile.identity.pipeline_cache_uuid[7] ^= 0x10;
  cases[4].profile.identity.vkindex_version = "0.0.0-other";
  for (const Foreign& foreign : cases) {
    SCOPED_TRACE(foreign.what);
    expectAutomaticRefused(plan::formatTuningProfile(foreign.profile), foreign.reason);
  }
}

TEST_F(TuningProfileRefusalTest, OtherFormatVersionsAreRefused) {
  const std::string valid = profileText(nonTableSettings());
  {
    SCOPED_TRACE("version 0");
    expectAutomaticRefused(replaced(valid, "\"version\": 1,", "\"version\": 0,"), "version 0 is not 1");
  }
  {
    SCOPED_TRACE("version 2");
    expectAutomaticRefused(replaced(valid, "\"version\": 1,", "\"version\": 2,"), "version 2 is not 1");
  }
}

TEST_F(TuningProfileRefusalTest, ValuesOutOfRangeAreRefused) {
  const uint64_t widest = plan::tuningRange(TuningValue::k_workgroup_size, context().device()).most;
  struct OutOfRange {
    TuningValue value;
    uint64_t setting;
    std::string reason;
  };
  std::vector<OutOfRange> cases = {
      {TuningValue::k_items_per_invocation, 65, "items_per_invocation = 65 is outside its range [1, 64]"},
      {TuningValue::k_items_per_invocation, 0, "items_per_invocation = 0 is outside its range [1, 64]"},
      {TuningValue::k_workgroup_size, widest + 1, "workgroup_size = " + std::to_string(widest + 1)},
      {TuningValue::k_group_reserved_cursors, 2, "group_reserved_cursors = 2 is outside its range [0, 1]"},
  };
  // A feature the device lacks cannot be switched on by a profile.
  if (!context().device().shader_int64) {
    cases.push_back({TuningValue::k_int64_units, 1, "int64_units = 1 is outside its range [0, 0]"});
  }
  for (const OutOfRange& out : cases) {
    SCOPED_TRACE(std::string(plan::tuningValueName(out.value)) + " = " + std::to_string(out.setting));
    // The one bad value among good ones: none of them is taken.
    std::vector<TuningSetting> settings = {{TuningValue::k_min_walk_lines, 77}, {out.value, out.setting}};
    expectAutomaticRefused(profileText(settings), out.reason);
  }
}

TEST_F(TuningProfileRefusalTest, OversizedFileIsNotRead) {
  // A valid profile padded past the cap with spaces (still valid JSON): refused for its size alone.
  std::string text = profileText(nonTableSettings());
  text.append(plan::kMaxTuningProfileBytes + 1 - text.size(), ' ');
  expectAutomaticRefused(text, std::to_string(plan::kMaxTuningProfileBytes + 1) + " bytes, more than the " +
                                   std::to_string(plan::kMaxTuningProfileBytes));
}

TEST_F(TuningProfileRefusalTest, DirectoryAtTheProfilesPath) {
  ASSERT_EQ(::mkdir(automaticPath().c_str(), 0755), 0) << automaticPath();
  std::unique_ptr<Context> ctx = contextWith({});
  ASSERT_TRUE(ctx);
  expectRefused(*ctx, automaticPath().string(), "is a directory");
  expectGatherWorks(*ctx);
}

TEST_F(TuningProfileRefusalTest, FifoAtTheProfilesPathDoesNotBlock) {
  // Opening a FIFO for reading waits for a writer. Should the reader ever wait, this guard plays the
  // writer after a while (which frees the reader), so the test fails instead of hanging.
  const std::string path = automaticPath().string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0) << path;
  std::atomic<bool> created{false}, freed{false};
  std::thread guard([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!created) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (std::chrono::steady_clock::now() < deadline) continue;
      const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // fails while nobody reads
      if (fd >= 0) {
        freed = true;
        ::close(fd);
      }
    }
  });
  std::unique_ptr<Context> ctx = contextWith({});
  created = true;
  guard.join();
  EXPECT_FALSE(freed) << "creating the context waited for a writer to the FIFO";
  ASSERT_TRUE(ctx);
  expectRefused(*ctx, path, "is a FIFO");
}

TEST_F(TuningProfileRefusalTest, LinkToAValidProfileIsNotFollowed) {
  const std::vector<TuningSetting> settings = nonTableSettings();
  const fs::path target = dir_ / "elsewhere.json";
  ASSERT_NO_FATAL_FAILURE(writeText(target, profileText(settings)));
  const fs::path link = dir_ / "link.json";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0) << link;
  ASSERT_EQ(::symlink(target.c_str(), automaticPath().c_str()), 0) << automaticPath();
  {
    SCOPED_TRACE("named in the options");
    std::unique_ptr<Context> ctx = contextNaming(link.string());
    ASSERT_TRUE(ctx);
    expectRefused(*ctx, link.string(), "is a symbolic link (not followed)");
  }
  {
    SCOPED_TRACE("in the cache folder");
    std::unique_ptr<Context> ctx = contextWith({});
    ASSERT_TRUE(ctx);
    expectRefused(*ctx, automaticPath().string(), "is a symbolic link (not followed)");
  }
  {
    SCOPED_TRACE("control: the target itself is taken");
    std::unique_ptr<Context> ctx = contextNaming(target.string());
    ASSERT_TRUE(ctx);
    EXPECT_EQ(warningOf(*ctx), "");
    expectProfileTuning(*ctx, settings);
  }
}

}  // namespace
}  // namespace vkindex::test
