// The tuning table: every tuning value for every driver class, and the one function that picks a
// device's values from it. Where each cell comes from (a measurement, or a stated default and its
// reason): docs/tuning.md.
#include <algorithm>

#include "plan/tuning.hpp"
#include "plan/tuning_profile.hpp"

namespace vkindex::plan {
namespace {

constexpr uint64_t kNever = UINT64_MAX;

// PCI vendor ids (VkPhysicalDeviceProperties::vendorID).
constexpr uint32_t kVendorNvidia = 0x10DE;
constexpr uint32_t kVendorAmd = 0x1002;
constexpr uint32_t kVendorIntel = 0x8086;
constexpr uint32_t kVendorQualcomm = 0x5143;  // Adreno
constexpr uint32_t kVendorArm = 0x13B5;       // Mali
constexpr uint32_t kVendorGoogle = 0x1AE0;    // SwiftShader

struct TableRow {
  TuningValue value;
  std::array<uint64_t, kDriverClassCount> by_class;  // by DriverClass
};

// Columns in DriverClass order. SwiftShader and lavapipe were measured here; NVIDIA on an H200. AMD,
// Intel, Adreno, Mali and other GPUs take NVIDIA's values as stated defaults, unmeasured: they share
// what those values rest on (coalescing adjacent lanes, launch costs that make copy regions lose,
// thousands of invocations in flight), and a measured profile is what would change them.
// Booleans are 0 or 1; kNever is UINT64_MAX.
using V = TuningValue;
// clang-format off
constexpr TableRow kTable[] = {
    //                                   SwiftShader lavapipe NVIDIA  AMD     Intel   Adreno  Mali    other GPU
    {V::k_workgroup_size,                  {256,     256,     256,    256,    256,    256,    256,    256}},
    {V::k_items_per_invocation,            {4,       4,       4,      4,      4,      4,      4,      4}},
    {V::k_row_lanes,                       {1,       1,       32,     32,     32,     32,     32,     32}},
    {V::k_row_items,                       {256,     256,     4,      4,      4,      4,      4,      4}},
    {V::k_int64_units,                     {1,       1,       0,      0,      0,      0,      0,      0}},
    {V::k_native_float32_add,              {1,       1,       1,      1,      1,      1,      1,      1}},
    {V::k_min_copy_region_bytes,           {1,       4096,    kNever, kNever, kNever, kNever, kNever, kNever}},
    {V::k_few_copy_regions,                {32,      32,      4,      4,      4,      4,      4,      4}},
    {V::k_group_reserved_cursors,          {0,       0,       1,      1,      1,      1,      1,      1}},
    {V::k_most_workgroup_runs,             {0,       0,       1024,   1024,   1024,   1024,   1024,   1024}},
    {V::k_min_walk_lines,                  {1,       2,       65536,  65536,  65536,  65536,  65536,  65536}},
    {V::k_max_single_line_walk_updates,    {1 << 19, kNever,  kNever, kNever, kNever, kNever, kNever, kNever}},
    {V::k_min_soft_float_walk_lines,       {2,       2,       65536,  65536,  65536,  65536,  65536,  65536}},
    {V::k_min_atomic_walk_lines,           {2,       2,       65536,  65536,  65536,  65536,  65536,  65536}},
    {V::k_min_float32_add_fold_duplicates, {4,       0,       0,      0,      0,      0,      0,      0}},
    {V::k_claim_by_store,                  {1,       0,       0,      0,      0,      0,      0,      0}},
    {V::k_most_self_checked_write_indices, {64,      64,      64,     64,     64,     64,     64,     64}},
};
static_assert(std::size(kTable) == kTuningValueCount, "one table row per tuning value");

constexpr bool rowsInValueOrder() {
  for (size_t i = 0; i < std::size(kTable); ++i) {
    if (static_cast<size_t>(kTable[i].value) != i) return false;
  }
  return true;
}
static_assert(rowsInValueOrder(), "the table's rows follow VKINDEX_TUNING_VALUES");

bool names(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

void markOverridden(TuningChoice& choice, std::initializer_list<TuningValue> values) {
  for (TuningValue value : values) choice.sources[static_cast<size_t>(value)] = TuningSource::kOverride;
}

}  // namespace

DriverClass driverClassOf(const DeviceInfo& device) {
  if (device.type == "cpu") {
    const bool swiftshader = device.vendor_id == kVendorGoogle || names(device.driver_name, "SwiftShader") ||
                             names(device.name, "SwiftShader");
    return swiftshader ? DriverClass::kSwiftShader : DriverClass::kLavapipe;
  }
  switch (device.vendor_id) {
    case kVendorNvidia: return DriverClass::kNvidia;
    case kVendorAmd: return DriverClass::kAmd;
    case kVendorIntel: return DriverClass::kIntel;
    case kVendorQualcomm: return DriverClass::kAdreno;
    case kVendorArm: return DriverClass::kMali;
    default: return DriverClass::kOtherGpu;
  }
}

const char* driverClassName(DriverClass driver_class) {
  switch (driver_class) {
    case DriverClass::kSwiftShader: return "SwiftShader";
    case DriverClass::kLavapipe: return "lavapipe";
    case DriverClass::kNvidia: return "NVIDIA";
    case DriverClass::kAmd: return "AMD";
    case DriverClass::kIntel: return "Intel";
    case DriverClass::kAdreno: return "Adreno";
    case DriverClass::kMali: return "Mali";
    case DriverClass::kOtherGpu: return "other GPU";
  }
  return "unknown";
}

const char* tuningSourceName(TuningSource source) {
  switch (source) {
    case TuningSource::kTable: return "table";
    case TuningSource::kProfile: return "profile";
    case TuningSource::kOverride: return "override";
  }
  return "?";
}

Tuning tableTuning(DriverClass row, const DeviceInfo& device) {
  const auto cell = [row](TuningValue value) { return kTable[static_cast<size_t>(value)].by_class[size_t(row)]; };
  Tuning tuning;
#define VKINDEX_TUNING_FROM_TABLE(type, name, unset) tuning.name = static_cast<type>(cell(TuningValue::k_##name));
  VKINDEX_TUNING_VALUES(VKINDEX_TUNING_FROM_TABLE)
#undef VKINDEX_TUNING_FROM_TABLE
  // The baseline may allow only 128 invocations per workgroup.
  tuning.workgroup_size = std::min({tuning.workgroup_size, device.max_workgroup_invocations, device.max_workgroup_size_x});
  tuning.row_lanes = std::min(tuning.row_lanes, tuning.workgroup_size);
  tuning.int64_units = tuning.int64_units && device.shader_int64;
  tuning.native_float32_add = tuning.native_float32_add && device.float32_rounding_rte;
  return tuning;
}

StatusOr<TuningChoice> chooseTuning(const DeviceInfo& device, const ContextOverrides& overrides,
                                    const TuningProfile* profile) {
  const uint32_t largest_workgroup = std::min(device.max_workgroup_invocations, device.max_workgroup_size_x);
  if (overrides.workgroup_size > largest_workgroup) {
    return invalidArgument("ContextOverrides::workgroup_size " + std::to_string(overrides.workgroup_size) +
                           " exceeds this device's limit of " + std::to_string(largest_workgroup));
  }
  if (overrides.items_per_invocation > 64) {
    return invalidArgument("ContextOverrides::items_per_invocation " +
                           std::to_string(overrides.items_per_invocation) + " is above 64");
  }
  TuningChoice choice;
  choice.driver_class = driverClassOf(device);
  choice.row = overrides.gpu_tuning ? DriverClass::kOtherGpu : choice.driver_class;
  choice.values = tableTuning(choice.row, device);
  if (overrides.gpu_tuning) {
    choice.sources.fill(TuningSource::kOverride);  // the override chose the row
  } else if (profile != nullptr) {
    applyTuningProfile(*profile, choice);
  }
  Tuning& tuning = choice.values;
  if (overrides.workgroup_size > 0) {
    tuning.workgroup_size = overrides.workgroup_size;
    markOverridden(choice, {V::k_workgroup_size});
    if (tuning.row_lanes > tuning.workgroup_size) {
      tuning.row_lanes = tuning.workgroup_size;
      markOverridden(choice, {V::k_row_lanes});
    }
  }
  if (overrides.items_per_invocation > 0) {
    // Tests shrink items to exercise many blocks and windows with small tensors: row segments too.
    tuning.items_per_invocation = tuning.row_items = overrides.items_per_invocation;
    markOverridden(choice, {V::k_items_per_invocation, V::k_row_items});
  }
  if (overrides.min_walk_lines > 0) {
    tuning.min_walk_lines = tuning.min_soft_float_walk_lines = tuning.min_atomic_walk_lines = overrides.min_walk_lines;
    tuning.max_single_line_walk_updates = kNever;  // the override decides alone
    tuning.min_float32_add_fold_duplicates = 0;
    markOverridden(choice, {V::k_min_walk_lines, V::k_min_soft_float_walk_lines, V::k_min_atomic_walk_lines,
                            V::k_max_single_line_walk_updates, V::k_min_float32_add_fold_duplicates});
  }
  return choice;
}

}  // namespace vkindex::plan
