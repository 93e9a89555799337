#!/usr/bin/env bash
# Configures and builds vkindex (library, CLI, tests) in build/ with warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKINDEX_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)"
