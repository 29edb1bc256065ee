// Small pieces shared by the HTML reports: escaping, number formatting for SVG coordinates, and the
// page shell (one self-contained file: inline CSS and SVG, nothing fetched from the network).
#pragma once

#include <string>
#include <string_view>

namespace warpdiv::analysis::html {

/// Escapes &, <, >, " and ' for text and attribute values; a byte that is not part of UTF-8 (a
/// Latin-1 comment, a path) becomes U+FFFD, so that the page stays UTF-8.
std::string escape(std::string_view text);

/// A coordinate or length for SVG: at most two decimals, no trailing zeros ("12", "3.5", "0.25").
std::string coord(double value);

/// "1,234,567" for an integer given as decimal digits (counts are 128-bit, so they come as text).
std::string group_digits(const std::string& digits);

/// The colours of the reports (Okabe-Ito palette, distinct for colour-blind readers and, by
/// lightness, in grey-scale print). Tests look for these exact pixels in screenshots.
namespace colour {
constexpr const char* kUniformTrue = "#56B4E9";   // sky blue: every existing lane passes
constexpr const char* kUniformFalse = "#E6E6E6";  // light grey: no lane passes
constexpr const char* kDivergent = "#D55E00";     // vermillion: the lanes disagree
// The block classes of a page, in the order they are listed (after these four, other colours).
constexpr const char* kClass1 = "#009E73";  // bluish green
constexpr const char* kClass2 = "#E69F00";  // orange
constexpr const char* kClass3 = "#CC79A7";  // reddish purple
constexpr const char* kClass4 = "#0072B2";  // blue
}  // namespace colour

/// "<!DOCTYPE html>…<body>": the head with the title and the shared style sheet.
std::string page_start(const std::string& title);
/// The footer line and "</body></html>".
std::string page_end();

}  // namespace warpdiv::analysis::html
