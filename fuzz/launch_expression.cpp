// Fuzz target: the --grid / --block expressions and --arg values. The input's first line, when
// there are several and it is short, is a list of --arg NAME=VALUE pairs separated by spaces (a
// pair that is refused leaves the default values); the rest is the expression text.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "fuzz/fuzz_common.hpp"
#include "tools/cli/launch_expression.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cli = warpdiv::cli;
  std::string text(reinterpret_cast<const char*>(data), size);
  cli::ArgValues values{{"N", 1024},
                        {"Width", 100},
                        {"neg", -7},
                        {"zero", 0},
                        {"big", std::numeric_limits<std::int64_t>::max()},
                        {"small", std::numeric_limits<std::int64_t>::min()}};
  const std::size_t newline = text.find('\n');
  // A first line of at most 200 bytes: parse_arg_values quotes a bad pair whole.
  if (newline != std::string::npos && newline <= 200) {
    std::vector<std::string> pairs;
    std::size_t begin = 0;
    const std::string line = text.substr(0, newline);
    while (begin <= line.size()) {
      const std::size_t space = std::min(line.find(' ', begin), line.size());
      if (space > begin) pairs.push_back(line.substr(begin, space - begin));
      begin = space + 1;
    }
    // parse_arg_values quotes a bad pair raw (the CLI's one_line() escapes it): bounded only.
    warpdiv::fuzz::expect_no_surprise([&] { values = cli::parse_arg_values(pairs); },
                                      warpdiv::fuzz::Message::bounded);
    text.erase(0, newline + 1);
  }
  warpdiv::fuzz::expect_no_surprise([&] { (void)cli::evaluate_expression("--grid", text, values); });
  warpdiv::fuzz::expect_no_surprise([&] {
    const cli::Extent3 grid = cli::parse_extent("--grid", text, values);
    cli::check_grid("--grid", grid);
  });
  warpdiv::fuzz::expect_no_surprise([&] {
    const cli::Extent3 block = cli::parse_extent("--block", text, values);
    cli::check_block("--block", block);
  });
  return 0;
}
