#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, AddressSanitizer and UndefinedBehaviorSanitizer into
# build-fuzz/, then runs each for a bounded time on a copy of its seed corpus (fuzz/corpus/<target>/).
# Usage: scripts/run-fuzzers.sh [seconds_per_target] (default 15; the targets run one per core, so the
# six take about 45 s on 2 cores).
# The differential target runs the operators on lavapipe (VK_DRIVER_FILES, unless already set).
# Fails when any target crashes, hangs or runs out of memory, and says where the input was saved.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
targets=(tensor_decode model_decode node_test_reader planners gbq_planner differential)
build=build-fuzz

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
  -DVKINDEX_WERROR=ON -DVKINDEX_BUILD_FUZZERS=ON -DVKINDEX_BUILD_TOOLS=ON -DVKINDEX_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$build" -j "${VKINDEX_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"

# UndefinedBehaviorSanitizer's reports with the stack that led there.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.$(uname -m).json}
# One target's run; its status is libFuzzer's (non-zero on a finding).
fuzz_target() {
  local target=$1
  # A fresh copy each run: what libFuzzer adds to the corpus stays out of the source tree.
  local work="$build/fuzz-runs/$target"
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp fuzz/corpus/"$target"/* "$work/corpus/"
  # -timeout: one input running 10 s is a hang; -rss_limit_mb: 2 GiB is an out-of-memory finding.
  # The Vulkan driver and loader keep allocations to process exit, which are not the library's leaks
  # (the GPU tests' ASan run ignores them too): so for the differential target neither libFuzzer's
  # per-input check nor LeakSanitizer's at exit. Debian's lavapipe 22.3.6-1+deb12u2 leaks 128 bytes
  # on every run, reported from "<unknown module>" once the loader has unloaded it (SwiftShader runs
  # the same inputs clean). The library's host code keeps leak detection in the other targets and the
  # host-only ASan tests.
  local leaks=1
  [[ $target == differential ]] && leaks=0
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$leaks" "$build/fuzz/fuzz_$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=$leaks \
    -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" >"$work/log.txt" 2>&1
}

# Every libFuzzer process is single-threaded, so the targets run side by side, one per core; each
# writes its status beside its log.
jobs_max=${VKINDEX_JOBS:-$(nproc)}
mkdir -p "$build/fuzz-runs"
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  (if fuzz_target "$target"; then echo 0; else echo 1; fi >"$build/fuzz-runs/$target.status") &
done
wait

failed=()
for target in "${targets[@]}"; do
  work="$build/fuzz-runs/$target"
  log="$work/log.txt"
  if [[ $(cat "$work.status") == 0 ]]; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $target: ${runs:-?} runs in ${seconds} s ($((${runs:-0} / seconds)) per second), no findings"
  else
    tail -n 60 "$log"
    echo "fuzz: $target FAILED; full log in $log" >&2
    for artifact in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*; do
      [[ -e $artifact ]] || continue
      echo "fuzz: input saved as $artifact; reproduce with: $build/fuzz/fuzz_$target $artifact" >&2
    done
    failed+=("$target")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets clean"
