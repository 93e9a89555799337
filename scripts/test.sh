#!/usr/bin/env bash
# Quick start, tests: install, build, and run the whole suite with ctest: plan tests (no GPU), every
# GPU test on SwiftShader and on lavapipe with the validation layer on, the bad-index tests also under
# GPU-assisted validation, a 20 s soak per driver, the ONNX node tests and the CLI. Then the packaging
# checks and the arm64 cross build, the host code's unit tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer, the formatting check and clang-tidy.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time, so that a slow run says where its time went.
stage_start=$SECONDS
stage_done() {
  echo "== $1: $((SECONDS - stage_start)) s (total $SECONDS s)"
  stage_start=$SECONDS
}
scripts/setup-debian.sh
stage_done setup
scripts/build.sh
stage_done build
# The synchronization-validation set (label sync: every GPU binary again on lavapipe+sync) is left out
# here: ~5 minutes on 2 cores (4.6 measured). Run it by hand: (cd build && ctest -L sync -j "$(nproc)").
(cd build && ctest --output-on-failure -j "$(nproc)" -LE sync)
stage_done ctest

# Packaging and embedding (docs/embedding.md): the static library installed from build/, a shared one,
# and C and C++ applications that link libvulkan too, through find_package, pkg-config and
# add_subdirectory. Then the arm64 cross build, with the plan tests and the C API test under qemu.
VKINDEX_STATIC_BUILD=build scripts/check-packaging.sh
stage_done packaging
scripts/check-cross-arm64.sh
stage_done cross-arm64

# AddressSanitizer + UndefinedBehaviorSanitizer: the host-only tests with leak detection, then the
# library's host code through the lavapipe GPU tests and the CLI. Leak detection is off there: the
# Vulkan loader, driver and layer keep allocations past exit by design, and they are not ours.
# Like every build here but build/ (whose compile commands clang-tidy reads), a unity build: half the
# compile time of one source per compiler run on 2 cores (measured: 201 s against 392 s).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DVKINDEX_WERROR=ON -DVKINDEX_SANITIZE=ON \
  -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
stage_done asan-build
# Left out of both sets, to keep CI short (each runs in the plain build above): tests whose time goes into
# many or large inputs rather than into host code that the others do not reach. Host-only: the planner
# simulations at every offset on tiny devices (~250 of the set's ~310 CPU seconds under ASan); the
# random-shape simulations still drive every planner. GPU: the type matrices (AllTypes/, DefinedPairs/),
# the window tests (WindowsTest, DataLargerThanMaxStorageBufferRange), the generated ONNX matrix, the
# memory-limit tests, the bench sweep, and the heavy add and mul runs (33 s under ASan, the set's
# longest test; the heavy max/min and float32 add tests take the same planner through the same passes).
# The host code they reach (planners, recorder, transfers, windows) runs in the shape, error, embedding,
# windowed-scatter and C API suites. Each GPU suite is one ctest test, so whole suites leave through -E
# and single tests through VKINDEX_GTEST_EXCLUDE (tests/support/gpu_test_main.cpp).
(cd build-asan && ctest --output-on-failure -j "$(nproc)" -R '^(plan|kernels|onnx_io)\.' -E 'OnTinyDevicesAtEveryOffset')
(cd build-asan && ASAN_OPTIONS=detect_leaks=0 \
  VKINDEX_GTEST_EXCLUDE='*.DataLargerThanMaxStorageBufferRange:*.HeavyAddAndMulRunsStagedByWorkgroupsKeepIndexOrder' \
  ctest --output-on-failure -j "$(nproc)" -R '^lavapipe\.' \
  -E 'gpu_assisted|AllTypes/|DefinedPairs/|WindowsTest|OnnxGeneratedTest|MemoryLimitsTest|bench_sweep')
stage_done asan-tests

# libFuzzer: the ONNX reader and the planners on random input for about a minute, under the same
# sanitizers, built with clang into build-fuzz/.
scripts/run-fuzzers.sh
stage_done fuzzers

scripts/check-format.sh
scripts/check-tidy.sh
stage_done format-and-tidy
