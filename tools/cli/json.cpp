#include "json.hpp"

#include <cmath>
#include <cstdio>

namespace vkindex::tools {

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

JsonLine& JsonLine::raw(const std::string& key, const std::string& json) {
  body_ += (body_.empty() ? "" : ", ") + jsonString(key) + ": " + json;
  return *this;
}

JsonLine& JsonLine::add(const std::string& key, const std::string& value) { return raw(key, jsonString(value)); }

JsonLine& JsonLine::add(const std::string& key, double value) {
  if (!std::isfinite(value)) return raw(key, "null");
  char text[64];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return raw(key, text);
}

JsonLine& JsonLine::add(const std::string& key, uint64_t value) { return raw(key, std::to_string(value)); }

JsonLine& JsonLine::add(const std::string& key, bool value) { return raw(key, value ? "true" : "false"); }

}  // namespace vkindex::tools
