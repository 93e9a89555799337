// VkindexContextOptions::tuning_profile, set from C (c_api/tuning_profile_from_c.c): a named profile is
// taken, "" takes none, a damaged one still gives a working context, and a caller built against the
// struct before the field was appended (a smaller struct_size) gets the default, whatever lies beyond
// its struct. The context's internals are read through the handle's definition (capi/c_api_support.hpp).
#include <string>
#include <vector>

#include "c_api/tuning_profile_from_c.h"
#include "capi/c_api_support.hpp"
#include "core/context_impl.hpp"
#include "gpu/context/tuning_profile_fixture.hpp"

namespace vkindex::test {
namespace {

// A context created from C (validated), destroyed through the C API when the test is done with it.
struct ContextFromC {
  VkindexContext handle = nullptr;
  ~ContextFromC() {
    if (handle != nullptr) {
      EXPECT_EQ(handle->context->validationMessageCount(), 0u) << handle->context->firstValidationMessage();
    }
    vkindexContextDestroy(handle);
  }
  const Context& context() const { return *handle->context; }
};

class TuningProfileCApiTest : public TuningProfileTest {
 protected:
  // Creates `made` from C with `tuning_profile` (nullptr: unset); a test failure if that fails.
  void createFromC(const char* tuning_profile, bool first_struct_size, ContextFromC& made) const {
    const std::string device = std::to_string(context().device().index), cache_dir = dir_.string();
    char message[512] = "";
    const int status = createWithTuningProfileFromC(device.c_str(), cache_dir.c_str(), tuning_profile,
                                                    first_struct_size ? 1 : 0, &made.handle, message, sizeof(message));
    ASSERT_EQ(status, VKINDEX_OK) << message;
    ASSERT_NE(made.handle, nullptr);
  }
};

TEST_F(TuningProfileCApiTest, TheOptionsNamedProfileIsTaken) {
  const std::vector<TuningSetting> settings = nonTableSettings();
  const std::string path = (dir_ / "from_c.json").string();
  ASSERT_NO_FATAL_FAILURE(writeText(path, profileText(settings)));
  ContextFromC made;
  ASSERT_NO_FATAL_FAILURE(createFromC(path.c_str(), false, made));
  EXPECT_EQ(made.context().tuningProfilePath(), path);
  EXPECT_EQ(warningOf(made.context()), "");
  expectProfileTuning(made.context(), settings);
}

TEST_F(TuningProfileCApiTest, AnEmptyNameTakesNone) {
  ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(nonTableSettings())));
  ContextFromC made;
  ASSERT_NO_FATAL_FAILURE(createFromC("", false, made));
  EXPECT_EQ(made.context().tuningProfilePath(), "");
  expectTableTuning(made.context());
}

TEST_F(TuningProfileCApiTest, ADamagedNamedProfileStillGivesAWorkingContext) {
  const std::string path = (dir_ / "damaged.json").string();
  ASSERT_NO_FATAL_FAILURE(writeText(path, "{\"format\": \"vkindex tuning profile\", \"vers"));
  ContextFromC made;
  ASSERT_NO_FATAL_FAILURE(createFromC(path.c_str(), false, made));
  expectRefused(made.context(), path, "not valid JSON");
}

TEST_F(TuningProfileCApiTest, TheFirstPublishedStructSizeLeavesTheFieldUnread) {
  // The field (beyond the caller's struct) names a valid profile, and the cache folder has none: read,
  // the field would be taken; unread, the context looks in the cache folder and finds nothing.
  const std::vector<TuningSetting> settings = nonTableSettings();
  const std::string path = (dir_ / "beyond_the_struct.json").string();
  ASSERT_NO_FATAL_FAILURE(writeText(path, profileText(settings)));
  {
    SCOPED_TRACE("nothing in the cache folder");
    ContextFromC made;
    ASSERT_NO_FATAL_FAILURE(createFromC(path.c_str(), true, made));
    EXPECT_EQ(made.context().tuningProfilePath(), automaticPath().string());
    EXPECT_EQ(warningOf(made.context()), "");
    expectTableTuning(made.context());
  }
  {
    SCOPED_TRACE("the cache folder's profile, as for a NULL field");
    ASSERT_NO_FATAL_FAILURE(writeText(automaticPath(), profileText(settings)));
    ContextFromC made;
    ASSERT_NO_FATAL_FAILURE(createFromC("", true, made));
    EXPECT_EQ(made.context().tuningProfilePath(), automaticPath().string());
    expectProfileTuning(made.context(), settings);
  }
}

}  // namespace
}  // namespace vkindex::test
