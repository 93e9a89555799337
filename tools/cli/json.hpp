// Minimal JSON output for the CLI: one flat object per line, keys in insertion order.
#pragma once

#include <cstdint>
#include <string>

namespace vkindex::tools {

// `text` as a JSON string literal, quotes included (control characters escaped as \u00XX).
std::string jsonString(const std::string& text);

// Builds `{"key": value, ...}` one field at a time.
class JsonLine {
 public:
  JsonLine& add(const std::string& key, const std::string& value);
  // Without this overload a string literal would convert to bool, not std::string.
  JsonLine& add(const std::string& key, const char* value) { return add(key, std::string(value)); }
  JsonLine& add(const std::string& key, double value);    // null when not finite
  JsonLine& add(const std::string& key, uint64_t value);  // exact, unlike a double
  JsonLine& add(const std::string& key, bool value);
  std::string str() const { return "{" + body_ + "}"; }

 private:
  JsonLine& raw(const std::string& key, const std::string& json);
  std::string body_;
};

}  // namespace vkindex::tools
