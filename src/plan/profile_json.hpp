// A small strict JSON reader and the two writing helpers the tuning profile needs (tuning_profile.hpp).
// The library builds without exceptions and keeps nlohmann-json for the tools, so it reads its one
// JSON file format itself: RFC 8259 text into a small tree, bounded in nesting and string length,
// every error a Status naming what is wrong and at which byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vkindex/status.hpp"

namespace vkindex::plan {

// One JSON value. Numbers come in two kinds: a non-negative integer without fraction or exponent is
// kept exactly (kInteger; one past UINT64_MAX is an error, never rounded), any other number as a
// double (kNumber: negative, fractional or with an exponent; always finite).
struct JsonValue {
  enum class Kind : uint8_t { kNull, kBool, kInteger, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  size_t offset = 0;  // the byte where the value starts, for error messages
  bool boolean = false;
  uint64_t integer = 0;
  double number = 0;
  std::string text;               // kString: the decoded bytes (escapes resolved, \uXXXX as UTF-8)
  std::vector<std::string> keys;  // kObject: the member names in file order, no two equal
  std::vector<JsonValue> items;   // kArray: the elements; kObject: the members' values, as keys

  // The member named `key` of an object; nullptr where there is none or this is no object.
  const JsonValue* member(std::string_view key) const;
};

const char* jsonKindName(JsonValue::Kind kind);  // "an integer", "a string", ...

struct JsonLimits {
  uint32_t max_depth = 16;         // arrays and objects nested in one another
  size_t max_string_bytes = 4096;  // any string or key, decoded
};

// Reads the JSON text text[0, size) (no terminator needed; nothing past size is read): one value,
// surrounded by whitespace only. Refuses a duplicate key in an object, nesting deeper than the limit,
// control characters in strings, unpaired surrogate escapes and anything RFC 8259 does not allow.
// Bytes from 0x80 up are taken as they are, unchecked as UTF-8. The error says what and where:
// "expected ':' after an object key at byte 17".
StatusOr<JsonValue> parseJson(const char* text, size_t size, const JsonLimits& limits = {});

// Appends `bytes` as a JSON string: quotes, backslashes and control characters escaped, everything
// else as it is (so any byte string reads back equal).
void appendJsonString(std::string& out, std::string_view bytes);

// Appends a finite double as the shortest JSON number that reads back to the same double, whatever
// the C locale's decimal point. A non-finite value (which JSON cannot hold) is written as 0.
void appendJsonNumber(std::string& out, double value);

}  // namespace vkindex::plan
