// C++ tokens of kernel source for `warpdiv check`: comments, literals, words and punctuators.
#include "analysis/check_source.hpp"

#include <array>

namespace warpdiv::analysis {

namespace {

bool word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u >= 0x80;
}
bool digit(char c) { return c >= '0' && c <= '9'; }

// Punctuators of three and two bytes, longest first (one byte otherwise).
constexpr std::array<std::string_view, 5> kThree = {"<<=", ">>=", "...", "->*", "<=>"};
constexpr std::array<std::string_view, 22> kTwo = {
    "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
    "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<SourceToken> run() {
    std::vector<SourceToken> out;
    for (skip_space(); pos_ < text_.size(); skip_space()) {
      SourceToken t;
      t.begin = pos_;
      t.line = line_;
      t.column = column_;
      t.kind = next();
      t.end = pos_;
      t.end_line = last_line_;
      out.push_back(t);
    }
    return out;
  }

 private:
  char at(std::size_t offset = 0) const { return pos_ + offset < text_.size() ? text_[pos_ + offset] : '\0'; }
  // The bytes of a line splice (backslash-newline) here, 0 if none.
  std::size_t splice() const {
    if (at() != '\\') return 0;
    if (at(1) == '\n') return 2;
    return at(1) == '\r' && at(2) == '\n' ? 3 : 0;
  }
  void advance() {
    last_line_ = line_;
    if (text_[pos_++] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
  }
  void advance(std::size_t n) {
    for (std::size_t i = 0; i < n && pos_ < text_.size(); ++i) advance();
  }
  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = at();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
        advance();
      else if (splice())
        advance(splice());
      else
        break;
    }
  }

  SourceToken::Kind next() {
    const char c = at();
    if (c == '/' && at(1) == '/') return line_comment();
    if (c == '/' && at(1) == '*') return block_comment();
    if (c == '"' || c == '\'') return quoted();
    if (digit(c) || (c == '.' && digit(at(1)))) return number();
    if (word_byte(c)) return word();
    return punctuator();
  }

  SourceToken::Kind line_comment() {
    while (pos_ < text_.size() && at() != '\n') advance(splice() ? splice() : 1);
    return SourceToken::Kind::comment;
  }
  SourceToken::Kind block_comment() {
    advance(2);
    while (pos_ < text_.size() && !(at() == '*' && at(1) == '/')) advance();
    advance(2);
    return SourceToken::Kind::comment;
  }
  // A string or character literal from its opening quote: escapes skipped, ending at the closing
  // quote or, unterminated, before the end of the line.
  SourceToken::Kind quoted() {
    const char quote = at();
    advance();
    while (pos_ < text_.size() && at() != quote && at() != '\n') advance(at() == '\\' ? 2 : 1);
    if (at() == quote) advance();
    return SourceToken::Kind::literal;
  }
  // R"delim( ... )delim" from its opening quote; a delimiter C++ does not allow makes it a plain
  // string literal.
  SourceToken::Kind raw() {
    std::size_t open = pos_ + 1;
    while (open < text_.size() && open - pos_ <= 17 && text_[open] != '(' &&
           std::string_view(" ()\\\t\v\f\r\n\"").find(text_[open]) == std::string_view::npos)
      ++open;
    if (open >= text_.size() || text_[open] != '(' || open - pos_ > 17) return quoted();
    const std::string close = ")" + std::string(text_.substr(pos_ + 1, open - pos_ - 1)) + "\"";
    const std::size_t end = text_.find(close, open + 1);
    advance(end == std::string_view::npos ? text_.size() - pos_ : end + close.size() - pos_);
    return SourceToken::Kind::literal;
  }
  // A preprocessing number: digits, letters, '.', a digit separator before a digit or letter, and
  // a sign after an exponent's e, E, p or P.
  SourceToken::Kind number() {
    for (advance(); pos_ < text_.size(); advance()) {
      const char c = at();
      if ((c == '+' || c == '-') && std::string_view("eEpP").find(text_[pos_ - 1]) != std::string_view::npos)
        continue;
      if (c == '\'' && word_byte(at(1)) && at(1) != '\0') continue;
      if (!word_byte(c) && c != '.') break;
    }
    return SourceToken::Kind::word;
  }
  // An identifier or keyword; an encoding prefix before a quote starts a literal (R a raw one).
  SourceToken::Kind word() {
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && word_byte(at())) advance();
    const std::string_view w = text_.substr(begin, pos_ - begin);
    if (at() == '"' && (w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR")) return raw();
    if ((at() == '"' || at() == '\'') && (w == "u8" || w == "u" || w == "U" || w == "L")) return quoted();
    return SourceToken::Kind::word;
  }
  SourceToken::Kind punctuator() {
    const std::string_view rest = text_.substr(pos_);
    std::size_t n = 1;
    for (const std::string_view p : kThree)
      if (rest.substr(0, 3) == p) n = 3;
    for (const std::string_view p : kTwo)
      if (n == 1 && rest.substr(0, 2) == p) n = 2;
    advance(n);
    return SourceToken::Kind::punctuator;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1, column_ = 1, last_line_ = 1;
};

}  // namespace

std::vector<SourceToken> source_tokens(std::string_view text) { return Lexer(text).run(); }

std::string statement_token_key(std::string_view text) {
  std::string key;
  for (const SourceToken& t : source_tokens(text)) {
    if (t.kind == SourceToken::Kind::comment) continue;
    if (!key.empty()) key += '\n';
    key += text.substr(t.begin, t.end - t.begin);
  }
  return key;
}

}  // namespace warpdiv::analysis
