#!/usr/bin/env bash
# arm64 Linux cross build (docs/embedding.md, "Cross builds"): Debian's g++-aarch64-linux-gnu with multiarch
# arm64 packages, the host's volk and the host build's SPIR-V (so the target needs only the Vulkan
# headers). Then, under qemu-aarch64, the plan tests and the C API test on arm64 lavapipe with the
# validation layer. First a portability check: POSIX-only headers appear only in src/platform/, so an
# Android or other non-Linux port touches one small folder.
# Usage: scripts/check-cross-arm64.sh [work folder]   (after scripts/build.sh: uses build/shaders)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
host_spirv=${VKINDEX_HOST_SPIRV_DIR:-$root/build/shaders}

posix=$(grep -rlE '#include <(unistd|fcntl|dlfcn|dirent|pthread|sys/[a-z_]+)\.h>' "$root/src" "$root/include" |
  grep -v "^$root/src/platform/" || true)
if [[ -n $posix ]]; then
  echo "cross: POSIX-only headers outside src/platform/:" >&2
  echo "$posix" >&2
  exit 1
fi
echo "cross: POSIX-only headers only in src/platform/"

"$root/scripts/setup-cross-arm64.sh"
lavapipe_icd=/usr/share/vulkan/icd.d/lvp_icd.aarch64.json
cmake -S "$root" -B "$work" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DVKINDEX_WERROR=ON -DVKINDEX_BUILD_TOOLS=OFF -DVKINDEX_BUILD_TESTS=ON \
  -DVKINDEX_VOLK_DIR=/usr/include -DVKINDEX_PREBUILT_SPIRV_DIR="$host_spirv" \
  -DVKINDEX_LAVAPIPE_ICD=$lavapipe_icd >/dev/null
cmake --build "$work" --target vkindex plan_test c_api_test
machine=$(readelf -h "$work/tests/plan_test" | sed -n 's/^ *Machine: *//p')
echo "cross: plan_test is built for $machine"
[[ $machine == AArch64 ]] || { echo "cross: plan_test is not an arm64 program" >&2; exit 1; }

# Under emulation (each test program runs as an arm64 process; the arm64 libraries come from multiarch).
# The exhaustive simulations take minutes under qemu; the rest of the plan tests cover every planner.
qemu-aarch64 "$work/tests/plan_test" --gtest_brief=1 --gtest_filter='-*SimulationTest*'
VKINDEX_TEST_DRIVER=lavapipe qemu-aarch64 "$work/tests/c_api_test" --gtest_brief=1
echo "cross: arm64 build and emulated tests passed"
