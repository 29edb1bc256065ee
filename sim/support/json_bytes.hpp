// Byte strings in JSON. JSON text is UTF-8, but a path, a source line or a -D value is a string of
// bytes that need not be (a Latin-1 comment, a folder named in ISO 8859-1). Such strings are
// carried reversibly as valid UTF-8:
//   - each byte that is not part of a well-formed UTF-8 sequence (RFC 3629) becomes the code point
//     U+10FF00 + byte (U+10FF80 to U+10FFFF, the end of Supplementary Private Use Area-B);
//   - a character already in U+10FF80..U+10FFFF becomes its four bytes, each escaped that way,
//     so that no text is mistaken for an escape;
//   - everything else (ASCII, all other well-formed UTF-8) is kept as it is.
// unescape_bytes reverses it: unescape_bytes(escape_bytes(s)) == s for every byte string s.
// Used by the kernel model's JSON (sim/ir_json) and across the front-end plugin's JSON requests
// and replies (kernels/frontend/plugin_abi.hpp).
#pragma once

#include <string>
#include <string_view>

namespace warpdiv::sim {

/// `bytes` as valid UTF-8, with the escapes above.
std::string escape_bytes(std::string_view bytes);

/// The bytes that `text` (valid UTF-8, as a JSON parser gives it) escapes.
std::string unescape_bytes(std::string_view text);

/// Applies `map` (escape_bytes or unescape_bytes) to every string of a JSON value (nlohmann's
/// json or ordered_json; this header does not include it): values and object keys, recursively.
template <class Json, class Map>
void map_json_strings(Json& json, const Map& map) {
  if (json.is_string()) {
    auto& text = json.template get_ref<std::string&>();
    text = map(text);
  } else if (json.is_array()) {
    for (auto& element : json) map_json_strings(element, map);
  } else if (json.is_object()) {
    bool keys_kept = true;
    for (auto it = json.begin(); it != json.end() && keys_kept; ++it) keys_kept = map(it.key()) == it.key();
    if (keys_kept) {  // the usual case: only the values change, in place
      for (auto it = json.begin(); it != json.end(); ++it) map_json_strings(it.value(), map);
      return;
    }
    Json mapped = Json::object();
    for (auto it = json.begin(); it != json.end(); ++it) {
      map_json_strings(it.value(), map);
      mapped[map(it.key())] = std::move(it.value());
    }
    json = std::move(mapped);
  }
}

}  // namespace warpdiv::sim
