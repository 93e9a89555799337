// The one way the vkindex tools write JSON: nlohmann-json documents, one per line, keys in the order
// they were added. The benchmark's rows, `vkindex onnx-test --json` and `vkindex devices --json` all
// come through here.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

namespace vkindex::tools {

// Keys keep insertion order, so a line reads in the order its writer built it ("test", "status", ...).
using JsonDocument = nlohmann::ordered_json;

// Writes `document` compactly on one line of `out`, then '\n'. Control characters in strings come out
// as JSON escapes. Invalid UTF-8 never throws: callers escape text from files beforehand
// (onnxio::printableText), and anything that still slips through (a device name, a path) is written
// with U+FFFD in place of each bad byte, so every line is valid UTF-8 JSON whatever the input.
void writeJsonLine(std::ostream& out, const JsonDocument& document);

// `value` rounded to `decimals` places, as the tools' JSON numbers are: nlohmann writes the shortest text
// that reads back as the same double, and digits beyond what a timing carries only make lines longer.
double jsonRounded(double value, int decimals);

}  // namespace vkindex::tools
