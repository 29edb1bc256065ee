#include <cerrno>
#include <cstring>
#include <exception>
#include <iomanip>
#include <iostream>
#include <new>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/options.hpp"
#include "tools/cli/shorthand.hpp"
#include "tools/cli/terminal.hpp"

namespace warpdiv::cli {

namespace {

struct Command {
  const char* name;
  int (*function)(const Args&, std::ostream&);
  const char* summary;
};

int diagnostics_command(const Args& args, std::ostream& out);

constexpr Command kCommands[] = {
    {"analyze", analyze_command,
     "per-line divergence, memory requests, sectors and bank conflicts of any kernel (FILE.cu)"},
    {"sweep", sweep_command,
     "exact counts of FILE.cu over many sizes (--arg lists, block sizes) into one CSV (Ctrl-C keeps rows)"},
    {"occupancy", occupancy_command, "theoretical occupancy of a launch on a GPU preset, limit by limit"},
    {"validate", validate_command,
     "run the real kernel on GPU 0 and compare it with the model (exit 3 without a GPU)"},
    {"ncu-check", ncu_check_command, "FILE.cu's memory figures under Nsight Compute on GPU 0"},
    {"check", check_command,
     "a divergence gate for CI: kernels, launches and limits from a TOML file (SARIF too)"},
    {"diagnostics", diagnostics_command,
     "every error's and note's id [warpdiv-ID], category, exit status and meaning"},
};

/// `warpdiv diagnostics`: the table of sim/support/diagnostics.def, one id a line.
int diagnostics_command(const Args& args, std::ostream& out) {
  if (asks_for_help(args)) {
    out << "usage: warpdiv diagnostics\n\n"
           "Lists every error's and note's id (the [warpdiv-ID] each message ends with), its category,\n"
           "the exit status an error gives and what it means. It takes no options.\n\n"
        << kExitStatusHelp;
    return 0;
  }
  if (!args.empty())
    throw InvalidInput(Diag::flag_usage,
                       "warpdiv diagnostics takes no arguments (got " + sim::quote_value(args.front()) + ")");
  out << "Errors print as FILE:LINE:COL: error: MESSAGE [warpdiv-ID], or warpdiv: error: MESSAGE "
         "[warpdiv-ID]\n"
         "without a place; the category sets the exit status.\n\n";
  out << std::left << std::setw(32) << "id" << std::setw(21) << "category"
      << "exit  meaning\n";
  for (const DiagnosticInfo& d : diagnostic_table())
    if (d.level == Level::error)
      out << std::setw(32) << diagnostic_tag(d.diag) << std::setw(21) << category_name(d.category)
          << std::setw(6) << exit_status(d.category) << d.meaning << '\n';
  out << "\nNotes print as warpdiv: note: TEXT [warpdiv-ID] on stderr; a run that notes goes on, and\n"
         "a note never changes the exit status.\n\n";
  out << std::setw(32) << "id" << std::setw(21) << "category"
      << "exit  meaning\n";
  for (const DiagnosticInfo& d : diagnostic_table())
    if (d.level == Level::note)
      out << std::setw(32) << diagnostic_tag(d.diag) << std::setw(21) << category_name(d.category)
          << std::setw(6) << "-" << d.meaning << '\n';
  return 0;
}

void usage(std::ostream& out) {
  out << "warpdiv: warp-level divergence, memory traffic and occupancy of CUDA kernels\n\n"
         "usage: warpdiv <command> [options]      (warpdiv <command> --help for its options)\n"
         "       warpdiv --version\n\n"
         "commands:\n";
  for (const Command& c : kCommands)
    out << "  " << std::left << std::setw(13) << c.name << c.summary << shorthand_summary(c.name) << '\n';
  out << '\n' << kExitStatusHelp;
}

[[noreturn]] void unknown_command(const std::string& name) {
  std::vector<std::string> names;
  for (const Command& c : kCommands) names.emplace_back(c.name);
  const std::string guess = sim::closest_name(name, names);
  throw InvalidInput(Diag::unknown_command, "unknown command " + sim::quote_value(name) +
                                                (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
                                                " (see warpdiv --help)");
}

/// `warpdiv help COMMAND` (or --help COMMAND): that command's help; one command, a known one.
int command_help(int argc, char** argv, std::ostream& out) {
  const std::string command = argv[2];
  const Command* found = nullptr;
  for (const Command& c : kCommands)
    if (command == c.name) found = &c;
  if (found == nullptr && command != "version" && command != "help") unknown_command(command);
  if (argc > 3)
    throw InvalidInput(Diag::flag_usage, std::string("warpdiv ") + argv[1] + " takes one command (got " +
                                             sim::quote_value(argv[3]) + " after " +
                                             sim::quote_value(command) + ")");
  if (found != nullptr) return found->function(Args{"--help"}, out);
  if (command == "help")
    usage(out);
  else
    out << "usage: warpdiv --version (or warpdiv version)\n\nPrints warpdiv's version. It takes no "
           "options.\n";
  return 0;
}

/// The one line of an error, and the exit status its category gives.
int report(std::ostream& err, const Diagnostic& d) {
  err << format_diagnostic(d) << '\n';
  return exit_status(d.category());
}

}  // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
  try {
    if (argc < 2) {
      usage(err);
      return 2;
    }
    const std::string name = argv[1];
    const bool help = name == "--help" || name == "-h" || name == "help";
    if (help && argc > 2) return command_help(argc, argv, out);  // warpdiv help analyze
    if ((name == "--version" || name == "version") && argc > 2)
      throw InvalidInput(Diag::flag_usage, "warpdiv " + name + " takes no arguments (got " +
                                               sim::quote_value(argv[2]) +
                                               "); a command's options: warpdiv COMMAND --help");
    if (help) {
      usage(out);
      return 0;
    }
    if (name == "--version" || name == "version") {
      out << "warpdiv " << WARPDIV_VERSION << '\n';
      return 0;
    }
    const Args args(argv + 2, argv + argc);
    check_environment();
    for (const Command& c : kCommands)
      if (name == c.name) return c.function(args, out);
    unknown_command(name);
  } catch (const Interrupted& e) {  // Ctrl-C while the outputs were written: none was replaced
    err << "warpdiv " << (argc > 1 ? argv[1] : "") << ": interrupted: no file written ["
        << diagnostic_tag(e.diag()) << "]\n";
    return exit_status(e.category());
  } catch (const Diagnostic& d) {
    return report(err, d);
  } catch (const std::bad_alloc&) {
    // Memory grows with the kernel's size (statements, expressions, locals: sim/model/ir.hpp's limits)
    // and with what is kept per launch; past what the machine gives, one line and exit 2.
    return report(err, Diagnostic(Diag::memory_budget,
                                  "out of memory: this kernel and launch need more memory than the machine "
                                  "gives (try a smaller kernel, launch, or fewer outputs)"));
  } catch (const std::exception& e) {  // not a diagnostic: a bug
    return report(err, Diagnostic(Diag::internal, std::string("internal error: ") + e.what()));
  }
}

int finish_standard_output(int status, std::ostream& out, std::ostream& err) {
  errno = 0;
  out.flush();
  // A command that failed has said so in its one line already.
  if (out || status != 0) return status;
  const int error = errno;  // 0 when the failed write was an earlier one
  return report(err, WriteFailed("writing to standard output failed" +
                                 (error != 0 ? std::string(": ") + std::strerror(error) : std::string())));
}

}  // namespace warpdiv::cli
