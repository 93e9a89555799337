#!/usr/bin/env bash
# Quick start, main job: install, build, then on the default Vulkan device run the ONNX conformance
# cases for the indexing operators (Gather, GatherElements, GatherND, Scatter, ScatterElements,
# ScatterND: all implemented) and print the benchmark table. Fails if any node test or benchmark row
# fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh vkindex_cli  # the library and the CLI: the test suite is scripts/test.sh's
cli=build/tools/cli/vkindex
nodes=/usr/share/libonnx-testdata/data/node

echo; echo "== devices"
"$cli" devices

echo; echo "== ONNX node tests of the indexing operators (default device)"
# Every directory must PASS; onnx-test exits 1 on any FAIL or ERROR.
if ! "$cli" onnx-test "$nodes"/test_gather* "$nodes"/test_scatter*; then
  echo "main: an indexing operator failed its node tests" >&2
  exit 1
fi

echo; echo "== benchmark (default device)"
# The table streams as rows complete; a failed row prints "<workload> FAILED: <status>" and makes the
# command exit 1 after the remaining rows.
if ! "$cli" bench; then
  echo "main: the benchmark failed (a row above says FAILED, or it stopped before its rows)" >&2
  exit 1
fi
