// Test fixtures with a folder of their own under the temporary directory (named after the test,
// removed at the end), for the front-end tests that write CUDA snippets to files.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "kernels/frontend/frontend.hpp"

namespace warpdiv::testing {

class SourceDirTest : public ::testing::Test {
 protected:
  explicit SourceDirTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// Writes `text` to `name` in the folder (creating subfolders) and returns its path.
  std::string write(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

/// A CUDA snippet as k.cu in the folder, read by the front-end.
class SnippetTest : public SourceDirTest {
 protected:
  using SourceDirTest::SourceDirTest;

  frontend::FrontendOptions options(const std::string& source, const std::string& kernel = "") {
    frontend::FrontendOptions o;
    o.file = write("k.cu", source);
    o.kernel = kernel;
    return o;
  }

  sim::ir::Kernel load(const std::string& source, const std::string& kernel = "") {
    return frontend::load_kernel(options(source, kernel));
  }

  /// The message load_kernel refuses `source` with ("" when it does not).
  std::string refusal(const std::string& source, const std::string& kernel = "") {
    try {
      load(source, kernel);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "";
  }
};

}  // namespace warpdiv::testing
