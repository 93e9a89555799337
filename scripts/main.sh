#!/usr/bin/env bash
# Quick start, main job: install, build, then on the default Vulkan device run the ONNX conformance
# cases for the indexing operators and print the benchmark table. Fails if an implemented operator
# fails a node test or a benchmark row; operators that report "is not implemented yet" are tolerated.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
scripts/build.sh
cli=build/tools/cli/vkindex
nodes=/usr/share/libonnx-testdata/data/node

# Prints the lines of `report` (stdin) that are failures other than "not implemented yet", and
# succeeds when there are any. `pattern` selects the failure lines.
real_failures() {
  grep -E "$1" | grep -v 'is not implemented yet'
}

echo; echo "== devices"
"$cli" devices

echo; echo "== ONNX node tests of the indexing operators (default device)"
set +e
report=$("$cli" onnx-test "$nodes"/test_gather* "$nodes"/test_scatter*)
set -e
echo "$report"
# Operators not implemented yet report so; anything else that is not a PASS is a real failure.
if real_failures '^(FAIL|ERROR)' <<<"$report"; then
  echo "main: an implemented operator failed its node tests" >&2
  exit 1
fi

echo; echo "== benchmark (default device)"
# The table streams as rows complete; a failed row prints "<workload> FAILED: <status>" and makes the
# command exit 1 after the remaining rows.
table=$(mktemp)
trap 'rm -f "$table"' EXIT
set +e
"$cli" bench | tee "$table"
bench_status=${PIPESTATUS[0]}
set -e
if [ "$bench_status" -ne 0 ]; then
  if real_failures ' FAILED: ' <"$table"; then
    echo "main: an implemented operator failed its benchmark row" >&2
    exit 1
  fi
  if ! grep -q ' FAILED: ' "$table"; then
    echo "main: the benchmark failed (exit status $bench_status) before its rows" >&2
    exit 1
  fi
fi
