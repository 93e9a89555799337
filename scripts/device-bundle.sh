#!/usr/bin/env bash
# Packs what scripts/device-check.sh runs on a lent GPU machine (the `device` tool) into
# .device/vkindex-device.tar.xz (git-ignored): that machine has CMake and a C++ compiler but no
# glslang, no Vulkan loader, no validation layer, no ONNX libraries and no network, so the binaries are
# built here and travel with every library they load (and the GL dispatch packages NVIDIA's ICD
# needs). Then, in one device call:
#   run(command="scripts/device-check.sh", carry=[".device"], timeout_s=580)
# Stripped and compressed, the bundle is about 20 MiB of the 64 MiB a call may carry.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh

# The GPU test binaries that run there: every operator suite, its error suite (also under GPU-assisted
# validation), the window and embedding suites. Left out: out_of_memory_test and memory_limits_test
# (they exhaust or cap device memory, which on a GPU with 80-140 GiB takes minutes), the pipeline-cache
# and soak suites (a worker path compiled into them, and long runs), and the host-only suites, which
# CI runs.
tests=(gather_test gather_errors_test gather_windows_test gather_family_windows_test gather_elements_test
       gather_elements_errors_test gather_nd_test gather_nd_errors_test scatter_elements_test scatter_nd_test
       scatter_errors_test host_index_gather_test gather_elements_nd_recording_test embedding_test
       chunked_transfer_test threading_test c_api_test context_test tensor_scatter_test tensor_scatter_errors_test
       gather_block_quantized_test gather_block_quantized_errors_test gather_skip_test scatter_skip_test
       scatter_bool_string_test)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$stage/layers" "$stage/nodes"
strip -o "$stage/bin/vkindex" build/tools/cli/vkindex
for t in "${tests[@]}"; do strip -o "$stage/bin/$t" "build/tests/$t"; done

# Every shared library the binaries load beyond what any glibc system has, and the loader they dlopen.
lib=/usr/lib/$(gcc -dumpmachine)
cp -L "$lib/libvulkan.so.1" "$lib/libprotobuf.so.32" "$lib/libonnx_proto.so.1" "$stage/lib/"
# The Khronos validation layer (the tests fail on any of its messages), its manifest pointing beside it.
cp -L "$lib/libVkLayer_khronos_validation.so" "$stage/layers/"
sed 's|"library_path": "[^"]*"|"library_path": "./libVkLayer_khronos_validation.so"|' \
  /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json >"$stage/layers/VkLayer_khronos_validation.json"
cp -r /usr/share/libonnx-testdata/data/node/test_gather* /usr/share/libonnx-testdata/data/node/test_scatter* \
  "$stage/nodes/"
# The node tests CI generates (that machine has no numpy or onnx module): TensorScatter's and ONNX
# Runtime's GatherBlockQuantized cases, and the numpy differential cases, each in a folder of its own.
differential=tests/differential
/usr/bin/python3 $differential/tensor_scatter_node_tests.py "$stage/tensor_scatter_nodes" --seed 24 --cases 72 >/dev/null
/usr/bin/python3 $differential/gather_block_quantized_node_tests.py "$stage/gather_block_quantized_nodes" >/dev/null
/usr/bin/python3 $differential/numpy_node_tests.py "$stage/numpy_nodes" --seed 57 --small 300 --large 8 >/dev/null
# The commit the binaries were built from, marked where the working tree differs from it (a device
# check of uncommitted work must not read as one of the commit).
commit=$(git rev-parse HEAD)
[[ -z $(git status --porcelain --untracked-files=no) ]] || commit+=" plus uncommitted changes"
echo "$commit" >"$stage/commit"

mkdir -p .device
tar -cJf .device/vkindex-device.tar.xz -C "$stage" .

# NVIDIA's Vulkan ICD (libGLX_nvidia) needs the GL vendor-neutral dispatch libraries, which the GPU image
# lacks; device-check.sh unpacks these packages there (the device tool's notes name them).
if ! compgen -G ".device/gl/*.deb" >/dev/null; then
  mkdir -p .device/gl /tmp/vkindex-apt-lists/partial
  apt_options=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/vkindex-apt-lists)
  apt-get "${apt_options[@]}" update >/dev/null
  (cd .device/gl && apt-get "${apt_options[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
fi
echo "device-bundle: .device/vkindex-device.tar.xz, $(du -h .device/vkindex-device.tar.xz | cut -f1), commit $(cat "$stage/commit")"
