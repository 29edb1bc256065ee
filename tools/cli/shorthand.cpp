#include "tools/cli/shorthand.hpp"

#include "tools/cli/options.hpp"

namespace warpdiv::cli {

const Shorthand* find_shorthand(const std::string& command) {
  for (const Shorthand& s : shorthands())
    if (command == s.command) return &s;
  return nullptr;
}

std::string shorthand_usage(const std::string& command) {
  const Shorthand* s = find_shorthand(command);
  return s ? s->usage : "";
}

std::string shorthand_summary(const std::string& command) {
  const Shorthand* s = find_shorthand(command);
  return s ? s->summary : "";
}

void refuse_shorthand_flags(const std::string& command, const Args& args) {
  const Shorthand* s = find_shorthand(command);
  if (s && s->refuse_flags) s->refuse_flags(args);
}

int run_command_form(const std::string& command, const Args& args, std::ostream& out,
                     CommandFunction file_form) {
  const Shorthand* shorthand = find_shorthand(command);
  if (!shorthand) return file_form(args, out);
  if (asks_only_for_help(args)) {  // your own kernel first, then the shorthand's
    file_form(args, out);
    out << '\n';
    return shorthand->run(args, out);
  }
  return shorthand->takes(args) ? shorthand->run(args, out) : file_form(args, out);
}

}  // namespace warpdiv::cli
