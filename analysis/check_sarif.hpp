// `warpdiv check --sarif FILE`: the findings as SARIF 2.1.0 (OASIS), the format code-scanning
// views (GitHub's upload-sarif) and editors' SARIF viewers show on the line. One run; the tool's
// driver "warpdiv" with its version and every rule (analysis/check.hpp's check_rules()); one
// result per finding, its place relative to the uriBaseId %SRCROOT% (the configuration's root),
// its figures as properties. Written with nlohmann/json (used privately).
#pragma once

#include <ostream>
#include <string>

#include "analysis/check.hpp"

namespace warpdiv::analysis {

/// `root` is the absolute folder the findings' files are relative to (originalUriBaseIds);
/// `version` the tool's.
void write_check_sarif(std::ostream& out, const CheckOutcome& outcome, const std::string& root,
                       const std::string& version);

/// `path` (with '/' separators) as a URI reference: every byte but letters, digits, - . _ ~ and
/// '/' percent-encoded.
std::string uri_path(const std::string& path);

}  // namespace warpdiv::analysis
