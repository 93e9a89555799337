#!/usr/bin/env bash
# Quick start, tests: install, build, and run the whole suite with ctest: plan tests (no GPU), every
# GPU test on SwiftShader and on lavapipe with the validation layer on, the bad-index tests also under
# GPU-assisted validation, the ONNX node tests and the CLI. Then the host code's unit tests again
# under AddressSanitizer and UndefinedBehaviorSanitizer, the formatting check and clang-tidy.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)")

# Sanitizers on the host-only code (the Vulkan drivers themselves are not sanitizer-clean).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DVKINDEX_WERROR=ON -DVKINDEX_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)" --target plan_test onnx_io_test
(cd build-asan && ctest --output-on-failure -j "$(nproc)" -R '^(plan|onnx_io)\.')

scripts/check-format.sh
scripts/check-tidy.sh
