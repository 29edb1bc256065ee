// The compiler flags a kernel's source is read with (-D, -I, -p and their check-configuration
// keys), checked before Clang sees them: a bad one is a bad flag, named, not Clang's error.
#pragma once

#include <string>

namespace warpdiv::analysis {

/// Why `define` is not a macro definition as -D takes it (NAME, NAME=VALUE or NAME(PARAMETERS)=VALUE,
/// NAME an identifier), "" when it is one.
std::string define_fault(const std::string& define);

}  // namespace warpdiv::analysis
