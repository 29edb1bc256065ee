// The lecture as the shorthand of analyze, sweep, validate and ncu-check (tools/cli/shorthand.hpp):
// the commands' form without FILE.cu.
#include <algorithm>
#include <string>

#include "sim/support/errors.hpp"
#include "tools/cli/lecture/commands.hpp"
#include "tools/cli/shorthand.hpp"

namespace warpdiv::cli {

namespace {

// No FILE.cu and no flag of a source analysis.
bool takes_lecture_form(const Args& args) { return !is_source_analysis(args); }

// FILE.cu or a flag of a source sweep, and none of the tiled sweep's own flags (so that a stray
// word after --sizes is refused as a positional, not taken for a kernel file).
bool takes_lecture_sweep(const Args& args) {
  const bool tiled = std::any_of(args.begin(), args.end(), [](const std::string& a) {
    for (const char* flag : {"--sizes", "--tiles", "--inner"})
      if (a == flag || a.rfind(std::string(flag) + "=", 0) == 0) return true;
    return false;
  });
  return tiled || !is_source_analysis(args);
}

// The lecture's own launch flags mean nothing for a source file: say so rather than "unknown".
void refuse_lecture_flags(const Args& args) {
  for (const std::string& a : args)
    for (const char* lecture : {"--width", "--rows", "--inner", "--cols", "--tile"})
      if (a == lecture || a.rfind(std::string(lecture) + "=", 0) == 0)
        throw InvalidInput(Diag::flag_usage,
                           std::string(lecture) +
                               " sets the lecture kernel's launch (warpdiv analyze without a file); for "
                               "FILE.cu give --grid, --block and --arg NAME=VALUE");
}

}  // namespace

const std::vector<Shorthand>& shorthands() {
  static const std::vector<Shorthand> table = {
      {"analyze", takes_lecture_form, analyze_lecture_command,
       "       warpdiv analyze [--width W | --tile T ...] (no FILE.cu: the lecture's tiled matrix\n"
       "                       multiply; its flags in warpdiv analyze --help)\n",
       "", refuse_lecture_flags},
      {"sweep", takes_lecture_sweep, sweep_lecture_command,
       "       warpdiv sweep --sizes LIST --tiles LIST ... (the lecture's tiled matrix multiply;\n"
       "                     its flags in warpdiv sweep --help)\n",
       "", nullptr},
      {"validate", takes_lecture_form, validate_lecture_command,
       "       warpdiv validate [--width W | --rows J --inner K --cols L] ... (the lecture's kernels)\n", "",
       nullptr},
      {"ncu-check", takes_lecture_form, ncu_check_lecture_command, "", ", or ncu's CSV for the lecture",
       nullptr},
  };
  return table;
}

}  // namespace warpdiv::cli
