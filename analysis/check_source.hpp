// Kernel source as `warpdiv check` reads it: C++ tokens (comments, string and character literals,
// words, punctuators), so that a suppression comment is found only in a real comment (never in a
// string literal) and statements are compared token by token, whatever whitespace separates them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpdiv::analysis {

struct SourceToken {
  enum class Kind { comment, literal, word, punctuator };
  Kind kind = Kind::word;
  std::size_t begin = 0, end = 0;      // its bytes in the text: [begin, end)
  std::uint32_t line = 1, column = 1;  // where it begins (1-based; the column in bytes)
  std::uint32_t end_line = 1;          // the line of its last byte
};

/// The tokens of C++ source text, in order, whitespace and line splices (backslash-newline)
/// between them dropped: `//` and `/* */` comments (a `//` comment continues over a line splice),
/// string and character literals with their prefixes (u8, u, U, L) and escapes, raw strings
/// (R"delim(...)delim"), identifiers and keywords, numbers (with digit separators: 1'000),
/// and punctuators by the longest match (`--`, `->`, `<<=`). An unterminated literal ends at the
/// end of its line, an unterminated comment or raw string at the end of the text.
std::vector<SourceToken> source_tokens(std::string_view text);

/// A statement's text as its tokens, comments left out, one '\n' between them: two texts with the
/// same tokens have the same key whatever whitespace separates them ("if (i<n)" and "if (i < n)"),
/// while "a - -b" and "a--b" differ.
std::string statement_token_key(std::string_view text);

}  // namespace warpdiv::analysis
