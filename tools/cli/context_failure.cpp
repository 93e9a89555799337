#include "context_failure.hpp"

#include <sys/stat.h>

#include <cstdlib>

#include "quote.hpp"

namespace vkindex::tools {
namespace {

enum class Missing { kNothing, kLoader, kDriver, kDevice };

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// Recognized by the library's messages (src/vk/instance.cpp, src/vk/device.cpp), since the code alone,
// kDeviceError, also covers a lost device or full memory, where this advice would mislead.
Missing whatIsMissing(const Status& status) {
  if (status.code() != StatusCode::kDeviceError) return Missing::kNothing;
  if (contains(status.message(), "no Vulkan loader found")) return Missing::kLoader;
  // The loader answers vkCreateInstance with VK_ERROR_INCOMPATIBLE_DRIVER when it found no driver
  // manifest, or none whose library loads.
  if (contains(status.message(), "vkCreateInstance") && contains(status.message(), "VK_ERROR_INCOMPATIBLE_DRIVER")) {
    return Missing::kDriver;
  }
  if (contains(status.message(), "no Vulkan device")) return Missing::kDevice;
  return Missing::kNothing;
}

// The hint for one of the loader's driver-list variables, when it is set: its value and which of the
// manifests it lists do not exist.
std::string variableHint(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return "";  // the loader ignores an empty list too
  std::string hint = std::string("  hint: ") + name + " is set to '" + onnxio::printableText(value) + "'";
  std::string missing;
  const std::string list = value;
  for (size_t start = 0; start <= list.size();) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    const std::string path = list.substr(start, end - start);
    struct stat info {};
    if (!path.empty() && stat(path.c_str(), &info) != 0) {
      missing += (missing.empty() ? "" : ", ") + onnxio::quoteName(path);
    }
    start = end + 1;
  }
  hint += missing.empty() ? "; check that the manifests it lists (':'-separated .json files) name working drivers"
                          : "; these do not exist: " + missing;
  return hint + ". Unset it to use the installed drivers.\n";
}

std::string driverHints() {
  // VK_DRIVER_FILES replaced VK_ICD_FILENAMES (loader 1.3.207); the loader reads the older name only
  // when the newer is unset, so both are worth showing.
  std::string hints = variableHint("VK_DRIVER_FILES") + variableHint("VK_ICD_FILENAMES");
  if (hints.empty()) {
    hints =
        "  hint: the loader looked for driver manifests in /usr/share/vulkan/icd.d and /etc/vulkan/icd.d; "
        "VK_DRIVER_FILES=<manifest.json> picks one explicitly.\n";
  }
  return hints +
         "  hint: for a CPU driver, install mesa-vulkan-drivers (Debian; provides lavapipe, "
         "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json).\n";
}

}  // namespace

std::string explainContextFailure(const std::string& command, const Status& status) {
  switch (whatIsMissing(status)) {
    case Missing::kLoader:
      return command + ": no Vulkan loader found (libvulkan.so.1)\n" +
             "  hint: install libvulkan1 (Debian) and a driver, e.g. mesa-vulkan-drivers for the CPU driver "
             "lavapipe.\n";
    case Missing::kDriver:
      // Not the library's message: it quotes the failing call's source, which helps no one here.
      return command + ": no Vulkan driver found (vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER)\n" +
             driverHints();
    case Missing::kDevice: return command + ": " + status.message() + "\n" + driverHints();
    case Missing::kNothing: break;
  }
  return command + ": " + status.toString() + "\n";
}

}  // namespace vkindex::tools
