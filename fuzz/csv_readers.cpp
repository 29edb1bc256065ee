// Fuzz target: the CSV tokenizer and the two readers built on it, Nsight Compute's CSV and the GPU
// presets (data/gpus.csv's format), each given the whole input; and the field parsers they use,
// given the input's first line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "analysis/csv.hpp"
#include "analysis/gpu_presets.hpp"
#include "analysis/ncu_csv.hpp"
#include "fuzz/fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace an = warpdiv::analysis;
  using warpdiv::fuzz::expect_no_surprise;
  const std::string text(reinterpret_cast<const char*>(data), size);
  expect_no_surprise([&] {
    an::CsvTokenizer csv(text, "fuzz.csv");
    while (!csv.at_end()) {
      if (!csv.rest_of_line().empty() && csv.rest_of_line()[0] == '#')
        csv.skip_line();
      else
        (void)csv.next();
    }
  });
  expect_no_surprise([&] {
    for (const an::NcuLaunch& launch : an::parse_ncu_csv(text, "ncu.csv")) {
      (void)launch.describe();
      (void)launch.metric(an::ncu_metric::kBlockSize);
    }
  });
  expect_no_surprise([&] {
    const auto gpus = an::parse_gpu_csv("gpus.csv", text);
    std::ostringstream list;
    an::write_gpu_list(list, gpus, "gpus.csv");
    (void)an::find_gpu(gpus, "h100", "--gpu", "gpus.csv");
  });
  const std::string line = text.substr(0, text.find('\n'));
  (void)an::parse_decimal_integer(line, -1000, 1000);
  (void)an::parse_ncu_number(line);
  (void)an::parse_ncu_integer(line, 1 << 30);
  expect_no_surprise([&] { (void)an::parse_ncu_dim3(line); });
  return 0;
}
