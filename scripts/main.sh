#!/usr/bin/env bash
# Quick start, main job: install, build, then on the default Vulkan device run the ONNX conformance
# cases for the indexing operators and print the benchmark table. Fails if an implemented operator
# fails a node test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
cli=build/tools/cli/vkindex
nodes=/usr/share/libonnx-testdata/data/node

echo; echo "== devices"
"$cli" devices

echo; echo "== ONNX node tests of the indexing operators (default device)"
set +e
report=$("$cli" onnx-test "$nodes"/test_gather* "$nodes"/test_scatter*)
set -e
echo "$report"
# Operators not implemented yet report so; anything else that is not a PASS is a real failure.
if grep -E '^(FAIL|ERROR)' <<<"$report" | grep -v 'is not implemented yet' ; then
  echo "main: an implemented operator failed its node tests" >&2
  exit 1
fi

echo; echo "== benchmark (default device)"
"$cli" bench
