#!/usr/bin/env bash
# Configures and builds vkindex in build/ with warnings as errors: everything (library, CLI, tests), or
# only the targets named as arguments and what they need (scripts/main.sh: `scripts/build.sh vkindex_cli`).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKINDEX_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)" ${1:+--target "$@"}
