// printableText and quoteName: what may reach a report line from a file. Control characters, line and
// paragraph separators, bidirectional overrides and every byte outside valid UTF-8 are escaped; long
// text is cut at whole characters with a marker giving its size; escaping twice changes nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "quote.hpp"

namespace vkindex::onnxio::test {
namespace {

constexpr size_t kUnlimited = SIZE_MAX;

std::string printable(const std::string& text) { return printableText(text, kUnlimited); }

TEST(PrintableText, KeepsPrintableAsciiAndValidUtf8) {
  EXPECT_EQ(printable("Gather"), "Gather");
  EXPECT_EQ(printable("a\\b 'c' \"d\""), "a\\b 'c' \"d\"");
  EXPECT_EQ(printable("caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80"),
            "caf\xC3\xA9 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(printable("\xF4\x8F\xBF\xBF"), "\xF4\x8F\xBF\xBF");  // U+10FFFF, the last code point
  EXPECT_EQ(printable(""), "");
}

TEST(PrintableText, EscapesControlCharacters) {
  EXPECT_EQ(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(printable(std::string("\x00\x01\x1b[2J\x7f", 7)), "\\x00\\x01\\x1b[2J\\x7f");
  EXPECT_EQ(printable("\xC2\x85\xC2\x9B"), "\\xc2\\x85\\xc2\\x9b");  // C1: NEL and CSI
}

TEST(PrintableText, EscapesSeparatorsAndBidiControls) {
  EXPECT_EQ(printable("\xE2\x80\xA8"), "\\xe2\\x80\\xa8");  // U+2028 LINE SEPARATOR
  EXPECT_EQ(printable("\xE2\x80\xA9"), "\\xe2\\x80\\xa9");  // U+2029 PARAGRAPH SEPARATOR
  EXPECT_EQ(printable("\xE2\x80\xAE"), "\\xe2\\x80\\xae");  // U+202E RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(printable("\xE2\x81\xA6"), "\\xe2\\x81\\xa6");  // U+2066 LEFT-TO-RIGHT ISOLATE
  EXPECT_EQ(printable("\xE2\x80\x8F"), "\\xe2\\x80\\x8f");  // U+200F RIGHT-TO-LEFT MARK
  EXPECT_EQ(printable("\xE2\x80\xA6"), "\xE2\x80\xA6");     // U+2026 is an ordinary character
}

TEST(PrintableText, EscapesInvalidUtf8ByteByByte) {
  EXPECT_EQ(printable("\x80"), "\\x80");                             // lone continuation byte
  EXPECT_EQ(printable("a\xFFz"), "a\\xffz");                         // never valid
  EXPECT_EQ(printable("\xC0\xAF"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xE0\x80\xAF"), "\\xe0\\x80\\xaf");           // overlong, three bytes
  EXPECT_EQ(printable("\xF0\x80\x80\xAF"), "\\xf0\\x80\\x80\\xaf");  // overlong, four bytes
  EXPECT_EQ(printable("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // UTF-16 surrogate
  EXPECT_EQ(printable("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(printable("\xE2\x82"), "\\xe2\\x82");                    // truncated at the end
  EXPECT_EQ(printable("\xE2\x82z"), "\\xe2\\x82z");                  // truncated before an ASCII byte
  EXPECT_EQ(printable("\xC3\xC3\xA9"), "\\xc3\xC3\xA9");             // a bad lead, then a good character
}

TEST(PrintableText, CutsLongTextAtWholeCharactersWithItsSize) {
  const std::string exact(kMaxQuotedBytes, 'a');
  EXPECT_EQ(printableText(exact), exact);
  EXPECT_EQ(printableText(exact + "b"), exact + "\xE2\x80\xA6(201 bytes)");

  const std::string mebibyte(1 << 20, 'x');
  EXPECT_EQ(printableText(mebibyte), std::string(kMaxQuotedBytes, 'x') + "\xE2\x80\xA6(1048576 bytes)");

  // 1 + 49 escapes of 4 bytes = 197 bytes; the 50th escape would pass 200 and is left out whole.
  const std::string controls = "a" + std::string(300, '\x01');
  std::string expected = "a";
  for (int i = 0; i < 49; ++i) expected += "\\x01";
  EXPECT_EQ(printableText(controls), expected + "\xE2\x80\xA6(301 bytes)");

  // Two-byte characters: 100 of them fill the 200 bytes; none is split.
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "\xC3\xA9";
  std::string shown;
  for (int i = 0; i < 100; ++i) shown += "\xC3\xA9";
  EXPECT_EQ(printableText(accents), shown + "\xE2\x80\xA6(300 bytes)");
  EXPECT_EQ(printableText("abc", 2), "ab\xE2\x80\xA6(3 bytes)");
}

TEST(PrintableText, RandomBytesComeOutPrintableAndStable) {
  std::mt19937 random(20240611);
  for (int round = 0; round < 2000; ++round) {
    std::string text(random() % 64, '\0');
    for (char& c : text) c = static_cast<char>(random() % 256);
    const std::string once = printable(text);
    for (unsigned char c : once) {
      EXPECT_TRUE(c >= 0x20 && c != 0x7f) << "control byte " << int(c) << " in " << once;
    }
    // Nothing left to escape: the output is valid UTF-8 free of separators and controls.
    EXPECT_EQ(printable(once), once);
    const std::string capped = printableText(text);
    EXPECT_LE(capped.size(), kMaxQuotedBytes + 20) << capped;
    EXPECT_EQ(printableText(capped, kUnlimited), capped);
  }
}

TEST(QuoteName, QuotesTheEscapedName) {
  EXPECT_EQ(quoteName("axis"), "'axis'");
  EXPECT_EQ(quoteName("Gather\nPASS x"), "'Gather\\nPASS x'");
  EXPECT_EQ(quoteName(std::string(300, 'n')), "'" + std::string(200, 'n') + "\xE2\x80\xA6(300 bytes)'");
}

}  // namespace
}  // namespace vkindex::onnxio::test
