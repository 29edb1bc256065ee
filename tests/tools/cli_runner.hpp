// Runs the real warpdiv binary and captures its exit status, stdout and stderr.
#pragma once

#include "tests/text_helpers.hpp"

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace warpdiv::testing {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

/// Runs WARPDIV_BINARY (the environment variable of that name, if set, else the build's binary)
/// with `args` (each passed as one argument, shell-quoted).
CliResult run_warpdiv(const std::vector<std::string>& args);

/// Runs a /bin/sh command line (stdin from /dev/null), capturing its status, stdout and stderr.
CliResult run_shell(const std::string& command_line);

/// The binary run_warpdiv runs.
std::string warpdiv_binary();

/// Runs `binary` with `args` from the folder `cwd`.
CliResult run_in(const std::string& cwd, const std::string& binary, const std::vector<std::string>& args);

/// A fresh empty folder under /tmp, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Names of the entries in the folder (hidden ones included), sorted.
  std::vector<std::string> entries() const;

 private:
  std::string path_;
};

/// One refused command line: the arguments and a phrase the one-line error must hold.
struct BadInput {
  std::vector<std::string> args;
  std::string must_mention;
};
void PrintTo(const BadInput& bad, std::ostream* os);

/// The refusal contract: exit status 2 and exactly one line on stderr naming `bad.must_mention`.
/// (What must not be left on disk differs by command; each test checks that itself.)
void expect_refusal(const CliResult& result, const BadInput& bad);

/// Runs `warpdiv COMMAND bad.args --csv DIR/out.csv` in a fresh folder: the refusal contract, nothing
/// on stdout, and nothing left in the folder.
void expect_refused_leaving_no_file(const std::string& command, const BadInput& bad);

/// `s` as one POSIX shell word (single-quoted).
std::string shell_quote(const std::string& s);

/// Size of an output's temporary file (".wd.XXXXXX") in `dir`, or 0 when there is none.
long long temp_file_size(const TempDir& dir);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);
bool file_exists(const std::string& path);

}  // namespace warpdiv::testing
