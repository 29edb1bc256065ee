// `warpdiv check --sarif FILE`: the findings as SARIF 2.1.0 (OASIS), the format code-scanning
// views (GitHub's upload-sarif) and editors' SARIF viewers show on the line. One run; the tool's
// driver "warpdiv" with its version and every rule (analysis/check.hpp's check_rules()); one
// result per finding, its place relative to the uriBaseId %SRCROOT% (the configuration's root),
// its figures as properties. Written with nlohmann/json (used privately).
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/check.hpp"

namespace warpdiv::analysis {

/// The lines of the files findings name (relative to the root, as Finding::file), for SARIF's
/// columns: findings count columns in bytes, SARIF in UTF-16 code units (columnKind
/// utf16CodeUnits, what GitHub's code scanning reads). A file not given has no columns in SARIF.
using SourceLinesByFile = std::map<std::string, std::vector<std::string>>;

/// The 1-based UTF-16 column of the 1-based byte column `byte_column` of `line`: the code units
/// of the bytes before it plus one (a byte that is not part of valid UTF-8 counts as one unit,
/// the U+FFFD it reads as; a column past the end counts the missing bytes one each).
std::uint32_t utf16_column(const std::string& line, std::uint32_t byte_column);

/// `root` is the absolute folder the findings' files are relative to (originalUriBaseIds);
/// `version` the tool's. Text that is not valid UTF-8 (a file name, a statement) is written with
/// U+FFFD for its invalid bytes; paths as URIs, percent-encoded byte by byte. A finding a comment
/// allows is a result with an inSource suppression.
void write_check_sarif(std::ostream& out, const CheckOutcome& outcome, const std::string& root,
                       const std::string& version, const SourceLinesByFile& sources);

/// `path` (with '/' separators) as a URI reference: every byte but letters, digits, - . _ ~ and
/// '/' percent-encoded.
std::string uri_path(const std::string& path);

}  // namespace warpdiv::analysis
