#include "quote.hpp"

namespace vkindex::onnxio {

std::string quoteName(const std::string& name) {
  constexpr size_t kMaxShown = 120;
  static const char kHex[] = "0123456789abcdef";
  std::string text = "'";
  for (size_t i = 0; i < name.size() && i < kMaxShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) {
      text += "\\x";
      text += kHex[c >> 4];
      text += kHex[c & 0xf];
    } else {
      text += static_cast<char>(c);
    }
  }
  if (name.size() > kMaxShown) text += "...";
  return text + "'";
}

}  // namespace vkindex::onnxio
