#include "measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "copy_baselines.hpp"
#include "host_floor.hpp"
#include "timing_math.hpp"

namespace vkindex::bench {
namespace {

// The baselines copy the first `bytes` bytes of `source` into `target`.
StatusOr<tools::Sample> runCopyBuffer(Context& context, tools::CommandTimer& timer, const Tensor& source,
                                      const Tensor& target, uint64_t bytes, bool clear_first) {
  const vk::Device& device = *implOf(context).device;
  return timer.run([&](VkCommandBuffer cmd) {
    if (clear_first) recordClear(device, cmd, target.buffer(), target.byteSize());
    recordCopyBuffer(device, cmd, source.buffer(), target.buffer(), bytes);
    return Status::Ok();
  });
}

StatusOr<tools::Sample> runComputeCopy(Context& context, tools::CommandTimer& timer, const Tensor& source,
                                       const Tensor& target, uint64_t bytes, bool clear_first, CopyLayout layout) {
  Context::Impl& impl = implOf(context);
  kernels::DescriptorPool descriptors;  // must outlive the commands: run() waits before returning
  return timer.run([&](VkCommandBuffer cmd) -> Status {
    if (clear_first) recordClear(*impl.device, cmd, target.buffer(), target.byteSize());
    VKINDEX_ASSIGN_OR_RETURN(descriptors,
                             recordComputeCopy(impl, cmd, source.buffer(), target.buffer(), bytes, layout));
    return Status::Ok();
  });
}

// `repeats` more runs of the operator with a timestamp after every dispatch: each kernel's median time.
StatusOr<std::vector<kernels::KernelTime>> splitByKernel(Context& context, tools::CommandTimer& timer,
                                                         PreparedCase& prepared, int repeats) {
  Context::Impl& impl = implOf(context);
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<kernels::StepTimestamps> stamps,
                           kernels::StepTimestamps::create(*impl.device));
  std::vector<kernels::KernelTime> split;
  std::vector<std::vector<double>> times;  // times[k]: split[k]'s time in every run
  const auto splitOneRun = [&]() -> Status {
    VKINDEX_RETURN_IF_ERROR(runOperator(context, timer, prepared, stamps.get()).status());
    VKINDEX_ASSIGN_OR_RETURN(std::vector<kernels::KernelTime> one, stamps->read());
    if (times.empty()) {
      split = one;
      times.resize(split.size());
    }
    if (one.size() != split.size()) return internalError("the operator's kernels changed from one run to the next");
    for (size_t k = 0; k < split.size(); ++k) times[k].push_back(one[k].device_ms);
    return Status::Ok();
  };
  impl.step_timestamps = stamps.get();
  Status ran = Status::Ok();
  for (int run = 0; run < repeats && ran.ok(); ++run) ran = splitOneRun();
  impl.step_timestamps = nullptr;  // before `stamps` goes: the Context must not keep a dangling hook
  VKINDEX_RETURN_IF_ERROR(ran);
  for (size_t k = 0; k < split.size(); ++k) split[k].device_ms = tools::medianOf(times[k]);
  return split;
}

}  // namespace

StatusOr<tools::Sample> runOperator(Context& context, tools::CommandTimer& timer, PreparedCase& prepared,
                                    kernels::StepTimestamps* steps) {
  std::optional<RecordedOp> op;
  StatusOr<tools::Sample> sample = timer.run([&](VkCommandBuffer cmd) -> Status {
    if (steps != nullptr) steps->begin(cmd);
    VKINDEX_ASSIGN_OR_RETURN(RecordedOp recorded, prepared.record(context, cmd, prepared.inputs, prepared.output));
    op = std::move(recorded);
    return Status::Ok();
  });
  // The timer returns only once the commands completed, so finishing here is always allowed.
  Status finished = op ? op->finish() : Status::Ok();
  if (!sample.ok()) return sample.status();
  VKINDEX_RETURN_IF_ERROR(finished);
  return sample;
}

Status expectBytes(const Tensor& tensor, const std::vector<uint8_t>& expected, uint64_t expected_size,
                   const std::string& what) {
  VKINDEX_ASSIGN_OR_RETURN(std::vector<uint8_t> actual, tensor.toHost());
  if (actual.size() != expected_size || expected_size > expected.size()) {
    return internalError(what + " has " + std::to_string(actual.size()) + " bytes, the CPU reference " +
                         std::to_string(expected_size));
  }
  auto mismatch = std::mismatch(actual.begin(), actual.end(), expected.begin()).first;
  if (mismatch != actual.end()) {
    size_t at = static_cast<size_t>(mismatch - actual.begin());
    return internalError(what + " differs from the CPU reference at byte " + std::to_string(at) + " (got " +
                         std::to_string(actual[at]) + ", expected " + std::to_string(expected[at]) + ")");
  }
  return Status::Ok();
}

Measurement summarize(const std::vector<double>& times) {
  return {tools::medianOf(times), *std::min_element(times.begin(), times.end())};
}

StatusOr<RowResult> measureWorkload(Context& context, tools::CommandTimer& timer, const Workload& workload,
                                    const MeasureOptions& options) {
  VKINDEX_ASSIGN_OR_RETURN(PreparedCase prepared, workload.prepare(context));
  const uint64_t output_bytes = prepared.output.byteSize();
  // What the baselines copy: the whole output, or for in-place rows the bytes the operator writes.
  const uint64_t bytes = prepared.baseline_bytes != 0 ? prepared.baseline_bytes : output_bytes;
  if (bytes == 0) return invalidArgument(workload.name + ": the output is empty; nothing to time");
  if (bytes > output_bytes) {
    return internalError(workload.name + ": the baselines would copy " + std::to_string(bytes) + " bytes of a " +
                         std::to_string(output_bytes) + "-byte output");
  }

  // The first run of each also warms up: pipelines are created and fresh memory is touched, untimed.
  VKINDEX_RETURN_IF_ERROR(runOperator(context, timer, prepared).status());
  VKINDEX_RETURN_IF_ERROR(expectBytes(prepared.output, prepared.expected, output_bytes, workload.op + " output"));
  VKINDEX_ASSIGN_OR_RETURN(Tensor target, Tensor::create(context, DataType::kUInt8, {static_cast<int64_t>(bytes)}));
  VKINDEX_RETURN_IF_ERROR(runCopyBuffer(context, timer, prepared.output, target, bytes, true).status());
  VKINDEX_RETURN_IF_ERROR(expectBytes(target, prepared.expected, bytes, "the vkCmdCopyBuffer baseline"));
  const std::vector<CopyLayout> layouts = computeCopyLayouts(tuningOf(context));
  for (const CopyLayout& layout : layouts) {
    VKINDEX_RETURN_IF_ERROR(runComputeCopy(context, timer, prepared.output, target, bytes, true, layout).status());
    VKINDEX_RETURN_IF_ERROR(expectBytes(target, prepared.expected, bytes, "the compute-copy baseline"));
  }
  std::optional<HostFloor> host_floor;
  if (options.host_floor && prepared.copy_regions) {
    // Timed apart from the device's runs (it needs no device), with the row's fixed N or the most runs
    // a row may take.
    const int floor_repeats = options.repeats > 0 ? options.repeats : options.max_repeats;
    VKINDEX_ASSIGN_OR_RETURN(const std::vector<plan::CopyRegion> regions, prepared.copy_regions(prepared.inputs[0]));
    // None where the rows are too many for a copy path (plan::kMaxCopyRows): no floor then.
    if (!regions.empty()) {
      VKINDEX_ASSIGN_OR_RETURN(host_floor,
                               measureHostFloor(prepared.host_data, regions, prepared.expected, floor_repeats));
    }
  }
  std::vector<uint8_t>().swap(prepared.host_data);
  std::vector<uint8_t>().swap(prepared.expected);  // the host copies are not needed while timing

  // Interleaved, so drift on a shared machine (other jobs, clocks) affects all of them alike.
  std::vector<double> op_ms, copy_ms;
  std::vector<std::vector<double>> compute_ms(layouts.size());
  int repeats = options.repeats;
  for (int run = 0; repeats == 0 || run < repeats; ++run) {
    auto start = std::chrono::steady_clock::now();
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample op, runOperator(context, timer, prepared));
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample copy, runCopyBuffer(context, timer, prepared.output, target, bytes, false));
    for (size_t i = 0; i < layouts.size(); ++i) {
      VKINDEX_ASSIGN_OR_RETURN(tools::Sample compute,
                               runComputeCopy(context, timer, prepared.output, target, bytes, false, layouts[i]));
      compute_ms[i].push_back(compute.device_ms);
    }
    op_ms.push_back(op.device_ms);
    copy_ms.push_back(copy.device_ms);
    if (repeats == 0) {
      // Sized from the first timed run (warm, unlike the verification runs) to fit the row budget.
      double estimate = std::round(options.row_budget_ms / std::max(tools::millisecondsSince(start), 1e-3));
      repeats = static_cast<int>(std::clamp(estimate, double(options.min_repeats), double(options.max_repeats)));
    }
  }
  RowResult row;
  if (options.steps) {
    VKINDEX_ASSIGN_OR_RETURN(row.steps, splitByKernel(context, timer, prepared, repeats));
  }
  row.output_bytes = bytes;
  row.traffic_bytes = prepared.traffic_bytes != 0 ? prepared.traffic_bytes : 2 * bytes;
  row.repeats = repeats;
  row.host_floor = host_floor;
  row.op = summarize(op_ms);
  row.copy_buffer = summarize(copy_ms);
  // The ceiling is the fastest copy layout on this device.
  row.compute_copy = summarize(compute_ms[0]);
  for (size_t i = 1; i < layouts.size(); ++i) {
    const Measurement candidate = summarize(compute_ms[i]);
    if (candidate.median_ms < row.compute_copy.median_ms) row.compute_copy = candidate;
  }
  return row;
}

}  // namespace vkindex::bench
