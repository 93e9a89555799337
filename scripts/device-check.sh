#!/usr/bin/env bash
# Runs on a lent GPU machine (the `device` tool), from the bundle scripts/device-bundle.sh made here:
#   run(command="scripts/device-check.sh", carry=[".device"], timeout_s=580)
# In one call, as the device time is short: the devices, the ONNX node tests of the indexing
# operators (Debian's and the generated ones), the benchmark table, the GPU test suites with the
# validation layer on (the error and skip suites again under GPU-assisted validation), the table
# again with --steps and --json, the sweep, then `vkindex tune` (its profile in
# $OUT/tuning-profile.json). Each part's whole output is in $OUT/logs.tar.gz (one log per part; $OUT
# brings back few files) and its last lines are on the console. Each part has its own time limit,
# so one that hangs still leaves the others' results.
# VKINDEX_DEVICE_ICD names the ICD manifest where no NVIDIA one is found (also for a dry run on a CPU
# driver here). For a short check of one area, when little device time is left:
# VKINDEX_DEVICE_BENCH=<rows> runs only those bench rows (`vkindex bench --only`, with --steps) and no
# sweep, and VKINDEX_DEVICE_TESTS=<glob> only the test binaries it matches (e.g. 'scatter_*'; one
# that matches nothing, such as 'none', runs no suite). VKINDEX_DEVICE_SWEEP=0 leaves out the sweep
# parts, VKINDEX_DEVICE_ONNX=0 the node tests. VKINDEX_DEVICE_SECONDS (default 560) is the whole
# run's budget: each part's limit is cut to what is left, and a part that would get under 15 s is
# reported as not run, so the logs of the parts that ran come back inside the call's timeout_s.
# VKINDEX_DEVICE_AB=<rows> times builds against each other in the same call (timings from separate
# calls may come from different machines): each CLI in .device/ab/ (vkindex-<name>, e.g. stripped
# from a build of another branch here: strip -o .device/ab/vkindex-<name> build/tools/cli/vkindex)
# and the bundle's run `bench --steps --only <rows>` in turn, two rounds, after the bench part;
# the console gets each row's op ms, the logs the steps.
# Exits 1 if any part failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-/tmp/vkindex-device-out}
work=/tmp/vkindex-device
logs=$work/logs
mkdir -p "$out"
rm -rf "$work" && mkdir -p "$work"
tar -xJf .device/vkindex-device.tar.xz -C "$work" || { echo "device-check: no bundle; run scripts/device-bundle.sh" >&2; exit 1; }

# The GPU image has the NVIDIA driver but not the GL vendor-neutral dispatch libraries its Vulkan ICD
# (libGLX_nvidia) needs: without them the loader finds the ICD but gets no vkCreateInstance from it.
# device-bundle.sh downloads them as Debian packages; unpacked into / as the device tool's notes say.
if [[ -z ${VKINDEX_DEVICE_ICD:-} ]] && compgen -G ".device/gl/*.deb" >/dev/null && ! ldconfig -p | grep -q libGLdispatch; then
  for package in .device/gl/*.deb; do dpkg -x "$package" /; done
  ldconfig
fi

icd=${VKINDEX_DEVICE_ICD:-}
if [[ -z $icd ]]; then
  for candidate in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
                   /etc/vulkan/icd.d/nvidia_icd.json; do
    [[ -f $candidate ]] && { icd=$candidate; break; }
  done
fi
[[ -n $icd ]] || { echo "device-check: no NVIDIA ICD manifest found; set VKINDEX_DEVICE_ICD" >&2; exit 1; }
export VK_DRIVER_FILES=$icd
export VK_LAYER_PATH=$work/layers
export LD_LIBRARY_PATH=$work/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=$work/bin/vkindex
mkdir -p "$logs"
failed=()

# part NAME SECONDS LINES COMMAND...: runs one part with its limit; its output goes to $logs/NAME.log
# and its last LINES lines (40 if it failed) to the console, which the call returns only the end of.
budget_end=$((SECONDS + ${VKINDEX_DEVICE_SECONDS:-560}))
part() {
  local name=$1 seconds=$2 lines=$3
  shift 3
  echo "== $name"
  local left=$((budget_end - SECONDS))
  if ((left < 15)); then
    echo "== $name: not run, $left s of VKINDEX_DEVICE_SECONDS left"
    failed+=("$name (not run)")
    return
  fi
  ((seconds <= left)) || seconds=$left
  timeout "$seconds" "$@" >"$logs/$name.log" 2>&1
  local status=$?
  if ((status != 0)); then
    lines=40
    failed+=("$name (exit $status)")
  fi
  tail -n "$lines" "$logs/$name.log"
  ((status == 0)) || echo "== $name: exit $status"
  # After every part, so that the logs come back even if the call runs out of time later.
  tar -czf "$out/logs.tar.gz" -C "$logs" .
}

echo "bundle of commit $(cat "$work/commit"), ICD $icd"
part devices 60 20 "$cli" devices
if [[ ${VKINDEX_DEVICE_ONNX:-1} != 0 ]]; then
  part onnx 120 3 "$cli" onnx-test "$work"/nodes/*
  for generated in tensor_scatter_nodes gather_block_quantized_nodes numpy_nodes; do
    [[ -d $work/$generated ]] && part "onnx-$generated" 120 3 "$cli" onnx-test "$work/$generated"/*
  done
fi
if [[ -n ${VKINDEX_DEVICE_BENCH:-} ]]; then
  part bench-steps 180 80 "$cli" bench --steps --only "$VKINDEX_DEVICE_BENCH"
else
  part bench 180 45 "$cli" bench
fi
if [[ -n ${VKINDEX_DEVICE_AB:-} ]]; then
  for round in 1 2; do
    for binary in .device/ab/vkindex-* "$cli"; do
      [[ -x $binary ]] || continue
      name="ab-$round-$(basename "$binary")"
      [[ $binary == "$cli" ]] && name="ab-$round-bundle"
      part "$name" 90 0 "$binary" bench --steps --only "$VKINDEX_DEVICE_AB"
      # The console gets each row's op ms (median, min); the steps are in the log.
      awk -v name="$name" '$2 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ && NF >= 9 {print name ": " $1 " " $3 " ms (min " $4 ")"}' \
        "$logs/$name.log"
    done
  done
fi
for binary in "$work"/bin/${VKINDEX_DEVICE_TESTS:-*}_test; do
  [[ -x $binary ]] || continue  # a pattern that matched nothing (VKINDEX_DEVICE_TESTS=none: no suites)
  name=$(basename "$binary")
  part "$name" 120 1 "$binary" --gtest_brief=1
  if [[ $name == *_errors_test || $name == *_skip_test ]]; then
    part "$name.gpu_assisted" 120 1 env VKINDEX_TEST_DRIVER=+gpu_assisted "$binary" --gtest_brief=1
  fi
done
# Then what repeats the table's measurements in other forms, and last, as it takes longest, the
# device's own tuning profile (docs/tuning.md#profiles), for its values beside the table's.
if [[ -z ${VKINDEX_DEVICE_BENCH:-} ]]; then
  part bench-steps 180 0 "$cli" bench --steps
  part bench-json 180 0 "$cli" bench --json
  if [[ ${VKINDEX_DEVICE_SWEEP:-1} != 0 ]]; then
    part sweep 120 25 "$cli" bench --sweep
    # The sweep again as JSON lines, for scripts/plot-sweep.sh --input, with 128 MiB per point: 16 MiB
    # (the table above) stays in a large GPU's L2 cache (an H200's holds 60 MB), so this one times memory.
    part sweep-json 240 0 "$cli" bench --sweep --json --sweep-mib 128
    cp "$logs/sweep-json.log" "$out/sweep.jsonl"
  fi
  part tune 300 20 "$cli" tune --output "$out/tuning-profile.json"
fi

if ((${#failed[@]} > 0)); then
  echo "device-check: failed: ${failed[*]}"
  exit 1
fi
echo "device-check: every part passed"
