#include "analysis/source_flags.hpp"

#include <cctype>

namespace warpdiv::analysis {

std::string define_fault(const std::string& define) {
  const auto identifier_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (define.empty() || !(std::isalpha(static_cast<unsigned char>(define[0])) || define[0] == '_'))
    return "a macro definition starts with its name, an identifier (NAME, NAME=VALUE or "
           "NAME(PARAMETERS)=VALUE)";
  std::size_t at = 1;
  while (at < define.size() && identifier_char(define[at])) ++at;
  if (at < define.size() && define[at] == '(') {
    const std::size_t close = define.find(')', at);
    if (close == std::string::npos)
      return "the parameter list of macro '" + define.substr(0, at) + "' is not closed";
    at = close + 1;
  }
  if (at < define.size() && define[at] != '=')
    return "'" + define.substr(0, at) + "' is followed by '" + define.substr(at, 1) +
           "' (NAME, NAME=VALUE or NAME(PARAMETERS)=VALUE, NAME an identifier)";
  return "";
}

}  // namespace warpdiv::analysis
