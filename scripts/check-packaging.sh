#!/usr/bin/env bash
# Packaging checks (docs/embedding.md): vkindex built as a static and as a shared library, installed,
# and embedded by two applications (C++ and C, tests/packaging/consumer) that also link libvulkan and
# call Vulkan themselves, then run a Gather through vkindex on lavapipe. The applications are built
# through find_package after `cmake --install` (the C one also from a project that enables only C,
# tests/packaging/c_only_consumer), through pkg-config, and through add_subdirectory.
# Also checks that the libraries expose no symbol but vkindex's own (volk's globals are renamed).
# Usage: scripts/check-packaging.sh [work folder]   (default: a fresh temporary folder)
# VKINDEX_STATIC_BUILD=<build folder>: install the static library from that existing (static) build
# instead of building one. The libraries here are built without optimization and as unity builds: only
# linking matters.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json}
export VKINDEX_PIPELINE_CACHE_DIR=$work/pipeline_cache
consumer=$root/tests/packaging/consumer
library_options=(-G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_UNITY_BUILD=ON -DVKINDEX_WERROR=ON -DVKINDEX_BUILD_TESTS=OFF
  -DVKINDEX_BUILD_TOOLS=OFF)

step() { printf '\n== packaging: %s\n' "$*"; }

# libvkindex.so exports only vkindex's own symbols: the C API (vkindex*) and namespace vkindex (mangled
# names containing "7vkindex"). libvkindex.a defines no global named like Vulkan's functions or volk's
# (vk*, volk*): those would take the place of the application's own Vulkan functions.
check_symbols() {
  local library=$1 listing foreign
  if [[ $library == *.so ]]; then
    listing=$(nm -D --defined-only "$library" | awk '{print $3}')
    foreign=$(grep -v -e '^vkindex' -e '7vkindex' <<<"$listing" || true)
  else
    listing=$(nm --defined-only --extern-only "$library" | awk 'NF == 3 {print $3}')
    foreign=$(grep -E '^(vk|volk)' <<<"$listing" | grep -v '^vkindex' || true)
  fi
  if [[ -n $foreign ]]; then
    echo "packaging: $library exports symbols that are not vkindex's:" >&2
    head -20 <<<"$foreign" >&2
    exit 1
  fi
  # And every C function the header declares is there.
  local declared missing=""
  declared=$(grep -o 'VKINDEX_API [^(]* \**vkindex[A-Za-z]*(' "$root/include/vkindex/vkindex.h" | grep -o 'vkindex[A-Za-z]*(' | tr -d '(')
  for name in $declared; do
    grep -qx "$name" <<<"$listing" || missing+=" $name"
  done
  if [[ -n $missing ]]; then
    echo "packaging: $library lacks C API functions:$missing" >&2
    exit 1
  fi
  echo "packaging: $(basename "$library"): $(wc -l <<<"$listing") global symbols, none foreign, all $(wc -w <<<"$declared") C functions"
}

run_consumers() {
  local build=$1
  "$build/consumer_cpp"
  "$build/consumer_c"
}

for kind in static shared; do
  shared=OFF
  [[ $kind == shared ]] && shared=ON
  prefix=$work/$kind-prefix
  step "$kind library: build and install into $prefix"
  library_build=$work/$kind-library
  if [[ $kind == static && -n ${VKINDEX_STATIC_BUILD:-} ]]; then
    library_build=$VKINDEX_STATIC_BUILD
  else
    cmake -S "$root" -B "$library_build" "${library_options[@]}" -DVKINDEX_BUILD_SHARED=$shared >/dev/null
    cmake --build "$library_build"
  fi
  cmake --install "$library_build" --prefix "$prefix" >/dev/null
  library=$(find "$prefix" -name "libvkindex.a" -o -name "libvkindex.so" | head -1)
  check_symbols "$library"

  step "$kind library: consumers through find_package"
  cmake -S "$consumer" -B "$work/$kind-package" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$kind-package"
  run_consumers "$work/$kind-package"

  step "$kind library: the C consumer through find_package, from a project that enables only C"
  cmake -S "$root/tests/packaging/c_only_consumer" -B "$work/$kind-c-only" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$kind-c-only"
  "$work/$kind-c-only/consumer_c"

  step "$kind library: the C consumer through pkg-config"
  pc_dir=$(dirname "$(find "$prefix" -name vkindex.pc)")
  pkg_flags=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs $([[ $kind == static ]] && echo --static) vkindex)
  # shellcheck disable=SC2086 # the flags are words
  cc -std=c99 -Wall -Werror -I"$consumer" "$consumer/consumer.c" $pkg_flags -lvulkan -o "$work/$kind-consumer-c"
  LD_LIBRARY_PATH=$(dirname "$library") "$work/$kind-consumer-c"
done

step "consumers through add_subdirectory"
cmake -S "$consumer" -B "$work/subdirectory" -G Ninja -DCMAKE_UNITY_BUILD=ON -DVKINDEX_CONSUMER_SOURCE_DIR="$root" >/dev/null
cmake --build "$work/subdirectory"
run_consumers "$work/subdirectory"
echo "packaging: all checks passed"
