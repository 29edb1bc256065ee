// The lecture's forms of the commands (analyze, sweep, validate, ncu-check without FILE.cu), each
// handed over by the general command through the shorthand table (tools/cli/shorthand.hpp).
#pragma once

#include <ostream>

#include "tools/cli/commands.hpp"

namespace warpdiv::cli {

int analyze_lecture_command(const Args& args, std::ostream& out);
int sweep_lecture_command(const Args& args, std::ostream& out);
int validate_lecture_command(const Args& args, std::ostream& out);
int ncu_check_lecture_command(const Args& args, std::ostream& out);

}  // namespace warpdiv::cli
