#include "tools/cli/options.hpp"

#include <limits>

#include "sim/errors.hpp"

namespace po = boost::program_options;

namespace warpdiv::cli {

std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t min,
                           std::int64_t max) {
  const std::string range = flag + " must be an integer from " + std::to_string(min) + " to " +
                            std::to_string(max) + " (got '" + text + "')";
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) throw InvalidInput(range);
  // Accumulate with a cap so that overflow reads as "out of range", not as a wrapped value.
  constexpr std::int64_t kCap = std::numeric_limits<std::int64_t>::max() / 10 - 10;
  std::int64_t value = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') throw InvalidInput(range);
    if (value < kCap) value = value * 10 + (c - '0');
  }
  if (negative) value = -value;
  if (value < min || value > max) throw InvalidInput(range);
  return value;
}

int parse_warp_size(const std::string& flag, const std::string& text) {
  const std::string message = flag + " must be a power of two from 1 to 64 (got '" + text + "')";
  std::int64_t value = 0;
  try {
    value = parse_integer(flag, text, 1, 64);
  } catch (const InvalidInput&) {
    throw InvalidInput(message);
  }
  if ((value & (value - 1)) != 0) throw InvalidInput(message);
  return static_cast<int>(value);
}

po::variables_map parse_command_line(const std::string& command,
                                     const std::vector<std::string>& args,
                                     const po::options_description& options,
                                     const po::positional_options_description* positionals) {
  po::variables_map vm;
  try {
    const po::positional_options_description no_positionals;
    po::store(po::command_line_parser(args)
                  .options(options)
                  .positional(positionals ? *positionals : no_positionals)
                  .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    throw InvalidInput("warpdiv " + command +
                       (positionals ? " takes one file" : " takes no positional arguments") +
                       " (see warpdiv " + command + " --help)");
  } catch (const po::error& e) {
    throw InvalidInput(std::string(e.what()) + " (see warpdiv " + command + " --help)");
  }
  return vm;
}

bool has(const po::variables_map& vm, const char* flag) { return vm.count(flag) > 0; }

std::string get(const po::variables_map& vm, const char* flag) {
  return vm[flag].as<std::string>();
}

}  // namespace warpdiv::cli

namespace warpdiv::cli {

void add_launch_options(po::options_description& options) {
  options.add_options()
      ("width", po::value<std::string>()->value_name("W"),
       "square matrices: J = K = L = W (1 .. 2147483647; default 100)")
      ("rows", po::value<std::string>()->value_name("J"), "rows of M and P (with --inner, --cols)")
      ("inner", po::value<std::string>()->value_name("K"), "columns of M = rows of N")
      ("cols", po::value<std::string>()->value_name("L"), "columns of N and P")
      ("tile", po::value<std::string>()->value_name("T"), "tile width, blockDim (T, T): 1 .. 32 (default 16)")
      ("warp-size", po::value<std::string>()->value_name("S"),
       "warp size, a power of two 1 .. 64 (default 32)");
}

sim::LaunchConfig launch_from(const po::variables_map& vm) {
  namespace lim = sim::limits;
  sim::LaunchConfig config;
  const bool any_shape = has(vm, "rows") || has(vm, "inner") || has(vm, "cols");
  if (has(vm, "width")) {
    if (any_shape)
      throw InvalidInput("--width cannot be combined with --rows, --inner or --cols");
    const auto w = parse_integer("--width", get(vm, "width"), lim::kMinSize, lim::kMaxSize);
    config.rows = config.inner = config.cols = w;
  } else if (any_shape) {
    if (!(has(vm, "rows") && has(vm, "inner") && has(vm, "cols")))
      throw InvalidInput("--rows, --inner and --cols must be given together (or use --width)");
    config.rows = parse_integer("--rows", get(vm, "rows"), lim::kMinSize, lim::kMaxSize);
    config.inner = parse_integer("--inner", get(vm, "inner"), lim::kMinSize, lim::kMaxSize);
    config.cols = parse_integer("--cols", get(vm, "cols"), lim::kMinSize, lim::kMaxSize);
  }
  if (has(vm, "tile"))
    config.tile = static_cast<int>(
        parse_integer("--tile", get(vm, "tile"), lim::kMinTile, lim::kMaxTile));
  if (has(vm, "warp-size")) config.warp_size = parse_warp_size("--warp-size", get(vm, "warp-size"));
  sim::validate(config);
  return config;
}

}  // namespace warpdiv::cli
