// RFC 4180 CSV output: fields holding a comma, quote, CR or LF are quoted, quotes doubled.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace warpdiv::analysis {

std::string csv_escape(std::string_view field);

/// Writes one record: escaped fields joined by commas, ended by "\n".
void write_csv_row(std::ostream& out, const std::vector<std::string>& fields);

}  // namespace warpdiv::analysis
