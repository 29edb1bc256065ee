#include "tests/tools/cli_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/stat.h>
#include <sys/wait.h>

namespace warpdiv::testing {

namespace fs = std::filesystem;

void PrintTo(const BadInput& bad, std::ostream* os) {
  for (const std::string& a : bad.args) *os << '[' << a << ']';
}

void expect_refusal(const CliResult& result, const BadInput& bad) {
  EXPECT_EQ(result.status, 2) << result.out << result.err;
  EXPECT_EQ(count_lines(result.err), 1u) << result.err;
  EXPECT_TRUE(contains(result.err, bad.must_mention)) << result.err;
}

void expect_refused_leaving_no_file(const std::string& command, const BadInput& bad) {
  TempDir dir;
  std::vector<std::string> args = {command};
  args.insert(args.end(), bad.args.begin(), bad.args.end());
  args.push_back("--csv");
  args.push_back(dir.file("out.csv"));
  const CliResult r = run_warpdiv(args);
  expect_refusal(r, bad);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(dir.entries().empty());
}

long long temp_file_size(const TempDir& dir) {
  for (const std::string& name : dir.entries()) {
    if (name.rfind(".wd.", 0) != 0) continue;
    struct stat info {};
    if (::stat(dir.file(name).c_str(), &info) == 0) return static_cast<long long>(info.st_size);
  }
  return 0;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

bool file_exists(const std::string& path) { return fs::exists(path); }

std::string warpdiv_binary() {
  // WARPDIV_BINARY in the environment overrides the build's path (the binaries are copied to
  // the GPU machine, where the build folder does not exist).
  const char* binary = std::getenv("WARPDIV_BINARY");
  return binary != nullptr && *binary != '\0' ? binary : WARPDIV_BINARY;
}

CliResult run_warpdiv(const std::vector<std::string>& args) { return run_in(".", warpdiv_binary(), args); }

CliResult run_in(const std::string& cwd, const std::string& binary, const std::vector<std::string>& args) {
  std::string command = "cd " + shell_quote(cwd) + " && " + shell_quote(binary);
  for (const std::string& a : args) command += " " + shell_quote(a);
  return run_shell(command);
}

CliResult run_shell(const std::string& command_line) {
  TempDir capture;
  const std::string command = command_line + " >" + shell_quote(capture.file("out")) + " 2>" +
                              shell_quote(capture.file("err")) + " </dev/null";
  const int raw = std::system(command.c_str());
  CliResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = read_file(capture.file("out"));
  result.err = read_file(capture.file("err"));
  return result;
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "warpdiv-test-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(path_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace warpdiv::testing
