// The strict JSON reader and writers of profile_json.hpp. Recursive descent, whose depth the nesting
// limit bounds (so a file of 100000 '[' fails at the limit, not on the stack). Doubles go through
// strtod and snprintf, whose decimal point follows the C locale: the text is translated to and from
// the locale's point, so a program that set a German locale reads and writes the same files.
#include "plan/profile_json.hpp"

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vkindex::plan {
namespace {

// The longest number text read: a double needs 24 characters at most; longer is no file tune wrote.
constexpr size_t kMaxJsonNumberChars = 64;

// The C locale's decimal point ("." unless a program changed LC_NUMERIC).
std::string jsonLocalePoint() {
  const std::lconv* conv = std::localeconv();
  if (conv == nullptr || conv->decimal_point == nullptr || conv->decimal_point[0] == '\0') return ".";
  return conv->decimal_point;
}

// strtod on a JSON number's text (grammar already checked), with its '.' as the locale's point.
// False where strtod stops early or the value is not finite.
bool jsonStrtod(std::string_view number, double& value) {
  std::string copy(number);
  const size_t dot = copy.find('.');
  if (dot != std::string::npos) copy.replace(dot, 1, jsonLocalePoint());
  char* end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(value);
}

void appendJsonUtf8(std::string& out, uint32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

int jsonHexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool isJsonDigit(char c) { return c >= '0' && c <= '9'; }

// One parse of one text: the position moves forward only, and every read checks it against size.
class JsonTextReader {
 public:
  JsonTextReader(const char* text, size_t size, const JsonLimits& limits) : text_(text), size_(size), limits_(limits) {}

  Status readDocument(JsonValue& root) {
    skipSpace();
    VKINDEX_RETURN_IF_ERROR(readValue(root, 0));
    skipSpace();
    if (pos_ != size_) return errorAt("unexpected text after the JSON value", pos_);
    return Status::Ok();
  }

 private:
  Status errorAt(const std::string& what, size_t offset) const {
    return invalidArgument(what + " at byte " + std::to_string(offset));
  }
  bool atEnd() const { return pos_ >= size_; }
  char peek() const { return text_[pos_]; }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
  }

  Status readValue(JsonValue& out, uint32_t depth) {
    out.offset = pos_;
    if (atEnd()) return errorAt("the text ends where a value should start", pos_);
    switch (peek()) {
      case '{': return readObject(out, depth + 1);
      case '[': return readArray(out, depth + 1);
      case '"': out.kind = JsonValue::Kind::kString; return readString(out.text);
      case 't':
        out.kind = JsonValue::Kind::kBool;
        out.boolean = true;
        return readWord("true");
      case 'f':
        out.kind = JsonValue::Kind::kBool;
        out.boolean = false;
        return readWord("false");
      case 'n': out.kind = JsonValue::Kind::kNull; return readWord("null");
      default: break;
    }
    if (peek() == '-' || isJsonDigit(peek())) return readNumber(out);
    return errorAt("expected a JSON value", pos_);
  }

  Status readWord(const char* word) {
    const size_t length = std::strlen(word);
    if (size_ - pos_ < length || std::memcmp(text_ + pos_, word, length) != 0) {
      return errorAt("expected a JSON value", pos_);
    }
    pos_ += length;
    return Status::Ok();
  }

  Status enterContainer(uint32_t depth) const {
    if (depth > limits_.max_depth) {
      return errorAt("arrays and objects nested deeper than " + std::to_string(limits_.max_depth), pos_);
    }
    return Status::Ok();
  }

  Status readArray(JsonValue& out, uint32_t depth) {
    VKINDEX_RETURN_IF_ERROR(enterContainer(depth));
    out.kind = JsonValue::Kind::kArray;
    ++pos_;  // '['
    skipSpace();
    if (!atEnd() && peek() == ']') {
      ++pos_;
      return Status::Ok();
    }
    while (true) {
      skipSpace();
      out.items.emplace_back();
      VKINDEX_RETURN_IF_ERROR(readValue(out.items.back(), depth));
      skipSpace();
      if (atEnd()) return errorAt("the text ends inside an array", pos_);
      if (peek() == ']') break;
      if (peek() != ',') return errorAt("expected ',' or ']' in an array", pos_);
      ++pos_;
    }
    ++pos_;  // ']'
    return Status::Ok();
  }

  Status readObject(JsonValue& out, uint32_t depth) {
    VKINDEX_RETURN_IF_ERROR(enterContainer(depth));
    out.kind = JsonValue::Kind::kObject;
    ++pos_;  // '{'
    skipSpace();
    if (!atEnd() && peek() == '}') {
      ++pos_;
      return Status::Ok();
    }
    std::vector<size_t> key_offsets;
    while (true) {
      skipSpace();
      if (atEnd() || peek() != '"') return errorAt("expected a string key in an object", pos_);
      key_offsets.push_back(pos_);
      out.keys.emplace_back();
      VKINDEX_RETURN_IF_ERROR(readString(out.keys.back()));
      skipSpace();
      if (atEnd() || peek() != ':') return errorAt("expected ':' after an object key", pos_);
      ++pos_;
      skipSpace();
      out.items.emplace_back();
      VKINDEX_RETURN_IF_ERROR(readValue(out.items.back(), depth));
      skipSpace();
      if (atEnd()) return errorAt("the text ends inside an object", pos_);
      if (peek() == '}') break;
      if (peek() != ',') return errorAt("expected ',' or '}' in an object", pos_);
      ++pos_;
    }
    ++pos_;  // '}'
    return checkUniqueKeys(out.keys, key_offsets);
  }

  // Sorting the key indices finds a duplicate in n log n (a 64 KiB object may hold 10000 keys).
  Status checkUniqueKeys(const std::vector<std::string>& keys, const std::vector<size_t>& offsets) const {
    std::vector<size_t> order(keys.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&keys](size_t a, size_t b) { return keys[a] != keys[b] ? keys[a] < keys[b] : a < b; });
    for (size_t i = 1; i < order.size(); ++i) {
      if (keys[order[i]] == keys[order[i - 1]]) {
        return errorAt("duplicate key \"" + keys[order[i]] + "\" in an object", offsets[order[i]]);
      }
    }
    return Status::Ok();
  }

  Status readHex4(uint32_t& unit) {
    unit = 0;
    for (int i = 0; i < 4; ++i) {
      if (atEnd()) return errorAt("the text ends inside a \\u escape", pos_);
      const int digit = jsonHexDigit(peek());
      if (digit < 0) return errorAt("expected 4 hex digits after \\u", pos_);
      unit = unit * 16 + static_cast<uint32_t>(digit);
      ++pos_;
    }
    return Status::Ok();
  }

  // After "\u" of a code unit: one code point, a surrogate pair taking a second "\uXXXX".
  Status readUnicodeEscape(std::string& out) {
    const size_t start = pos_ - 2;
    uint32_t unit = 0;
    VKINDEX_RETURN_IF_ERROR(readHex4(unit));
    if (unit >= 0xDC00 && unit <= 0xDFFF) return errorAt("a low surrogate escape without a high one", start);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      if (size_ - pos_ < 2 || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') {
        return errorAt("a high surrogate escape without a low one", start);
      }
      pos_ += 2;
      uint32_t low = 0;
      VKINDEX_RETURN_IF_ERROR(readHex4(low));
      if (low < 0xDC00 || low > 0xDFFF) return errorAt("a high surrogate escape without a low one", start);
      unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }
    appendJsonUtf8(out, unit);
    return Status::Ok();
  }

  Status readString(std::string& out) {
    const size_t start = pos_;
    ++pos_;  // '"'
    while (true) {
      if (atEnd()) return errorAt("a string that never ends", start);
      const char c = peek();
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) return errorAt("a control character inside a string", pos_);
      ++pos_;
      if (c != '\\') {
        out += c;
      } else {
        if (atEnd()) return errorAt("a string that never ends", start);
        const char escape = peek();
        ++pos_;
        switch (escape) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': VKINDEX_RETURN_IF_ERROR(readUnicodeEscape(out)); break;
          default: return errorAt("an unknown escape in a string", pos_ - 2);
        }
      }
      if (out.size() > limits_.max_string_bytes) {
        return errorAt("a string longer than " + std::to_string(limits_.max_string_bytes) + " bytes", start);
      }
    }
    ++pos_;  // '"'
    return Status::Ok();
  }

  // RFC 8259's number grammar, checked here so strtod sees only what JSON allows.
  Status readNumber(JsonValue& out) {
    const size_t start = pos_;
    const bool negative = peek() == '-';
    if (negative) ++pos_;
    if (atEnd() || !isJsonDigit(peek())) return errorAt("a number without digits", start);
    uint64_t integer = 0;
    bool overflow = false;
    if (peek() == '0') {
      ++pos_;
      if (!atEnd() && isJsonDigit(peek())) return errorAt("a number with a leading zero", start);
    } else {
      while (!atEnd() && isJsonDigit(peek())) {
        const auto digit = static_cast<uint64_t>(peek() - '0');
        overflow = overflow || integer > (UINT64_MAX - digit) / 10;
        integer = integer * 10 + digit;
        ++pos_;
      }
    }
    bool whole = true;
    if (!atEnd() && peek() == '.') {
      whole = false;
      ++pos_;
      if (atEnd() || !isJsonDigit(peek())) return errorAt("a number without digits after its '.'", start);
      while (!atEnd() && isJsonDigit(peek())) ++pos_;
    }
    if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
      whole = false;
      ++pos_;
      if (!atEnd() && (peek() == '+' || peek() == '-')) ++pos_;
      if (atEnd() || !isJsonDigit(peek())) return errorAt("a number without digits in its exponent", start);
      while (!atEnd() && isJsonDigit(peek())) ++pos_;
    }
    if (whole && !negative) {
      if (overflow) return errorAt("an integer larger than " + std::to_string(UINT64_MAX), start);
      out.kind = JsonValue::Kind::kInteger;
      out.integer = integer;
      return Status::Ok();
    }
    if (pos_ - start > kMaxJsonNumberChars) {
      return errorAt("a number longer than " + std::to_string(kMaxJsonNumberChars) + " characters", start);
    }
    out.kind = JsonValue::Kind::kNumber;
    if (!jsonStrtod(std::string_view(text_ + start, pos_ - start), out.number)) {
      return errorAt("a number beyond the range of a double", start);
    }
    return Status::Ok();
  }

  const char* text_;
  size_t size_;
  JsonLimits limits_;
  size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::member(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (size_t i = 0; i < keys.size() && i < items.size(); ++i) {
    if (keys[i] == key) return &items[i];
  }
  return nullptr;
}

const char* jsonKindName(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::kNull: return "null";
    case JsonValue::Kind::kBool: return "a boolean";
    case JsonValue::Kind::kInteger: return "an integer";
    case JsonValue::Kind::kNumber: return "a number";
    case JsonValue::Kind::kString: return "a string";
    case JsonValue::Kind::kArray: return "an array";
    case JsonValue::Kind::kObject: return "an object";
  }
  return "?";
}

StatusOr<JsonValue> parseJson(const char* text, size_t size, const JsonLimits& limits) {
  if (text == nullptr && size > 0) return invalidArgument("no JSON text");
  JsonValue root;
  JsonTextReader reader(text, size, limits);
  VKINDEX_RETURN_IF_ERROR(reader.readDocument(root));
  return root;
}

void appendJsonString(std::string& out, std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char c : bytes) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[static_cast<unsigned char>(c) >> 4];
          out += kHex[static_cast<unsigned char>(c) & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void appendJsonNumber(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += '0';
    return;
  }
  // The fewest significant digits that read back to the same double (17 always do).
  const std::string point = jsonLocalePoint();
  std::string text;
  for (int digits = 1; digits <= 17; ++digits) {
    char buffer[40];
    std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    text = buffer;
    const size_t at = text.find(point);
    if (at != std::string::npos) text.replace(at, point.size(), ".");
    double back = 0;
    if (jsonStrtod(text, back) && back == value) break;
  }
  out += text;
}

}  // namespace vkindex::plan
