#include "tools/cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

#include "analysis/output_files.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "sim/session.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

void check_environment() { (void)sim::native_mode_from_environment(); }

std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t min,
                           std::int64_t max) {
  const auto refuse = [&] {
    return InvalidInput(Diag::flag_value, flag + " must be an integer from " + std::to_string(min) + " to " +
                                              std::to_string(max) + " (got " + sim::quote_value(text) + ")");
  };
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) throw refuse();
  // The magnitude, exact: past 2^63 no int64 can be meant, so stop there rather than wrap or cap.
  constexpr std::uint64_t kBeyond = std::uint64_t{1} << 63;
  std::uint64_t magnitude = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') throw refuse();
    if (magnitude > kBeyond / 10) throw refuse();  // then magnitude * 10 > 2^63 (and may wrap)
    magnitude = magnitude * 10 + static_cast<std::uint64_t>(c - '0');  // <= 2^63 + 9: no wrap
    if (magnitude > kBeyond) throw refuse();
  }
  std::int64_t value = 0;
  if (!negative) {
    if (magnitude == kBeyond) throw refuse();
    value = static_cast<std::int64_t>(magnitude);
  } else if (magnitude == kBeyond) {
    value = std::numeric_limits<std::int64_t>::min();
  } else {
    value = -static_cast<std::int64_t>(magnitude);
  }
  if (value < min || value > max) throw refuse();
  return value;
}

int parse_warp_size(const std::string& flag, const std::string& text) {
  const std::string message =
      flag + " must be a power of two from 1 to 64 (got " + sim::quote_value(text) + ")";
  std::int64_t value = 0;
  try {
    value = parse_integer(flag, text, 1, 64);
  } catch (const InvalidInput&) {
    throw InvalidInput(Diag::flag_value, message);
  }
  if ((value & (value - 1)) != 0) throw InvalidInput(Diag::flag_value, message);
  return static_cast<int>(value);
}

namespace {

/// The long names of `options` ("width").
std::vector<std::string> long_names(const po::options_description& options) {
  std::vector<std::string> names;
  for (const auto& o : options.options()) names.push_back(o->long_name());
  return names;
}

/// Whether `value` names one of the command's flags: "--csv", "--csv=x" or "-h" ("--" names
/// none: Boost would find every flag for its empty name).
bool names_a_flag(const std::string& value, const po::options_description& options) {
  if (value.rfind("--", 0) == 0) {
    const std::string name = value.substr(2, value.find('=') - 2);
    return !name.empty() && options.find_nothrow(name, false) != nullptr;
  }
  return value.size() == 2 && value[0] == '-' && options.find_nothrow(value, false) != nullptr;
}

/// Checks the shape of `args` before Boost sees them (Boost would take "--csv" as the value of
/// "--html") and rewrites "--flag value" as "--flag=value", so that Boost reads a value such as
/// "-x" as a value; an empty value stays a separate argument (Boost refuses "--flag=").
std::vector<std::string> checked_args(const std::string& command, const std::vector<std::string>& args,
                                      const po::options_description& options) {
  const std::string see = " (see warpdiv " + command + " --help)";
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {  // the end of the flags: what follows is positional (refused by Boost)
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      return out;
    }
    if (arg.rfind("--", 0) != 0) {  // a short flag or a positional argument: Boost's to judge
      out.push_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const po::option_description* option = name.empty() ? nullptr : options.find_nothrow(name, false);
    if (option == nullptr) {
      const std::string guess = sim::closest_name(name, long_names(options));
      throw InvalidInput(Diag::flag_usage, "unrecognised option " + sim::quote_value("--" + name) +
                                               (guess.empty() ? "" : "; did you mean --" + guess + "?") +
                                               see);
    }
    // A switch (--help) or a flag whose value is optional takes no next argument; Boost judges
    // "--help=x" itself.
    if (option->semantic()->max_tokens() == 0 ||
        (option->semantic()->min_tokens() == 0 && equals == std::string::npos)) {
      out.push_back(arg);
      continue;
    }
    const std::string flag = "--" + name;
    const std::string wanted =
        flag + " needs a value (" + option->format_parameter() + ": " + option->description() + ")";
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw InvalidInput(Diag::flag_value, wanted);
    }
    // A lone "-" (stdout) and "-5" are values; a flag's name or anything starting with "--" is not.
    if (names_a_flag(value, options))
      throw InvalidInput(Diag::flag_value,
                         wanted + ", not the flag " + sim::quote_value(value.substr(0, value.find('='))));
    if (value.rfind("--", 0) == 0)
      throw InvalidInput(Diag::flag_value,
                         wanted + ", not " + sim::quote_value(value) +
                             " (a value cannot start with '--'; write ./--NAME for a file of that name)");
    if (value.empty()) {
      out.push_back(flag);
      out.push_back(value);
    } else {
      out.push_back(flag + "=" + value);
    }
  }
  return out;
}

}  // namespace

po::variables_map parse_command_line(const std::string& command, const std::vector<std::string>& args,
                                     const po::options_description& options,
                                     const po::positional_options_description* positionals) {
  const std::vector<std::string> checked = checked_args(command, args, options);
  po::variables_map vm;
  try {
    const po::positional_options_description no_positionals;
    po::store(po::command_line_parser(checked)
                  .options(options)
                  .positional(positionals ? *positionals : no_positionals)
                  .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    throw InvalidInput(Diag::flag_usage,
                       "warpdiv " + command +
                           (positionals ? " takes one file" : " takes no positional arguments") +
                           " (see warpdiv " + command + " --help)");
  } catch (const po::error& e) {
    throw InvalidInput(Diag::flag_usage, std::string(e.what()) + " (see warpdiv " + command + " --help)");
  }
  return vm;
}

po::variables_map parse_with_positional(const std::string& command, const std::vector<std::string>& args,
                                        const po::options_description& options, const char* positional) {
  po::positional_options_description positionals;
  positionals.add(positional, 1);
  po::options_description hidden;
  hidden.add_options()(positional, po::value<std::string>());
  po::options_description all;
  all.add(options).add(hidden);
  return parse_command_line(command, args, all, &positionals);
}

std::vector<std::string> flags_other_than(const po::variables_map& vm,
                                          const std::vector<std::string>& allowed) {
  std::vector<std::string> flags;
  for (const auto& entry : vm)
    if (std::find(allowed.begin(), allowed.end(), entry.first) == allowed.end())
      flags.push_back("--" + entry.first);
  return flags;
}

void write_help(std::ostream& out, const po::options_description& options) {
  out << options << '\n' << kExitStatusHelp;
}

std::string help_text(const po::options_description& options) {
  std::ostringstream text;
  write_help(text, options);
  return text.str();
}

bool asks_for_help(const std::vector<std::string>& args) {
  return std::find(args.begin(), args.end(), "--help") != args.end() ||
         std::find(args.begin(), args.end(), "-h") != args.end();
}

bool asks_only_for_help(const std::vector<std::string>& args) {
  return !args.empty() && std::all_of(args.begin(), args.end(),
                                      [](const std::string& a) { return a == "--help" || a == "-h"; });
}

bool has(const po::variables_map& vm, const char* flag) { return vm.count(flag) > 0; }

std::optional<std::string> get_optional(const po::variables_map& vm, const char* flag) {
  if (!has(vm, flag)) return std::nullopt;
  return get(vm, flag);
}

std::string get(const po::variables_map& vm, const char* flag) { return vm[flag].as<std::string>(); }

}  // namespace warpdiv::cli

namespace warpdiv::cli {

void protect_inputs(analysis::OutputFiles& outputs, const boost::program_options::variables_map& vm,
                    const std::vector<std::string>& sources) {
  static const std::pair<const char*, const char*> flags[] = {{"file", "the kernel source"},
                                                              {"model", "--model"},
                                                              {"gpu-file", "--gpu-file"},
                                                              {"ncu-csv", "--ncu-csv"}};
  for (const auto& [flag, what] : flags)
    if (vm.count(flag) != 0) outputs.protect(what, get(vm, flag));
  for (std::size_t i = 0; i < sources.size(); ++i)
    outputs.protect(i == 0 ? "the kernel source" : "the header", sources[i]);
}

}  // namespace warpdiv::cli
