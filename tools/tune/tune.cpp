#include "tune.hpp"

#include <cmath>
#include <cstdio>
#include <memory>

#include "command_timer.hpp"
#include "copy_baselines.hpp"
#include "core/context_impl.hpp"
#include "core/tuning_profile_loading.hpp"
#include "measure.hpp"
#include "plan/tuning_profile.hpp"
#include "platform/cache_file.hpp"
#include "probes.hpp"
#include "progress_bar.hpp"
#include "timing_math.hpp"

namespace vkindex::tune {
namespace {

// A candidate's settings differ from the best by less than the noise of a shared machine: within this
// factor of the best time, the setting already in effect is kept (a profile moves a value only as far
// as the measurements demand).
constexpr double kNoiseFactor = 1.03;
// A winner other than the settings in effect is timed against them this many more times, alternating;
// it is taken only if the medians of all its rounds still differ by more than the noise.
constexpr int kConfirmRounds = 2;

struct SweepConfig {
  int runs = 5;  // timed runs per row and candidate, after one untimed run that is checked
};

// A candidate's time: the geometric mean over the probe's rows of each row's median device ms.
struct CandidateResult {
  std::vector<uint64_t> settings;
  double mean_ms = 0;
};

plan::Tuning withSettings(plan::Tuning tuning, const Probe& probe, const std::vector<uint64_t>& settings) {
  for (size_t i = 0; i < probe.values.size(); ++i) plan::setTuningValue(tuning, probe.values[i], settings[i]);
  plan::fitTuning(tuning);
  return tuning;
}

std::vector<uint64_t> settingsOf(const plan::Tuning& tuning, const Probe& probe) {
  std::vector<uint64_t> settings;
  for (plan::TuningValue value : probe.values) settings.push_back(plan::tuningValue(tuning, value));
  return settings;
}

// The probe's candidates that are legal on the device, the settings in effect first.
std::vector<std::vector<uint64_t>> legalCandidates(const Probe& probe, const plan::Tuning& current,
                                                   const DeviceInfo& device) {
  std::vector<std::vector<uint64_t>> result = {settingsOf(current, probe)};
  for (const std::vector<uint64_t>& candidate : probe.candidates) {
    bool legal = candidate != result.front();
    for (size_t i = 0; i < probe.values.size() && legal; ++i) {
      legal = plan::tuningRange(probe.values[i], device).contains(candidate[i]);
    }
    if (legal) result.push_back(candidate);
  }
  return result;
}

std::string settingsText(const std::vector<uint64_t>& settings) {
  std::string text;
  for (uint64_t setting : settings) {
    if (!text.empty()) text += ", ";
    text += setting == UINT64_MAX ? "never" : std::to_string(setting);
  }
  return text;
}

class Tuner {
 public:
  Tuner(Context& context, tools::CommandTimer& timer, SweepConfig config, ProgressBar& progress)
      : context_(context), timer_(timer), config_(config), progress_(progress) {}

  // Sweeps `probe` from the tuning in effect, leaves the chosen settings in effect and returns every
  // candidate's time.
  StatusOr<std::vector<CandidateResult>> sweep(const Probe& probe, std::vector<uint64_t>* chosen);

 private:
  // The geometric mean over `rows` of their median times with `candidate` set on top of `start`.
  StatusOr<double> timeCandidate(const Probe& probe, const plan::Tuning& start, const std::vector<uint64_t>& candidate,
                                 const std::vector<const bench::Workload*>& rows,
                                 std::vector<bench::PreparedCase>& prepared);
  // One row under the tuning in effect: a checked run, then config_.runs timed ones; the median.
  StatusOr<double> timeRow(const bench::Workload& row, bench::PreparedCase& prepared);

  Context& context_;
  tools::CommandTimer& timer_;
  SweepConfig config_;
  ProgressBar& progress_;
};

StatusOr<double> Tuner::timeRow(const bench::Workload& row, bench::PreparedCase& prepared) {
  const bool in_place = prepared.baseline_bytes != 0;
  if (in_place) {
    // The output already holds the result of the last candidate: start again from the row's inputs.
    VKINDEX_ASSIGN_OR_RETURN(prepared, row.prepare(context_));
  } else {
    // A candidate that wrote nothing must not pass on what the last one left.
    const Tensor& output = prepared.output;
    VKINDEX_RETURN_IF_ERROR(timer_
                                .run([&](VkCommandBuffer cmd) {
                                  bench::recordClear(*implOf(context_).device, cmd, output.buffer(), output.byteSize());
                                  return Status::Ok();
                                })
                                .status());
  }
  VKINDEX_RETURN_IF_ERROR(bench::runOperator(context_, timer_, prepared).status());
  VKINDEX_RETURN_IF_ERROR(
      bench::expectBytes(prepared.output, prepared.expected, prepared.output.byteSize(), row.name + " output"));
  std::vector<double> times;
  for (int run = 0; run < config_.runs; ++run) {
    VKINDEX_ASSIGN_OR_RETURN(tools::Sample sample, bench::runOperator(context_, timer_, prepared));
    times.push_back(sample.device_ms);
  }
  return tools::medianOf(times);
}

StatusOr<double> Tuner::timeCandidate(const Probe& probe, const plan::Tuning& start,
                                      const std::vector<uint64_t>& candidate,
                                      const std::vector<const bench::Workload*>& rows,
                                      std::vector<bench::PreparedCase>& prepared) {
  implOf(context_).tuning.values = withSettings(start, probe, candidate);
  double log_sum = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    progress_.show(probe.name + ": " + settingsText(candidate) + ", " + rows[i]->name);
    StatusOr<double> ms = timeRow(*rows[i], prepared[i]);
    if (!ms.ok()) {
      return Status(ms.status().code(),
                    "tune: " + probe.name + " with " + settingsText(candidate) + ": " + ms.status().message());
    }
    log_sum += std::log(std::max(*ms, 1e-6));
    progress_.advance();
  }
  return rows.empty() ? 0.0 : std::exp(log_sum / double(rows.size()));
}

StatusOr<std::vector<CandidateResult>> Tuner::sweep(const Probe& probe, std::vector<uint64_t>* chosen) {
  plan::Tuning& in_effect = implOf(context_).tuning.values;
  const plan::Tuning start = in_effect;
  const std::vector<std::vector<uint64_t>> candidates = legalCandidates(probe, start, context_.device());
  std::vector<bench::PreparedCase> prepared;
  std::vector<const bench::Workload*> rows;
  for (const bench::Workload& row : probe.rows) {
    StatusOr<bench::PreparedCase> made = row.prepare(context_);
    if (!made.ok() && made.status().code() == StatusCode::kUnsupported && row.skip_when_unsupported) continue;
    VKINDEX_RETURN_IF_ERROR(made.status());
    prepared.push_back(std::move(*made));
    rows.push_back(&row);
  }
  std::vector<CandidateResult> results;
  for (const std::vector<uint64_t>& candidate : candidates) {
    StatusOr<double> mean_ms = timeCandidate(probe, start, candidate, rows, prepared);
    if (!mean_ms.ok()) {
      in_effect = start;
      return mean_ms.status();
    }
    results.push_back({candidate, *mean_ms});
  }
  // The fastest, unless the settings in effect (results.front()) are within the noise of it.
  CandidateResult* best = &results.front();
  for (CandidateResult& result : results) {
    if (result.mean_ms < best->mean_ms) best = &result;
  }
  if (results.front().mean_ms <= best->mean_ms * kNoiseFactor) best = &results.front();
  if (best != &results.front()) {
    std::vector<double> start_ms = {results.front().mean_ms};
    std::vector<double> best_ms = {best->mean_ms};
    for (int round = 0; round < kConfirmRounds; ++round) {
      const std::pair<const CandidateResult*, std::vector<double>*> rivals[] = {{&results.front(), &start_ms},
                                                                                {best, &best_ms}};
      for (const auto& [rival, times] : rivals) {
        StatusOr<double> mean_ms = timeCandidate(probe, start, rival->settings, rows, prepared);
        if (!mean_ms.ok()) {
          in_effect = start;
          return mean_ms.status();
        }
        times->push_back(*mean_ms);
      }
    }
    // Both times become the medians of their rounds: what the report and the profile show.
    results.front().mean_ms = tools::medianOf(start_ms);
    best->mean_ms = tools::medianOf(best_ms);
    if (results.front().mean_ms <= best->mean_ms * kNoiseFactor) best = &results.front();
  }
  *chosen = best->settings;
  in_effect = withSettings(start, probe, *chosen);
  return results;
}

// The profile's entries for one probe: for each value, the candidates that differ from the chosen
// settings in that value alone.
void addEntries(const Probe& probe, const std::vector<CandidateResult>& results, const std::vector<uint64_t>& chosen,
                plan::TuningProfile& profile) {
  std::string rows;
  for (const bench::Workload& row : probe.rows) rows += (rows.empty() ? "" : ", ") + row.name;
  for (size_t i = 0; i < probe.values.size(); ++i) {
    plan::TuningProfileEntry entry;
    entry.value = probe.values[i];
    entry.setting = chosen[i];
    entry.probe = probe.name + ": geometric mean of median device ms over " + rows;
    for (const CandidateResult& result : results) {
      bool others_chosen = true;
      for (size_t j = 0; j < probe.values.size(); ++j) others_chosen &= j == i || result.settings[j] == chosen[j];
      if (others_chosen && entry.measurements.size() < plan::kMaxTuningMeasurements) {
        entry.measurements.push_back({result.settings[i], result.mean_ms});
      }
    }
    profile.entries.push_back(std::move(entry));
  }
}

void printProbe(std::ostream& out, const Probe& probe, const std::vector<CandidateResult>& results,
                const std::vector<uint64_t>& chosen) {
  std::string names;
  for (plan::TuningValue value : probe.values)
    names += (names.empty() ? "" : ", ") + std::string(plan::tuningValueName(value));
  double chosen_ms = results.front().mean_ms;
  for (const CandidateResult& result : results) {
    if (result.settings == chosen) chosen_ms = result.mean_ms;
  }
  char ratio[64];
  std::snprintf(ratio, sizeof(ratio), "%.3f", results.front().mean_ms > 0 ? chosen_ms / results.front().mean_ms : 1.0);
  out << probe.name << " (" << names << "): " << settingsText(results.front().settings) << " -> "
      << settingsText(chosen) << ", " << ratio << "x the time (" << results.size() << " candidates x "
      << probe.rows.size() << " rows)\n";
}

size_t progressSteps(const std::vector<Probe>& probes) {
  size_t steps = 0;
  // Every candidate, the one in effect, and the confirmation rounds of a winner.
  for (const Probe& probe : probes) steps += (probe.candidates.size() + 1 + 2 * kConfirmRounds) * probe.rows.size();
  return steps;
}

}  // namespace

Status runTune(const TuneOptions& options, std::ostream& out) {
  ContextOptions context_options;
  context_options.device = options.device;
  context_options.tuning_profile = "";  // measure from the table's values
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<Context> context, Context::create(context_options));
  if (implOf(*context).tuning.row != implOf(*context).tuning.driver_class) {
    return invalidArgument("tune: VKINDEX_GPU_TUNING is set; a profile is measured from the device's own table row");
  }
  const DeviceInfo& device = context->device();
  std::string path =
      options.output ? *options.output : defaultTuningProfilePath(device, vk::defaultPipelineCacheDirectory());
  if (path.empty()) return invalidArgument("tune: no pipeline cache folder to put the profile in; give --output FILE");
  VKINDEX_ASSIGN_OR_RETURN(std::unique_ptr<tools::CommandTimer> timer, tools::CommandTimer::create(*context));

  const std::vector<Probe> probes = tuningProbes(device, options.quick);
  out << "vkindex tune on " << device.name << " (" << timer->describe() << (options.quick ? ", quick" : "")
      << "): each probe's settings, table -> measured, and the time of the measured settings against the table's\n";
  ProgressBar progress(progressSteps(probes), options.progress);
  Tuner tuner(*context, *timer, SweepConfig{options.quick ? 3 : 5}, progress);
  plan::TuningProfile profile;
  profile.identity = plan::tuningProfileIdentityOf(device);
  for (const Probe& probe : probes) {
    std::vector<uint64_t> chosen;
    VKINDEX_ASSIGN_OR_RETURN(std::vector<CandidateResult> results, tuner.sweep(probe, &chosen));
    progress.clear();
    printProbe(out, probe, results, chosen);
    addEntries(probe, results, chosen, profile);
  }
  progress.clear();
  const std::string text = plan::formatTuningProfile(profile);
  VKINDEX_RETURN_IF_ERROR(platform::replaceCacheFile(path, text.data(), text.size()));
  out << "profile written: " << path << "\n";
  return Status::Ok();
}

}  // namespace vkindex::tune
