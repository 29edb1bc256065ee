#include "sim/support/json_check.hpp"

#include <algorithm>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/support/message_text.hpp"

namespace warpdiv::sim {

namespace {

using Json = nlohmann::json;

/// Thrown from the SAX handler to stop at the first problem.
struct Found {
  JsonProblem problem;
};

/// Line and column (1-based) of byte `offset` (0-based) of `text`.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, offset - line_start + 1};
}

// nlohmann's message "[json.exception.parse_error.101] parse error at line 1, column 9: syntax
// error ...; last read: '...'" without its id and place, which the caller gives as LINE:COLUMN.
std::string parser_description(const std::string& what) {
  std::string text = what;
  const std::size_t column = text.find("column ");
  const std::size_t colon = column == std::string::npos ? std::string::npos : text.find(": ", column);
  if (colon != std::string::npos)
    text = text.substr(colon + 2);
  else if (text.rfind("[json.exception.", 0) == 0 && text.find("] ") != std::string::npos)
    text = text.substr(text.find("] ") + 2);
  constexpr std::size_t kMost = 300;
  if (text.size() > kMost) text = text.substr(0, kMost) + "... (" + std::to_string(text.size()) + " bytes)";
  return one_line(text);
}

class Checker {
 public:
  Checker(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(Json::number_integer_t) { return value(); }
  bool number_unsigned(Json::number_unsigned_t) { return value(); }
  bool number_float(Json::number_float_t, const std::string&) { return value(); }
  bool string(std::string&) { return value(); }
  bool binary(Json::binary_t&) { return value(); }
  bool start_object(std::size_t) {
    open();
    frames_.push_back({true, {}, 0, {}});
    return true;
  }
  bool key(std::string& key) {
    Frame& f = frames_.back();
    if (!f.keys.insert(key).second) {
      JsonProblem p;
      p.kind = JsonProblem::Kind::duplicate_key;
      p.detail = key;
      p.pointer = pointer();
      throw Found{p};
    }
    f.key = key;
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) {
    open();
    frames_.push_back({false, {}, 0, {}});
    return true;
  }
  bool end_array() { return close(); }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    JsonProblem p;
    p.kind = e.id == 406 ? JsonProblem::Kind::number_out_of_range : JsonProblem::Kind::syntax;
    // nlohmann counts the byte it stopped at from 1.
    std::tie(p.line, p.column) = line_and_column(text_, byte == 0 ? 0 : byte - 1);
    p.detail = parser_description(e.what());
    throw Found{p};
  }

 private:
  struct Frame {
    bool object;
    std::unordered_set<std::string> keys;
    std::size_t index;  // of the next element of an array
    std::string key;    // the last key of an object
  };
  bool value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  void open() {
    if (static_cast<int>(frames_.size()) + 1 > max_depth_) {
      JsonProblem p;
      p.kind = JsonProblem::Kind::too_deep;
      p.pointer = pointer();
      throw Found{p};
    }
  }
  bool close() {
    frames_.pop_back();
    return value();
  }
  // The JSON Pointer of the innermost open object or array.
  std::string pointer() const {
    std::string out;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
      out += "/" + (frames_[i].object ? frames_[i].key : std::to_string(frames_[i].index));
    return out;
  }

  std::string_view text_;
  int max_depth_;
  std::vector<Frame> frames_;
};

}  // namespace

std::optional<JsonProblem> json_problem(const std::string& text, int max_depth) {
  Checker checker(text, max_depth);
  try {
    Json::sax_parse(text, &checker);
  } catch (const Found& found) {
    return found.problem;
  }
  return std::nullopt;
}

namespace {

/// "a number", "an object" ... for a message.
std::string kind_of(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::discarded:
      return "nothing";
    default:
      return "a number";
  }
}

/// What is wrong with one entry of a compilation database, or "".
std::string entry_problem(const Json& entry) {
  if (!entry.is_object()) return "is " + kind_of(entry) + ", not an object";
  for (const auto& [key, value] : entry.items()) {
    if (key == "directory" || key == "file" || key == "command" || key == "output") {
      if (!value.is_string()) return "\"" + key + "\" is " + kind_of(value) + ", not a string";
    } else if (key == "arguments") {
      if (!value.is_array()) return "\"arguments\" is " + kind_of(value) + ", not an array of strings";
      for (const Json& argument : value)
        if (!argument.is_string()) return "\"arguments\" holds " + kind_of(argument) + ", not only strings";
    } else {
      return "has the key " + quote_value(key) +
             " (the keys are directory, file, command, arguments and output)";
    }
  }
  for (const char* key : {"directory", "file"})
    if (!entry.contains(key)) return std::string("has no \"") + key + "\"";
  if (!entry.contains("command") && !entry.contains("arguments"))
    return "has neither \"command\" nor \"arguments\"";
  return "";
}

}  // namespace

std::string compile_database_shape_problem(const std::string& text) {
  const Json database = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!database.is_array()) return "the top level is " + kind_of(database) + ", not an array of entries";
  for (std::size_t i = 0; i < database.size(); ++i) {
    const std::string problem = entry_problem(database[i]);
    if (!problem.empty())
      return "entry " + std::to_string(i + 1) + " (at /" + std::to_string(i) + ") " + problem;
  }
  return "";
}

}  // namespace warpdiv::sim
