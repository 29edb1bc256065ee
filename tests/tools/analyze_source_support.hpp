// What the `warpdiv analyze FILE.cu` tests share: the zoo's naive multiply and its launch, whether
// this warpdiv reads sources, and the fixture of the tests that need the Clang front-end.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/tools/cli_runner.hpp"

namespace warpdiv::testing {

inline const std::string kZoo = std::string(WARPDIV_SOURCE_DIR) + "/kernels/zoo/";
inline const std::string kNaive = kZoo + "naive_matmul.cu";
inline const std::vector<std::string> kNaiveLaunch = {"--grid", "7,7",   "--block",
                                                      "16,16",  "--arg", "Width=100"};

inline bool reads_sources() {
  static const bool reads = [] {
    TempDir dir;
    const CliResult r = run_warpdiv({"analyze", kNaive, "--save-model", dir.file("model.json")});
    return !contains(r.err, "without the Clang front-end");
  }();
  return reads;
}

inline std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// Sources: these need the Clang front-end.
class AnalyzeSourceFile : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!reads_sources()) GTEST_SKIP() << "this warpdiv is built without the Clang front-end";
  }
  std::string source(const std::string& name, const std::string& text) {
    write_file(sources_.file(name), text);
    return sources_.file(name);
  }
  TempDir sources_;
};

}  // namespace warpdiv::testing
