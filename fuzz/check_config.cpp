// Fuzz target: `warpdiv check`'s readers of untrusted text, each given the whole input: the TOML
// configuration (analysis/check_config.cpp, toml++ included) and the baseline CSV
// (analysis/check.cpp's read_baseline), then a round trip of what the baseline reader accepted.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "analysis/check.hpp"
#include "analysis/check_config.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace an = warpdiv::analysis;
  using warpdiv::fuzz::expect_no_surprise;
  using warpdiv::fuzz::Message;
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Messages quote the user's keys and values escaped and cut (sim::quote_value), but toml++'s own
  // descriptions may hold a raw byte of the input: the CLI's one_line() escapes those.
  expect_no_surprise(
      [&] {
        const an::CheckConfig config = an::parse_check_config(text, "ci/fuzz.toml");
        for (const an::CheckKernel& k : config.kernels)
          for (const an::LineLimits& l : k.lines) (void)an::overlay(k.limits, l.limits);
      },
      Message::bounded);
  expect_no_surprise([&] {
    const std::vector<an::CheckRow> rows = an::read_baseline(text, "fuzz.csv");
    std::ostringstream again;
    an::write_baseline(again, rows);
    if (an::read_baseline(again.str(), "again.csv").size() != rows.size()) std::abort();
  });
  return 0;
}
