#include "probes.hpp"

#include <map>

#include "kv_write_row.hpp"

namespace vkindex::tune {
namespace {

using V = plan::TuningValue;
constexpr uint64_t kNever = UINT64_MAX;

// Every pair of settings from two lists, the first varying slowest.
std::vector<std::vector<uint64_t>> pairs(const std::vector<uint64_t>& first, const std::vector<uint64_t>& second) {
  std::vector<std::vector<uint64_t>> result;
  for (uint64_t a : first) {
    for (uint64_t b : second) result.push_back({a, b});
  }
  return result;
}

std::vector<std::vector<uint64_t>> each(const std::vector<uint64_t>& settings) {
  std::vector<std::vector<uint64_t>> result;
  result.reserve(settings.size());
  for (uint64_t setting : settings) result.push_back({setting});
  return result;
}

// The benchmark's table rows by name, and a few rows of its own.
class RowBook {
 public:
  explicit RowBook(bool quick) : quick_(quick) {
    for (bench::Workload& row : bench::workloads(quick)) rows_.emplace(row.name, std::move(row));
  }
  std::vector<bench::Workload> take(std::initializer_list<const char*> names) const {
    std::vector<bench::Workload> result;
    for (const char* name : names) result.push_back(rows_.at(name));
    return result;
  }
  // A decode step's token ids from a CPU sampler: `count` host indices into 1 KiB rows (quick: 256 B),
  // where copy regions and the kernel cross over by count.
  bench::Workload fewHostRows(int64_t count) const {
    const int64_t width = quick_ ? 64 : 256;
    return bench::hostIndexGatherWorkload("host-" + std::to_string(count) + "rows", DataType::kFloat32, {4000, width},
                                          DataType::kInt64, {count}, internal::ForcedPath(), uint64_t(count));
  }

 private:
  bool quick_;
  std::map<std::string, bench::Workload> rows_;
};

}  // namespace

std::vector<Probe> tuningProbes(const DeviceInfo& device, bool quick) {
  const RowBook book(quick);
  std::vector<Probe> probes;
  // Row segments: how many adjacent lanes share a segment and how many units each moves. GPUs want a
  // subgroup's lanes per segment (coalescing); CPU drivers one lane streaming a long run.
  probes.push_back({"row segments",
                    {V::k_row_lanes, V::k_row_items},
                    quick ? pairs({1, 32}, {4, 64, 256}) : pairs({1, 8, 32}, {4, 16, 64, 256, 1024}),
                    book.take({"embedding", "gathernd-rows", "elements-axis1", "scatternd-rows-inplace", "gbq-256k"})});
  // The workgroup width of every kernel and the units per invocation of the copy and check passes:
  // rows of each kernel family that takes them.
  probes.push_back(
      {"workgroups and copy passes",
       {V::k_workgroup_size, V::k_items_per_invocation},
       quick ? pairs({64, 256}, {1, 4}) : pairs({64, 128, 256}, {1, 2, 4, 8}),
       book.take({"uint8-rows", "elements-axis0", "middle-axis", "embedding", "gbq-256k", "scatter-add-dup8"})});
  if (device.shader_int64) {
    probes.push_back({"64-bit units", {V::k_int64_units}, each({0, 1}), book.take({"embedding", "gathernd-rows"})});
  }
  if (device.float32_rounding_rte) {
    probes.push_back({"the device's float32 adder",
                      {V::k_native_float32_add},
                      each({0, 1}),
                      book.take({"scatter-1d-add-hot", "scatter-add-dup8"})});
  }
  // Host-index gathers: copy regions or the kernel, by row size, then by count for small rows.
  probes.push_back({"copy regions by row size",
                    {V::k_min_copy_region_bytes},
                    each({1, 1024, 4096, 16384, kNever}),
                    book.take({"embedding-host", "gathernd-rows-host", "middle-axis-host"})});
  probes.push_back({"copy regions by count",
                    {V::k_few_copy_regions},
                    each({0, 4, 32, 256}),
                    {book.fewHostRows(1), book.fewHostRows(8), book.fewHostRows(64)}});
  // Scatter strategies: walk each line in index order, or a winner table / fold by owner / atomics.
  probes.push_back(
      {"walk or table",
       {V::k_min_walk_lines},
       each({1, 2, 64, 4096, 65536, kNever}),
       book.take({"scatter-perm", "scatter-1d-perm", "scatter-1d-sparse", "scatter-add-dup8", "scatter-1d-add"})});
  probes.push_back({"one long line",
                    {V::k_max_single_line_walk_updates},
                    each({1 << 16, 1 << 19, 1 << 22, kNever}),
                    book.take({"scatter-1d-perm"})});
  probes.push_back({"soft-float walks",
                    {V::k_min_soft_float_walk_lines},
                    each({0, 2, 64, 65536}),
                    book.take({"scatter-add-dup8", "scatter-max-dup8"})});
  probes.push_back(
      {"atomic walks", {V::k_min_atomic_walk_lines}, each({0, 2, 64, 65536}), book.take({"scatter-1d-i32-add-hot"})});
  probes.push_back({"float32 add folds",
                    {V::k_min_float32_add_fold_duplicates},
                    each({0, 2, 4, 16}),
                    book.take({"scatter-1d-add-hot", "scatter-1d-add-dup40"})});
  probes.push_back({"fold cursors",
                    {V::k_group_reserved_cursors},
                    each({0, 1}),
                    book.take({"scatter-1d-add", "scatter-1d-add-dup40"})});
  probes.push_back({"workgroup runs",
                    {V::k_most_workgroup_runs},
                    each({0, 16, 1024, 16384}),
                    book.take({"scatter-1d-add-hot", "scatter-1d-wide-add-hot"})});
  // TensorScatter: every invocation reads all write indices to check them itself, or a check pass.
  probes.push_back({"self-checked KV writes",
                    {V::k_most_self_checked_write_indices},
                    each({0, 8, 64, 512, 4096}),
                    {kvWriteRow(1), kvWriteRow(8), kvWriteRow(64), kvWriteRow(512)}});
  probes.push_back({"winner table claims",
                    {V::k_claim_by_store},
                    each({0, 1}),
                    book.take({"scatternd-1d-perm", "scatter-1d-sparse"})});
  return probes;
}

}  // namespace vkindex::tune
