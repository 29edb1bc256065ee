// A command's shorthand form: a kernel built into warpdiv, run without FILE.cu by flags of its own
// (`warpdiv analyze --width 100`). The general commands know a shorthand only through this table,
// filled where the built-in kernel's forms live: they ask it whether the arguments are the
// shorthand's and hand them over, and show what it adds to their help.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/commands.hpp"

namespace warpdiv::cli {

using CommandFunction = int (*)(const Args& args, std::ostream& out);

struct Shorthand {
  const char* command;  // "analyze"
  /// True when the arguments are the shorthand's rather than the FILE.cu form's.
  bool (*takes)(const Args& args);
  CommandFunction run;  // parses, runs and prints (its --help too)
  /// The lines the FILE.cu form's usage gives it, each ending in '\n'.
  const char* usage;
  /// What the command's line in `warpdiv --help` adds for it ("" for nothing).
  const char* summary;
  /// Throws InvalidInput when the FILE.cu form is given one of the shorthand's flags, saying what
  /// it sets; nullptr where the FILE.cu form's own refusal says enough.
  void (*refuse_flags)(const Args& args);
};

/// Every shorthand built in, at most one per command. Defined by the folder that builds the
/// kernel in (its CMakeLists.txt adds it to warpdiv_cli).
const std::vector<Shorthand>& shorthands();

/// The command's shorthand, or nullptr.
const Shorthand* find_shorthand(const std::string& command);
/// The command's shorthand's usage lines and summary ("" without a shorthand).
std::string shorthand_usage(const std::string& command);
std::string shorthand_summary(const std::string& command);
/// The FILE.cu form's check: the command's shorthand refuses its own flags there.
void refuse_shorthand_flags(const std::string& command, const Args& args);

/// Runs `command`: with --help alone, the FILE.cu form's help and then the shorthand's; the
/// shorthand where it takes the arguments; else the FILE.cu form, `file_form`.
int run_command_form(const std::string& command, const Args& args, std::ostream& out,
                     CommandFunction file_form);

}  // namespace warpdiv::cli
