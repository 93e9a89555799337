#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy's focused checks, warnings as errors) over the library, tools and
# Python binding sources, using build/compile_commands.json, a few files per process on every core.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
git ls-files -z 'src/*.cpp' 'tools/*.cpp' 'python/src/*.cpp' | xargs -0 -P "$(nproc)" -n 4 clang-tidy -p build --quiet >"$log" 2>&1
status=$?  # xargs: non-zero when any clang-tidy run reported a finding
grep -v "warnings generated" "$log"
rm -f "$log"
if ((status != 0)); then
  echo "tidy: findings above" >&2
  exit 1
fi
echo "tidy: $(git ls-files 'src/*.cpp' 'tools/*.cpp' 'python/src/*.cpp' | wc -l) files clean"
