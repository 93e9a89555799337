// Text taken from files (op types, domains, attribute and tensor names, string values) made safe to
// print in one line of a report. Every place that shows such text goes through here: onnx_io's error
// messages, the node runner's mismatch messages and the CLI's output lines.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vkindex::onnxio {

// What one name or value may take in a message: enough to recognise it, too little to flood a line.
inline constexpr size_t kMaxQuotedBytes = 200;

// `text` with everything that could end, reorder or corrupt a line escaped: \n, \r and \t as
// themselves, other control characters (C0, DEL, C1), U+2028/U+2029 and the bidirectional overrides
// byte by byte as \xNN, and so is every byte that is not part of valid UTF-8 (overlong forms and
// surrogates included). The result is valid UTF-8 of at most `max_bytes` bytes plus, when cut, a
// marker "…(N bytes)" giving the original size. Backslashes pass through unchanged, so escaping the
// result again gives the same text (the CLI re-escapes whole lines; file-derived parts survive intact).
std::string printableText(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

// printableText(name) in single quotes: 'Gather'.
std::string quoteName(std::string_view name);

}  // namespace vkindex::onnxio
