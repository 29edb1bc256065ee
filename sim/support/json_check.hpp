// A strict first pass over a JSON text, for every JSON file the tool reads (a kernel model, a
// compilation database): what a DOM parser would accept silently or report without a place.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace warpdiv::sim {

/// What is wrong with a JSON text, and where (line and column 1-based, as an editor numbers
/// them; 0 where the parser gives no place).
struct JsonProblem {
  enum class Kind { syntax, number_out_of_range, duplicate_key, too_deep };
  Kind kind = Kind::syntax;
  std::size_t line = 0;
  std::size_t column = 0;
  /// syntax: the parser's own description, one line, cut to a few hundred bytes;
  /// duplicate_key: the key; too_deep: empty.
  std::string detail;
  /// duplicate_key: the JSON Pointer of the object holding the key ("/0", "" for the top).
  std::string pointer;
};

/// The first problem of `text` (nlohmann's SAX interface: linear, nothing built): not valid JSON,
/// a number beyond a double's range, a key given twice in one object, or arrays and objects
/// nested deeper than `max_depth`; nullopt when there is none.
std::optional<JsonProblem> json_problem(const std::string& text, int max_depth);

/// What makes `text` (valid JSON) not a compilation database as Clang reads one: not an array of
/// objects, each with string "directory" and "file", a string "command" or an array of strings
/// "arguments" (either or both), an optional string "output", and no other key; "" when none.
std::string compile_database_shape_problem(const std::string& text);

}  // namespace warpdiv::sim
