// Tuning profiles (src/plan/tuning_profile.hpp) and the strict JSON reader under them
// (src/plan/profile_json.hpp): what tune writes reads back equal, damaged or foreign files fail with a
// message naming the fault (never a crash), and chooseTuning layers a profile between the table and
// the overrides.
#include <gtest/gtest.h>

#include <cfloat>
#include <clocale>
#include <cmath>
#include <random>
#include <string>

#include "plan/profile_json.hpp"
#include "plan/tuning.hpp"
#include "plan/tuning_profile.hpp"
#include "vkindex/version.hpp"

namespace vkindex::plan {
namespace {

// An H200 as vulkaninfo reports it, with every feature a tuning value may need.
DeviceInfo profileTestDevice() {
  DeviceInfo device;
  device.name = "NVIDIA H200";
  device.type = "discrete";
  device.driver_name = "NVIDIA";
  device.vendor_id = 0x10DE;
  device.device_id = 0x2335;
  device.driver_version = 0x8C2A4000;
  for (size_t i = 0; i < device.pipeline_cache_uuid.size(); ++i) {
    device.pipeline_cache_uuid[i] = static_cast<uint8_t>(0xA0 + i);
  }
  device.shader_int64 = true;
  device.float32_rounding_rte = true;
  device.max_workgroup_invocations = 1024;
  device.max_workgroup_size_x = 1024;
  return device;
}

TuningProfileEntry profileEntry(TuningValue value, uint64_t setting, std::vector<TuningMeasurement> sweep = {}) {
  TuningProfileEntry entry;
  entry.value = value;
  entry.setting = setting;
  entry.probe = std::string("gather rows for ") + tuningValueName(value);
  entry.measurements = std::move(sweep);
  return entry;
}

// A profile that fits profileTestDevice().
TuningProfile profileTestProfile() {
  TuningProfile profile;
  profile.identity = tuningProfileIdentityOf(profileTestDevice());
  profile.entries.push_back(profileEntry(TuningValue::k_row_items, 16, {{4, 0.5}, {8, 0.25}, {16, 0.125}}));
  profile.entries.push_back(profileEntry(TuningValue::k_int64_units, 1, {{0, 1.5}, {1, 1.25}}));
  profile.entries.push_back(profileEntry(TuningValue::k_min_walk_lines, 4096));
  return profile;
}

void expectSameProfile(const TuningProfile& a, const TuningProfile& b) {
  EXPECT_EQ(a.identity.device_name, b.identity.device_name);
  EXPECT_EQ(a.identity.vendor_id, b.identity.vendor_id);
  EXPECT_EQ(a.identity.device_id, b.identity.device_id);
  EXPECT_EQ(a.identity.driver_version, b.identity.driver_version);
  EXPECT_EQ(a.identity.pipeline_cache_uuid, b.identity.pipeline_cache_uuid);
  EXPECT_EQ(a.identity.vkindex_version, b.identity.vkindex_version);
  ASSERT_EQ(a.entries.size(), b.entries.size());
  for (size_t i = 0; i < a.entries.size(); ++i) {
    const TuningProfileEntry& x = a.entries[i];
    const TuningProfileEntry& y = b.entries[i];
    EXPECT_EQ(x.value, y.value) << i;
    EXPECT_EQ(x.setting, y.setting) << i;
    EXPECT_EQ(x.probe, y.probe) << i;
    ASSERT_EQ(x.measurements.size(), y.measurements.size()) << i;
    for (size_t m = 0; m < x.measurements.size(); ++m) {
      EXPECT_EQ(x.measurements[m].candidate, y.measurements[m].candidate) << i << " " << m;
      EXPECT_EQ(x.measurements[m].median_ms, y.measurements[m].median_ms) << i << " " << m;
    }
  }
}

StatusOr<TuningProfile> parseText(const std::string& text) { return parseTuningProfile(text.data(), text.size()); }

// `text` with its one occurrence of `from` replaced (a test failure where it has none or several).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "no " << from << " in\n" << text;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "several " << from;
  return text.replace(at, from.size(), to);
}

void expectFailure(const Status& status, const std::string& fragment) {
  EXPECT_FALSE(status.ok()) << "expected an error with: " << fragment;
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.toString();
  EXPECT_NE(status.message().find(fragment), std::string::npos)
      << "message: " << status.message() << "\nexpected: " << fragment;
}

void expectParseFailure(const std::string& text, const std::string& fragment) {
  const StatusOr<TuningProfile> parsed = parseText(text);
  expectFailure(parsed.status(), fragment);
}

const std::string& validText() {
  static const std::string text = formatTuningProfile(profileTestProfile());
  return text;
}

// ---------------------------------------------------------------------------------------------
// Writing and reading back

TEST(TuningProfileTest, FormatsTheDocumentedShape) {
  const std::string& text = validText();
  EXPECT_EQ(text.rfind("{\n  \"format\": \"vkindex tuning profile\",\n  \"version\": 1,\n", 0), 0u) << text;
  EXPECT_NE(text.find("\"vkindex_version\": \"" + std::string(libraryVersion()) + "\""), std::string::npos);
  EXPECT_NE(text.find("\"device\": {\"name\": \"NVIDIA H200\", \"vendor_id\": 4318, \"device_id\": 9013, "
                      "\"driver_version\": 2351579136, \"pipeline_cache_uuid\": \"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf\"}"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("\n    \"row_items\": {\"value\": 16, \"probe\": \"gather rows for row_items\", \"measurements\": "
                "[{\"candidate\": 4, \"ms\": 0.5}, {\"candidate\": 8, \"ms\": 0.25}, "
                "{\"candidate\": 16, \"ms\": 0.125}]},\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("\"min_walk_lines\": {\"value\": 4096, \"probe\": \"gather rows for min_walk_lines\", "
                      "\"measurements\": []}\n  }\n}\n"),
            std::string::npos)
      << text;
}

TEST(TuningProfileTest, RoundTripsExtremeSettingsManyMeasurementsAndOddNames) {
  TuningProfile profile = profileTestProfile();
  profile.identity.device_name = "a \"quoted\" \\back\\slashed/ name\n\t\x01 caf\xC3\xA9 \xF0\x9F\x98\x80 \xFF raw";
  profile.identity.vkindex_version = "0.10.0-rc1";
  profile.identity.vendor_id = UINT32_MAX;
  profile.identity.device_id = 0;
  profile.identity.driver_version = UINT32_MAX;
  profile.identity.pipeline_cache_uuid.fill(0xFF);
  std::vector<TuningMeasurement> sweep;
  const double times[] = {0.0, 0.1, 1.0 / 3.0, 2.0, 1e-300, 4.9e-324, 1e17, 1e300, DBL_MAX, 12345.678901234567};
  for (size_t i = 0; i < kMaxTuningMeasurements; ++i) {
    sweep.push_back({i == 0 ? UINT64_MAX : i * 977, times[i % std::size(times)] / double(i / std::size(times) + 1)});
  }
  sweep.back().median_ms = DBL_MAX;
  profile.entries = {profileEntry(TuningValue::k_min_copy_region_bytes, UINT64_MAX, sweep),
                     profileEntry(TuningValue::k_max_single_line_walk_updates, UINT64_MAX),
                     profileEntry(TuningValue::k_most_workgroup_runs, 0),
                     profileEntry(TuningValue::k_few_copy_regions, 0, {{0, 0.0}, {UINT64_MAX, 7.0}})};
  profile.entries[2].probe = "\"\\/\u00e9\b\f\r";
  profile.entries[3].probe = "";

  const std::string text = formatTuningProfile(profile);
  EXPECT_NE(text.find("\"value\": 18446744073709551615"), std::string::npos) << text;
  const StatusOr<TuningProfile> parsed = parseText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString() << "\n" << text;
  expectSameProfile(profile, *parsed);
  EXPECT_EQ(formatTuningProfile(*parsed), text);
}

TEST(TuningProfileTest, RoundTripsEveryValue) {
  const DeviceInfo device = profileTestDevice();
  TuningProfile profile;
  profile.identity = tuningProfileIdentityOf(device);
  for (size_t i = 0; i < kTuningValueCount; ++i) {
    const auto value = static_cast<TuningValue>(i);
    profile.entries.push_back(profileEntry(value, tuningRange(value, device).most, {{1, 0.5}}));
  }
  const StatusOr<TuningProfile> parsed = parseText(formatTuningProfile(profile));
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  expectSameProfile(profile, *parsed);
  EXPECT_TRUE(checkTuningProfileFits(*parsed, device).ok()) << checkTuningProfileFits(*parsed, device).toString();
}

TEST(TuningProfileTest, WritesTimesJsonCannotHoldAsTimesItReads) {
  TuningProfile profile = profileTestProfile();
  profile.entries[0].measurements = {{1, NAN}, {2, INFINITY}, {3, -INFINITY}, {4, -0.5}, {5, -0.0}};
  const std::string text = formatTuningProfile(profile);
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  const StatusOr<TuningProfile> parsed = parseText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString() << "\n" << text;
  const auto& sweep = parsed->entries[0].measurements;
  ASSERT_EQ(sweep.size(), 5u);
  EXPECT_EQ(sweep[0].median_ms, 0.0);
  EXPECT_EQ(sweep[1].median_ms, DBL_MAX);
  EXPECT_EQ(sweep[2].median_ms, 0.0);
  EXPECT_EQ(sweep[3].median_ms, 0.0);
  EXPECT_EQ(sweep[4].median_ms, 0.0);
  EXPECT_FALSE(std::signbit(sweep[4].median_ms));
}

TEST(TuningProfileTest, ReadsEscapesAndWhitespaceWrittenByHand) {
  std::string text = replaced(validText(), "\"name\": \"NVIDIA H200\"",
                              "\"name\"  :\r\n\t\"N\\u0056IDIA\\/\\uD83D\\uDE00\\u00e9\\u20AC\"");
  const StatusOr<TuningProfile> parsed = parseText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  EXPECT_EQ(parsed->identity.device_name, "NVIDIA/\xF0\x9F\x98\x80\xC3\xA9\xE2\x82\xAC");
}

TEST(TuningProfileTest, IdentityOfTheDeviceAndThisLibrary) {
  const DeviceInfo device = profileTestDevice();
  const TuningProfileIdentity identity = tuningProfileIdentityOf(device);
  EXPECT_EQ(identity.device_name, "NVIDIA H200");
  EXPECT_EQ(identity.vendor_id, 0x10DEu);
  EXPECT_EQ(identity.device_id, 0x2335u);
  EXPECT_EQ(identity.driver_version, 0x8C2A4000u);
  EXPECT_EQ(identity.pipeline_cache_uuid, device.pipeline_cache_uuid);
  EXPECT_EQ(identity.vkindex_version, VKINDEX_VERSION_STRING);
}

// ---------------------------------------------------------------------------------------------
// chooseTuning with a profile

TEST(TuningProfileTest, ChooseTuningTakesTheProfileOverTheTable) {
  const DeviceInfo device = profileTestDevice();
  const TuningProfile profile = profileTestProfile();
  ASSERT_TRUE(checkTuningProfileFits(profile, device).ok()) << checkTuningProfileFits(profile, device).toString();
  const StatusOr<TuningChoice> table = chooseTuning(device, {});
  const StatusOr<TuningChoice> choice = chooseTuning(device, {}, &profile);
  ASSERT_TRUE(table.ok() && choice.ok());
  EXPECT_EQ(choice->values.row_items, 16u);
  EXPECT_TRUE(choice->values.int64_units);
  EXPECT_EQ(choice->values.min_walk_lines, 4096u);
  EXPECT_EQ(choice->source(TuningValue::k_row_items), TuningSource::kProfile);
  EXPECT_EQ(choice->source(TuningValue::k_int64_units), TuningSource::kProfile);
  EXPECT_EQ(choice->source(TuningValue::k_min_walk_lines), TuningSource::kProfile);
  // Everything the profile does not name stays the table's.
  EXPECT_EQ(choice->source(TuningValue::k_workgroup_size), TuningSource::kTable);
  EXPECT_EQ(choice->values.workgroup_size, table->values.workgroup_size);
  EXPECT_EQ(choice->values.row_lanes, table->values.row_lanes);
  EXPECT_EQ(choice->values.min_atomic_walk_lines, table->values.min_atomic_walk_lines);
}

TEST(TuningProfileTest, GpuTuningIgnoresTheProfile) {
  const DeviceInfo device = profileTestDevice();
  const TuningProfile profile = profileTestProfile();
  ContextOverrides overrides;
  overrides.gpu_tuning = true;
  const StatusOr<TuningChoice> with = chooseTuning(device, overrides, &profile);
  const StatusOr<TuningChoice> without = chooseTuning(device, overrides);
  ASSERT_TRUE(with.ok() && without.ok());
  EXPECT_EQ(with->row, DriverClass::kOtherGpu);
  for (size_t i = 0; i < kTuningValueCount; ++i) {
    const auto value = static_cast<TuningValue>(i);
    EXPECT_EQ(tuningValue(with->values, value), tuningValue(without->values, value)) << tuningValueName(value);
    EXPECT_EQ(with->source(value), TuningSource::kOverride) << tuningValueName(value);
  }
}

TEST(TuningProfileTest, OverridesBeatTheProfile) {
  const DeviceInfo device = profileTestDevice();
  TuningProfile profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::k_workgroup_size, 512));
  ContextOverrides overrides;
  overrides.workgroup_size = 64;
  overrides.items_per_invocation = 2;
  overrides.min_walk_lines = 3;
  const StatusOr<TuningChoice> choice = chooseTuning(device, overrides, &profile);
  ASSERT_TRUE(choice.ok()) << choice.status().toString();
  EXPECT_EQ(choice->values.workgroup_size, 64u);
  EXPECT_EQ(choice->values.row_items, 2u);
  EXPECT_EQ(choice->values.min_walk_lines, 3u);
  EXPECT_EQ(choice->source(TuningValue::k_workgroup_size), TuningSource::kOverride);
  EXPECT_EQ(choice->source(TuningValue::k_row_items), TuningSource::kOverride);
  EXPECT_EQ(choice->source(TuningValue::k_min_walk_lines), TuningSource::kOverride);
  EXPECT_EQ(choice->source(TuningValue::k_int64_units), TuningSource::kProfile);  // no override for it
}

TEST(TuningProfileTest, ApplyFitsRowLanesToTheProfilesWorkgroup) {
  const DeviceInfo device = profileTestDevice();
  TuningProfile profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::k_workgroup_size, 8));
  ASSERT_TRUE(checkTuningProfileFits(profile, device).ok());
  const StatusOr<TuningChoice> choice = chooseTuning(device, {}, &profile);
  ASSERT_TRUE(choice.ok());
  EXPECT_EQ(choice->values.workgroup_size, 8u);
  EXPECT_EQ(choice->values.row_lanes, 8u);                                      // the NVIDIA row's 32, fitted
  EXPECT_EQ(choice->source(TuningValue::k_row_lanes), TuningSource::kProfile);  // the profile's doing
}

// ---------------------------------------------------------------------------------------------
// Damaged files

TEST(TuningProfileTest, EveryTruncationFails) {
  const std::string& text = validText();
  const size_t complete = text.find_last_not_of(" \n") + 1;  // the closing brace
  for (size_t length = 0; length < complete; ++length) {
    const StatusOr<TuningProfile> parsed = parseTuningProfile(text.data(), length);
    EXPECT_FALSE(parsed.ok()) << "a prefix of " << length << " bytes parsed";
    if (parsed.ok()) break;
  }
  EXPECT_TRUE(parseTuningProfile(text.data(), complete).ok());
  EXPECT_FALSE(parseTuningProfile(nullptr, 0).ok());
}

TEST(TuningProfileTest, RandomByteFlipsParseOrFailCleanly) {
  const std::string& text = validText();
  std::mt19937 engine(20240611);
  size_t parsed_count = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::string damaged = text;
    const int flips = 1 + static_cast<int>(engine() % 3);
    for (int f = 0; f < flips; ++f) {
      const size_t at = engine() % damaged.size();
      damaged[at] = (engine() % 2 == 0) ? static_cast<char>(damaged[at] ^ (1 << (engine() % 8)))
                                        : static_cast<char>(engine() % 256);
    }
    const StatusOr<TuningProfile> parsed = parseText(damaged);
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
      EXPECT_FALSE(parsed.status().message().empty());
      continue;
    }
    ++parsed_count;
    // What parses writes a file that parses to the same profile.
    const StatusOr<TuningProfile> again = parseText(formatTuningProfile(*parsed));
    ASSERT_TRUE(again.ok()) << again.status().toString();
    expectSameProfile(*parsed, *again);
  }
  EXPECT_GT(parsed_count, 0u);  // some flips land in a probe string or a digit
  RecordProperty("parsed", static_cast<int>(parsed_count));
}

TEST(TuningProfileTest, RefusesAnotherFormat) {
  expectParseFailure(replaced(validText(), "\"vkindex tuning profile\"", "\"vkindex tuning profil\""),
                     "format \"vkindex tuning profil\" is not \"vkindex tuning profile\"");
  expectParseFailure(replaced(validText(), "\"format\": \"vkindex tuning profile\",", ""), "no \"format\"");
  expectParseFailure(replaced(validText(), "\"vkindex tuning profile\"", "1"), "format is an integer, not a string");
  expectParseFailure("[1, 2]", "the file holds an array, not an object");
  expectParseFailure("", "not valid JSON");
}

TEST(TuningProfileTest, RefusesOtherVersions) {
  expectParseFailure(replaced(validText(), "\"version\": 1,", "\"version\": 2,"),
                     "tuning profile version 2 is not 1, the version this vkindex reads");
  expectParseFailure(replaced(validText(), "\"version\": 1,", "\"version\": 0,"), "tuning profile version 0 is not 1");
  expectParseFailure(replaced(validText(), "\"version\": 1,", "\"version\": 1.0,"),
                     "version is a number, not a non-negative integer");
  expectParseFailure(replaced(validText(), "\"version\": 1,", ""), "no \"version\"");
  // A newer version's new keys do not hide its version.
  expectParseFailure(replaced(validText(), "\"version\": 1,", "\"version\": 2, \"new\": {},"),
                     "tuning profile version 2 is not 1");
}

TEST(TuningProfileTest, RefusesAForeignDevice) {
  const TuningProfile profile = profileTestProfile();
  DeviceInfo other = profileTestDevice();
  other.vendor_id = 0x1002;
  expectFailure(checkTuningProfileFits(profile, other),
                "tuning profile was measured on device 10de:2335 driver 0x8c2a4000 (NVIDIA H200), not this device "
                "1002:2335 driver 0x8c2a4000 (NVIDIA H200)");
  other = profileTestDevice();
  other.device_id = 0x2336;
  expectFailure(checkTuningProfileFits(profile, other), "not this device 10de:2336 driver 0x8c2a4000");
  other = profileTestDevice();
  other.driver_version = 0x8C2A4001;
  expectFailure(checkTuningProfileFits(profile, other), "not this device 10de:2335 driver 0x8c2a4001");
  other = profileTestDevice();
  other.pipeline_cache_uuid[15] = 0;
  expectFailure(checkTuningProfileFits(profile, other),
                "measured with pipeline cache uuid a0a1a2a3a4a5a6a7a8a9aaabacadaeaf, not this device's "
                "a0a1a2a3a4a5a6a7a8a9aaabacadae00");
  // The name is for people only.
  other = profileTestDevice();
  other.name = "NVIDIA H200 NVL";
  EXPECT_TRUE(checkTuningProfileFits(profile, other).ok());
}

TEST(TuningProfileTest, RefusesAnotherVkindexVersion) {
  TuningProfile profile = profileTestProfile();
  profile.identity.vkindex_version = "0.0.9";
  expectFailure(checkTuningProfileFits(profile, profileTestDevice()),
                std::string("tuning profile was measured with vkindex 0.0.9, this is ") + libraryVersion());
}

TEST(TuningProfileTest, RefusesOversizedText) {
  std::string text = validText();
  text.resize(kMaxTuningProfileBytes, ' ');  // whitespace after the object: still one valid file
  EXPECT_TRUE(parseText(text).ok()) << parseText(text).status().toString();
  text += ' ';
  expectParseFailure(text, "65537 bytes, more than the 65536 a profile may have");
}

TEST(TuningProfileTest, RefusesDeepNestingFast) {
  const std::string brackets(100000, '[');
  const std::string profile_brackets(kMaxTuningProfileBytes, '[');
  expectParseFailure(profile_brackets, "not valid JSON: arrays and objects nested deeper than 16 at byte 16");
  expectParseFailure(
      replaced(validText(), "\"measurements\": []", "\"measurements\": [[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]"),
      "nested deeper than 16");
  const StatusOr<JsonValue> deep = parseJson(brackets.data(), brackets.size(), JsonLimits{});
  expectFailure(deep.status(), "nested deeper than 16");
  // Sixteen levels are allowed.
  const std::string sixteen = std::string(16, '[') + std::string(16, ']');
  EXPECT_TRUE(parseJson(sixteen.data(), sixteen.size()).ok());
}

TEST(TuningProfileTest, RefusesDuplicateKeys) {
  expectParseFailure(replaced(validText(), "\"version\": 1,", "\"version\": 1, \"version\": 1,"),
                     "duplicate key \"version\" in an object");
  expectParseFailure(replaced(validText(), "\"device_id\": 9013,", "\"device_id\": 9013, \"device_id\": 9013,"),
                     "duplicate key \"device_id\"");
  expectParseFailure(replaced(validText(), "\"value\": 4096,", "\"value\": 4096, \"value\": 4096,"),
                     "duplicate key \"value\"");
}

TEST(TuningProfileTest, RefusesAValueGivenTwice) {
  // In a file the second is a duplicate key.
  const std::string entry =
      "\"min_walk_lines\": {\"value\": 4096, \"probe\": \"gather rows for min_walk_lines\", "
      "\"measurements\": []}";
  expectParseFailure(replaced(validText(), entry, entry + ",\n" + entry), "duplicate key \"min_walk_lines\"");
  // A profile built in memory is checked too.
  TuningProfile profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::k_row_items, 8));
  expectFailure(checkTuningProfileFits(profile, profileTestDevice()), "tuning profile gives row_items twice");
}

TEST(TuningProfileTest, RefusesUnknownKeys) {
  expectParseFailure(replaced(validText(), "\"version\": 1,", "\"version\": 1, \"comment\": \"hi\","),
                     "unknown key \"comment\" in the profile");
  expectParseFailure(replaced(validText(), "\"vendor_id\": 4318,", "\"vendor_id\": 4318, \"bus\": 3,"),
                     "unknown key \"bus\" in device");
  expectParseFailure(replaced(validText(), "\"value\": 4096,", "\"value\": 4096, \"noise\": 0.1,"),
                     "unknown key \"noise\" in value min_walk_lines");
  expectParseFailure(
      replaced(validText(), "{\"candidate\": 8, \"ms\": 0.25}", "{\"candidate\": 8, \"ms\": 0.25, \"n\": 5}"),
      "unknown key \"n\" in row_items measurement");
  expectParseFailure(replaced(validText(), "\"device_id\": 9013, ", ""), "device has no \"device_id\"");
  expectParseFailure(replaced(validText(), ", \"probe\": \"gather rows for min_walk_lines\"", ""),
                     "value min_walk_lines has no \"probe\"");
  expectParseFailure(replaced(validText(), "{\"candidate\": 8, \"ms\": 0.25}", "{\"ms\": 0.25}"),
                     "row_items measurement has no \"candidate\"");
}

TEST(TuningProfileTest, RefusesAnUnknownValueName) {
  expectParseFailure(replaced(validText(), "\"min_walk_lines\": {", "\"min_walk_line\": {"),
                     "unknown tuning value \"min_walk_line\"");
}

TEST(TuningProfileTest, RefusesSettingsThatAreNotUnsignedIntegers) {
  const std::string from = "\"value\": 4096,";
  expectParseFailure(replaced(validText(), from, "\"value\": 1.5,"),
                     "min_walk_lines is a number, not a non-negative integer");
  expectParseFailure(replaced(validText(), from, "\"value\": -1,"),
                     "min_walk_lines is a number, not a non-negative integer");
  expectParseFailure(replaced(validText(), from, "\"value\": 4e3,"),
                     "min_walk_lines is a number, not a non-negative integer");
  expectParseFailure(replaced(validText(), from, "\"value\": true,"),
                     "min_walk_lines is a boolean, not a non-negative integer");
  expectParseFailure(replaced(validText(), from, "\"value\": \"4096\","),
                     "min_walk_lines is a string, not a non-negative integer");
  expectParseFailure(replaced(validText(), from, "\"value\": null,"),
                     "min_walk_lines is null, not a non-negative integer");
  expectParseFailure(replaced(validText(), from, "\"value\": 18446744073709551616,"),
                     "not valid JSON: an integer larger than 18446744073709551615 at byte");
  expectParseFailure(replaced(validText(), from, "\"value\": 99999999999999999999999,"),
                     "an integer larger than 18446744073709551615");
  expectParseFailure(replaced(validText(), from, "\"value\": 04096,"), "a number with a leading zero");
  EXPECT_TRUE(parseText(replaced(validText(), from, "\"value\": 18446744073709551615,")).ok());
  expectParseFailure(replaced(validText(), "\"candidate\": 8,", "\"candidate\": -8,"),
                     "row_items candidate is a number, not a non-negative integer");
  expectParseFailure(replaced(validText(), "\"vendor_id\": 4318,", "\"vendor_id\": 4294967296,"),
                     "vendor_id 4294967296 is larger than 4294967295");
  expectParseFailure(replaced(validText(), "\"driver_version\": 2351579136,", "\"driver_version\": 1e3,"),
                     "driver_version is a number, not a non-negative integer");
}

TEST(TuningProfileTest, RefusesBadTimesUuidsStringsAndSweeps) {
  expectParseFailure(replaced(validText(), "\"ms\": 0.25", "\"ms\": -0.25"), "row_items ms is negative");
  expectParseFailure(replaced(validText(), "\"ms\": 0.25", "\"ms\": \"fast\""),
                     "row_items ms is a string, not a number");
  expectParseFailure(replaced(validText(), "\"ms\": 0.25", "\"ms\": 1e999"), "a number beyond the range of a double");
  EXPECT_TRUE(parseText(replaced(validText(), "\"ms\": 0.25", "\"ms\": 25E-2")).ok());
  EXPECT_TRUE(parseText(replaced(validText(), "\"ms\": 0.25", "\"ms\": 3")).ok());
  expectParseFailure(replaced(validText(), "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", "a0a1a2a3a4a5a6a7a8a9aaabacadae"),
                     "pipeline_cache_uuid \"a0a1a2a3a4a5a6a7a8a9aaabacadae\" is not 32 hex digits");
  expectParseFailure(replaced(validText(), "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf", "a0a1a2a3a4a5a6a7a8a9aaabacadaeag"),
                     "is not 32 hex digits");
  expectParseFailure(replaced(validText(), "\"NVIDIA H200\"", "\"" + std::string(257, 'x') + "\""),
                     "a string longer than 256 bytes");
  EXPECT_TRUE(parseText(replaced(validText(), "\"NVIDIA H200\"", "\"" + std::string(256, 'x') + "\"")).ok());
  expectParseFailure(replaced(validText(), "\"measurements\": []", "\"measurements\": {}"),
                     "min_walk_lines measurements is an object, not an array");
  std::string sweep = "\"measurements\": [{\"candidate\": 0, \"ms\": 1}";
  for (size_t i = 1; i <= kMaxTuningMeasurements; ++i)
    sweep += ", {\"candidate\": " + std::to_string(i) + ", \"ms\": 1}";
  expectParseFailure(replaced(validText(), "\"measurements\": []", sweep + "]"),
                     "min_walk_lines has 65 measurements, more than 64");
  expectParseFailure(replaced(validText(), "\"device\": {", "\"device\": [{"), "not valid JSON");
  expectParseFailure(replaced(validText(), "\"values\": {", "\"values\": 3, \"x\": {"), "unknown key \"x\"");
}

TEST(TuningProfileTest, RefusesValuesOutsideTheirRangeOnTheDevice) {
  const DeviceInfo device = profileTestDevice();
  TuningProfile profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::k_items_per_invocation, 65));
  expectFailure(checkTuningProfileFits(profile, device),
                "tuning profile value items_per_invocation = 65 is outside its range [1, 64] on this device");

  profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::k_workgroup_size, 2048));
  expectFailure(checkTuningProfileFits(profile, device),
                "tuning profile value workgroup_size = 2048 is outside its range [1, 1024] on this device");
  profile.entries.back().setting = 1024;
  EXPECT_TRUE(checkTuningProfileFits(profile, device).ok());

  profile = profileTestProfile();
  profile.entries[0].setting = 5000;
  expectFailure(checkTuningProfileFits(profile, device),
                "tuning profile value row_items = 5000 is outside its range [1, 1024] on this device");

  // int64_units 1 where the device lacks shaderInt64.
  DeviceInfo no_int64 = device;
  no_int64.shader_int64 = false;
  expectFailure(checkTuningProfileFits(profileTestProfile(), no_int64),
                "tuning profile value int64_units = 1 is outside its range [0, 0] on this device");

  // A boolean of 2, or a 32-bit value of 2^32, never reaches setTuningValue's narrowing.
  profile = profileTestProfile();
  profile.entries[1].setting = 2;
  expectFailure(checkTuningProfileFits(profile, device), "int64_units = 2 is outside its range [0, 1]");
  profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::k_most_workgroup_runs, uint64_t{1} << 32));
  expectFailure(checkTuningProfileFits(profile, device), "most_workgroup_runs = 4294967296 is outside its range");

  profile = profileTestProfile();
  profile.entries.push_back(profileEntry(TuningValue::kCount, 1));
  expectFailure(checkTuningProfileFits(profile, device), "does not exist");
}

// ---------------------------------------------------------------------------------------------
// The JSON reader on its own

StatusOr<JsonValue> json(const std::string& text) { return parseJson(text.data(), text.size()); }

TEST(TuningProfileJsonTest, ReadsEveryKind) {
  const StatusOr<JsonValue> value =
      json(" {\"a\": [null, true, false, 0, 18446744073709551615, -0, -3, 2.5, 1E2, \"s\"], \"b\": {}} ");
  ASSERT_TRUE(value.ok()) << value.status().toString();
  ASSERT_EQ(value->kind, JsonValue::Kind::kObject);
  const JsonValue* a = value->member("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 10u);
  EXPECT_EQ(a->items[0].kind, JsonValue::Kind::kNull);
  EXPECT_TRUE(a->items[1].boolean);
  EXPECT_FALSE(a->items[2].boolean);
  EXPECT_EQ(a->items[3].kind, JsonValue::Kind::kInteger);
  EXPECT_EQ(a->items[4].integer, UINT64_MAX);
  EXPECT_EQ(a->items[5].kind, JsonValue::Kind::kNumber);
  EXPECT_TRUE(std::signbit(a->items[5].number));
  EXPECT_EQ(a->items[6].number, -3.0);
  EXPECT_EQ(a->items[7].number, 2.5);
  EXPECT_EQ(a->items[8].kind, JsonValue::Kind::kNumber);
  EXPECT_EQ(a->items[8].number, 100.0);
  EXPECT_EQ(a->items[9].text, "s");
  EXPECT_EQ(a->items[9].offset, 70u);
  EXPECT_EQ(value->member("b")->kind, JsonValue::Kind::kObject);
  EXPECT_EQ(value->member("c"), nullptr);
}

TEST(TuningProfileJsonTest, RefusesWhatRfc8259DoesNot) {
  const struct {
    const char* text;
    const char* error;
  } cases[] = {
      {"", "the text ends where a value should start at byte 0"},
      {"1 2", "unexpected text after the JSON value at byte 2"},
      {"{} x", "unexpected text after the JSON value at byte 3"},
      {"[1,]", "expected a JSON value at byte 3"},
      {"[1 2]", "expected ',' or ']' in an array at byte 3"},
      {"{\"a\" 1}", "expected ':' after an object key at byte 5"},
      {"{\"a\": 1,}", "expected a string key in an object at byte 8"},
      {"{a: 1}", "expected a string key in an object at byte 1"},
      {"{\"a\": 1, \"a\": 2}", "duplicate key \"a\" in an object at byte 9"},
      {"tru", "expected a JSON value at byte 0"},
      {"True", "expected a JSON value at byte 0"},
      {"NaN", "expected a JSON value at byte 0"},
      {"-", "a number without digits at byte 0"},
      {"+1", "expected a JSON value at byte 0"},
      {"01", "a number with a leading zero at byte 0"},
      {"1.", "a number without digits after its '.' at byte 0"},
      {".5", "expected a JSON value at byte 0"},
      {"1e", "a number without digits in its exponent at byte 0"},
      {"1e+", "a number without digits in its exponent at byte 0"},
      {"\"abc", "a string that never ends at byte 0"},
      {"\"a\tb\"", "a control character inside a string at byte 2"},
      {"\"\\x\"", "an unknown escape in a string at byte 1"},
      {"\"\\u12G4\"", "expected 4 hex digits after \\u at byte 5"},
      {"\"\\u12\"", "expected 4 hex digits after \\u at byte 5"},
      {"\"\\uDC00\"", "a low surrogate escape without a high one at byte 1"},
      {"\"\\uD800\"", "a high surrogate escape without a low one at byte 1"},
      {"\"\\uD800\\u0041\"", "a high surrogate escape without a low one at byte 1"},
      {"\xEF\xBB\xBF{}", "expected a JSON value at byte 0"},
      {"[1e400]", "a number beyond the range of a double at byte 1"},
  };
  for (const auto& c : cases) {
    const StatusOr<JsonValue> value = json(c.text);
    EXPECT_FALSE(value.ok()) << c.text;
    EXPECT_EQ(value.status().message(), c.error) << c.text;
  }
  const std::string long_number = "0." + std::string(70, '1');
  expectFailure(json(long_number).status(), "a number longer than 64 characters");
}

TEST(TuningProfileJsonTest, NeverReadsPastTheGivenSize) {
  const std::string text = "[1, 2]xyz";
  const StatusOr<JsonValue> value = parseJson(text.data(), 6);
  ASSERT_TRUE(value.ok()) << value.status().toString();
  EXPECT_EQ(value->items.size(), 2u);
  // "tr" of "true" cut by the size.
  expectFailure(parseJson("true", 2).status(), "expected a JSON value at byte 0");
  expectFailure(parseJson("\"\\u00e9\"", 5).status(), "the text ends inside a \\u escape");
}

TEST(TuningProfileJsonTest, NumbersIgnoreTheLocalesDecimalPoint) {
  const char* locales[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "C.UTF-8"};
  std::string previous = std::setlocale(LC_NUMERIC, nullptr);
  bool comma = false;
  for (const char* name : locales) {
    if (std::setlocale(LC_NUMERIC, name) != nullptr && std::string(std::localeconv()->decimal_point) == ",") {
      comma = true;
      break;
    }
  }
  const StatusOr<JsonValue> value = json("[0.125, 1.5e3]");
  std::string written;
  appendJsonNumber(written, 0.1);
  std::setlocale(LC_NUMERIC, previous.c_str());
  ASSERT_TRUE(value.ok()) << value.status().toString();
  EXPECT_EQ(value->items[0].number, 0.125);
  EXPECT_EQ(value->items[1].number, 1500.0);
  EXPECT_EQ(written, "0.1");
  // Where no such locale is installed (Debian's base image has only C and C.UTF-8) this checks the C
  // locale only; `comma` says which ran.
  RecordProperty("decimal_comma_locale", comma ? "yes" : "no");
}

TEST(TuningProfileJsonTest, WritesShortestRoundTrippingNumbersAndEscapedStrings) {
  const struct {
    double value;
    const char* text;
  } cases[] = {{0.0, "0"},      {0.5, "0.5"},
               {0.1, "0.1"},    {2.0, "2"},
               {1e-5, "1e-05"}, {1.0 / 3.0, "0.3333333333333333"},
               {1e21, "1e+21"}, {DBL_MAX, "1.7976931348623157e+308"}};
  for (const auto& c : cases) {
    std::string out;
    appendJsonNumber(out, c.value);
    EXPECT_EQ(out, c.text);
  }
  std::string nan_text;
  appendJsonNumber(nan_text, NAN);
  EXPECT_EQ(nan_text, "0");
  std::string text;
  appendJsonString(text, std::string("a\"\\/\b\f\n\r\t\x01\x1f\x7f\xC3\xA9", 14));
  EXPECT_EQ(text, "\"a\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\xC3\xA9\"");
}

}  // namespace
}  // namespace vkindex::plan
