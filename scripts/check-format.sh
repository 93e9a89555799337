#!/usr/bin/env bash
# Fails if any C++ source differs from .clang-format's style (GLSL has no clang-format mode; shaders
# follow the same layout by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' ':!:shaders/*')
clang-format --dry-run --Werror "${files[@]}"
echo "format: ${#files[@]} files clean"
