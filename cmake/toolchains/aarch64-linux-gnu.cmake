# Cross build for arm64 Linux on Debian: g++-aarch64-linux-gnu, with the target's libraries from
# multiarch packages (e.g. libvulkan-dev:arm64, libgtest-dev:arm64) under /usr/lib/aarch64-linux-gnu.
# vkindex itself needs only the Vulkan headers from the target; volk and the shader compiler are the
# host's (see README, "Embedding").
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Run the target's programs (gtest discovery, tests) under emulation when qemu-user is present.
find_program(VKINDEX_QEMU_AARCH64 qemu-aarch64)
if(VKINDEX_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${VKINDEX_QEMU_AARCH64})
endif()
