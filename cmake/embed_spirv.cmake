# Script mode (cmake -P): turns a .spv file into a C++ source holding its words.
# Inputs: SPV (path), OUT (path of the .cpp to write), NAME (C identifier stem).
file(READ ${SPV} hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR remainder "${hex_length} % 8")
if(NOT remainder EQUAL 0 OR hex_length EQUAL 0)
  message(FATAL_ERROR "${SPV} is not a whole number of 32-bit words")
endif()
# SPIR-V words are little-endian in the file; regroup each 4 bytes into one 0xAABBCCDD literal.
string(REGEX REPLACE "(..)(..)(..)(..)" "0x\\4\\3\\2\\1u," words "${hex}")
string(REGEX REPLACE "(([^,]*,){8})" "\\1\n  " words "${words}")
math(EXPR word_count "${hex_length} / 8")
file(WRITE ${OUT}
"// Generated from ${NAME}.spv by cmake/embed_spirv.cmake.\n#include <cstddef>\n#include <cstdint>\nnamespace vkindex::shaders {\nextern const uint32_t ${NAME}_words[] = {\n  ${words}\n};\nextern const size_t ${NAME}_word_count = ${word_count};\n}  // namespace vkindex::shaders\n")
