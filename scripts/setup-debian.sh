#!/usr/bin/env bash
# Installs everything vkindex needs to build, test and benchmark on Debian 12 (run as root).
# Idempotent: packages already present are kept.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libvulkan-dev libvulkan-volk-dev glslang-tools spirv-tools   # headers, loader shim, shader tools
  googletest libgtest-dev                                      # tests
  python3-onnx python3-numpy                                   # the numpy-referenced node tests
  python3-dev pybind11-dev python3-pybind11 python3-pytest     # the Python module and its tests
  python3-torch                                                # the Python tests' scatter references
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata  # ONNX I/O in tools/tests, node tests
  libcli11-dev nlohmann-json3-dev                              # the CLI's arguments and JSON output
  mesa-vulkan-drivers vulkan-validationlayers                  # lavapipe, Khronos validation layer
  chromium-common                                              # ships SwiftShader (libvk_swiftshader.so)
  clang-format clang-tidy                                      # formatting and lint checks
  clang libclang-rt-14-dev                                     # libFuzzer targets (scripts/run-fuzzers.sh)
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's SwiftShader manifest sits beside Chromium, outside the loader's search path, and names its
# library relatively. Register it system-wide with an absolute path so `vkindex devices` lists it.
swiftshader=/usr/lib/chromium/libvk_swiftshader.so
manifest=/etc/vulkan/icd.d/vkindex_swiftshader_icd.json
if [[ -f $swiftshader && ! -f $manifest ]]; then
  mkdir -p "$(dirname "$manifest")"
  printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.0.5"}}\n' \
    "$swiftshader" >"$manifest"
fi
echo "setup: dependencies installed"
