#include "quote.hpp"

namespace vkindex::onnxio {
namespace {

// The length of the valid UTF-8 sequence starting at text[at] (RFC 3629: shortest form, no surrogates,
// nothing above U+10FFFF) and its code point; 0 when the bytes there are not one.
size_t utf8Sequence(std::string_view text, size_t at, char32_t* code_point) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) {
    *code_point = lead;
    return 1;
  }
  size_t length = 0;
  // The second byte's range is narrower than 80..BF where that excludes overlong forms (E0, F0),
  // surrogates (ED) and code points past U+10FFFF (F4).
  unsigned char second_lo = 0x80, second_hi = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_lo = 0xA0;
    if (lead == 0xED) second_hi = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_lo = 0x90;
    if (lead == 0xF4) second_hi = 0x8F;
  } else {
    return 0;  // a continuation byte, C0/C1 (overlong two-byte forms) or F5..FF
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < second_lo || byte(at + 1) > second_hi) return 0;
  char32_t value = lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(at + i) & 0x3F);
  }
  *code_point = value;
  return length;
}

// Code points that a terminal or viewer may treat as a line break or that reorder what follows:
// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional marks,
// embeddings, overrides and isolates (a "Trojan source" name could otherwise display as another).
bool mustEscape(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x200E || c == 0x200F || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

// U+2026 in UTF-8, spelled as bytes so the source's and the compiler's charsets do not matter.
constexpr char kEllipsis[] = "\xE2\x80\xA6";

void appendEscapedByte(std::string& out, unsigned char c) {
  static const char kHex[] = "0123456789abcdef";
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default:
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
  }
}

}  // namespace

std::string printableText(std::string_view text, size_t max_bytes) {
  std::string out;
  std::string piece;
  for (size_t at = 0; at < text.size();) {
    char32_t code_point = 0;
    const size_t length = utf8Sequence(text, at, &code_point);
    piece.clear();
    if (length == 0) {
      appendEscapedByte(piece, static_cast<unsigned char>(text[at]));
      at += 1;
    } else if (mustEscape(code_point)) {
      for (size_t i = 0; i < length; ++i) appendEscapedByte(piece, static_cast<unsigned char>(text[at + i]));
      at += length;
    } else {
      piece.assign(text.substr(at, length));
      at += length;
    }
    // Whole pieces only, so a cut never splits a character or an escape.
    if (out.size() + piece.size() > max_bytes) {
      return out + kEllipsis + "(" + std::to_string(text.size()) + " bytes)";
    }
    out += piece;
  }
  return out;
}

std::string quoteName(std::string_view name) { return "'" + printableText(name) + "'"; }

}  // namespace vkindex::onnxio
