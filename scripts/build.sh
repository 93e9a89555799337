#!/usr/bin/env bash
# Configures and builds vkindex in build/ with warnings as errors: everything (library, CLI, tests, the
# Python module), or only the targets named as arguments and what they need (scripts/main.sh:
# `scripts/build.sh vkindex_cli`).
set -euo pipefail
cd "$(dirname "$0")/.."
# The Python module is built for Debian's interpreter, the one whose packages hold numpy and pytest.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKINDEX_WERROR=ON \
  -DVKINDEX_BUILD_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3 >/dev/null
cmake --build build -j "$(nproc)" ${1:+--target "$@"}
