#!/usr/bin/env bash
# Installs the arm64 cross toolchain and the multiarch arm64 packages scripts/check-cross-arm64.sh uses
# (run as root, after scripts/setup-debian.sh; idempotent).
set -euo pipefail
packages=(
  g++-aarch64-linux-gnu qemu-user                              # cross compiler, emulator
  libvulkan-dev:arm64 libgtest-dev:arm64                       # the target's Vulkan headers, GoogleTest
  mesa-vulkan-drivers:arm64 vulkan-validationlayers:arm64      # arm64 lavapipe and validation layer
)
dpkg --print-foreign-architectures | grep -qx arm64 || { dpkg --add-architecture arm64 && apt-get update -qq; }
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: arm64 cross toolchain installed"
