// OutputFiles, the output policy of every command: what is replaced and what is written in place,
// symbolic links, modes and owners, refusals, outputs committed together, and the cleanup on
// signals. Device nodes are made in the test's own folder, never taken from the machine's /dev.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/output_files.hpp"
#include "sim/support/errors.hpp"
#include "tests/tools/cli_runner.hpp"
#include "tests/tools/special_files.hpp"

namespace warpdiv::analysis {
namespace {

using testing::contains;
using testing::read_file;
using testing::TempDir;
using testing::temporary_files;
using testing::write_file;

/// Writes `text` to `path` as a command's only output, committed.
void write_one(const std::string& path, const std::string& text) {
  std::ostringstream out;
  OutputFiles outputs(out);
  outputs.open("--csv", path).stream() << text;
  outputs.commit();
}

/// The message of the InvalidInput that opening `second` after `first` throws ("" if none).
std::string refusal_of_second(const std::string& first, const std::string& second) {
  std::ostringstream out;
  OutputFiles outputs(out);
  outputs.open("--csv", first);
  try {
    outputs.open("--html", second);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

std::string refusal_of(const std::string& path) {
  std::ostringstream out;
  OutputFiles outputs(out);
  try {
    outputs.open("--csv", path);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

std::string link_text(const std::string& path) {
  std::string text(4096, '\0');
  const ssize_t n = ::readlink(path.c_str(), text.data(), text.size());
  text.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
  return text;
}

TEST(OutputFiles, NewFileGetsTheUmasksMode) {
  TempDir dir;
  const mode_t previous = ::umask(027);
  write_one(dir.file("new.csv"), "a,b\n");
  ::umask(previous);
  EXPECT_EQ(read_file(dir.file("new.csv")), "a,b\n");
  EXPECT_EQ(testing::file_mode(dir.file("new.csv")) & 07777, 0640u);  // 0666 less 027
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"new.csv"});
}

TEST(OutputFiles, ExistingFileKeepsItsModeAndOwner) {
  TempDir dir;
  const std::string secret = dir.file("secret.csv"), odd = dir.file("odd.csv");
  write_file(secret, "old\n");
  write_file(odd, "old\n");
  ASSERT_EQ(::chmod(secret.c_str(), 0600), 0);
  ASSERT_EQ(::chmod(odd.c_str(), 0751), 0);
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(odd.c_str(), 1234, 4321), 0);
  }
  write_one(secret, "new secret\n");
  write_one(odd, "new odd\n");
  EXPECT_EQ(read_file(secret), "new secret\n");
  EXPECT_EQ(read_file(odd), "new odd\n");
  EXPECT_EQ(testing::file_mode(secret) & 07777, 0600u);
  EXPECT_EQ(testing::file_mode(odd) & 07777, 0751u);
  if (root) {
    struct stat info {};
    ASSERT_EQ(::stat(odd.c_str(), &info), 0);
    EXPECT_EQ(info.st_uid, 1234u);
    EXPECT_EQ(info.st_gid, 4321u);
  }
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"odd.csv", "secret.csv"}));
}

TEST(OutputFiles, SymbolicLinkChainStaysAndItsTargetIsRewritten) {
  // three -> (absolute) two -> (relative) links/one -> (relative, from links/) ../real/data.csv
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("real").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(dir.file("links").c_str(), 0755), 0);
  write_file(dir.file("real/data.csv"), "old\n");
  ASSERT_EQ(::chmod(dir.file("real/data.csv").c_str(), 0604), 0);
  ASSERT_EQ(::symlink("../real/data.csv", dir.file("links/one").c_str()), 0);
  ASSERT_EQ(::symlink("links/one", dir.file("two").c_str()), 0);
  ASSERT_EQ(::symlink(dir.file("two").c_str(), dir.file("three").c_str()), 0);
  write_one(dir.file("three"), "new\n");
  EXPECT_EQ(read_file(dir.file("real/data.csv")), "new\n");
  EXPECT_EQ(testing::file_mode(dir.file("real/data.csv")) & 07777, 0604u);
  EXPECT_EQ(link_text(dir.file("three")), dir.file("two"));
  EXPECT_EQ(link_text(dir.file("two")), "links/one");
  EXPECT_EQ(link_text(dir.file("links/one")), "../real/data.csv");
  EXPECT_TRUE(temporary_files(dir.path()).empty());
  EXPECT_TRUE(temporary_files(dir.file("real")).empty());
  EXPECT_TRUE(temporary_files(dir.file("links")).empty());
}

TEST(OutputFiles, DanglingLinkGetsItsTargetMade) {
  TempDir dir;
  ASSERT_EQ(::symlink("made.csv", dir.file("link.csv").c_str()), 0);
  write_one(dir.file("link.csv"), "made\n");
  EXPECT_TRUE(testing::is_symlink(dir.file("link.csv")));
  EXPECT_EQ(read_file(dir.file("made.csv")), "made\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"link.csv", "made.csv"}));
}

TEST(OutputFiles, NothingIsReplacedWithoutCommit) {
  TempDir dir;
  write_file(dir.file("keep.csv"), "precious\n");
  {
    std::ostringstream out;
    OutputFiles outputs(out);
    outputs.open("--csv", dir.file("keep.csv")).stream() << std::string(1 << 20, 'x');
    outputs.open("--html", dir.file("new.html")).stream() << "<html>";
    EXPECT_EQ(temporary_files(dir.path()).size(), 2u);
  }  // an error or an early return
  EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
}

// An output withdrawn before the commit: an existing file keeps its bytes, a new one is never made,
// its temporary file is gone, and the other outputs are committed; `-` withdrawn (before any
// write: what goes to standard output or straight through is written at once) leaves standard
// output to the text report.
TEST(OutputFiles, AWithdrawnOutputIsNotWrittenAndTheOthersAre) {
  TempDir dir;
  write_file(dir.file("keep.csv"), "precious\n");
  std::ostringstream out;
  OutputFiles outputs(out);
  Output& kept = outputs.open("--write-baseline", dir.file("keep.csv"));
  kept.stream() << "new rows\n";
  Output& fresh = outputs.open("--csv", dir.file("new.csv"));
  fresh.stream() << "never\n";
  outputs.open("--sarif", dir.file("s.sarif")).stream() << "{}\n";
  Output& dash = outputs.open("--html", "-");  // withdrawn before anything went to it
  EXPECT_FALSE(kept.withdrawn());
  for (Output* o : {&kept, &fresh, &dash}) outputs.withdraw(*o);
  EXPECT_TRUE(kept.withdrawn());
  EXPECT_EQ(temporary_files(dir.path()).size(), 1u);  // the SARIF's
  EXPECT_FALSE(outputs.uses_standard_output());
  outputs.commit();
  outputs.report() << "the text report\n";
  EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
  EXPECT_EQ(read_file(dir.file("s.sarif")), "{}\n");
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"keep.csv", "s.sarif"}));
  EXPECT_EQ(out.str(), "the text report\n");
}

// Ctrl-C's flag given to stop_on: set before the writes, between the writes and the commit, or
// while a large output is written, commit() throws Interrupted and leaves the existing file and no
// temporary file; a flag never set changes nothing.
TEST(OutputFiles, AStopFlagInterruptsTheCommitAtEveryStage) {
  enum class Stage { before_writing, while_writing, after_writing, never };
  for (const Stage stage :
       {Stage::before_writing, Stage::while_writing, Stage::after_writing, Stage::never}) {
    SCOPED_TRACE(static_cast<int>(stage));
    TempDir dir;
    write_file(dir.file("keep.csv"), "precious\n");
    std::ostringstream out;
    std::atomic<bool> stop{stage == Stage::before_writing};
    OutputFiles outputs(out);
    outputs.stop_on(&stop);
    Output& csv = outputs.open("--csv", dir.file("keep.csv"));
    Output& html = outputs.open("--html", dir.file("new.html"));
    const std::string block(1 << 16, 'x');
    for (int i = 0; i < 64; ++i) {  // 4 MiB, the flag set half way
      if (stage == Stage::while_writing && i == 32) stop = true;
      csv.stream() << block;
    }
    html.stream() << "<html>";
    if (stage == Stage::after_writing) stop = true;
    if (stage == Stage::never) {
      outputs.commit();
      EXPECT_EQ(read_file(dir.file("keep.csv")).size(), 64u << 16);
      EXPECT_EQ(read_file(dir.file("new.html")), "<html>");
      continue;
    }
    // Once the flag is set every write fails: nothing more reaches the file.
    EXPECT_EQ(outputs.failed(), stage != Stage::after_writing);
    EXPECT_THROW(outputs.commit(), Interrupted);
    EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
  }
}

TEST(OutputFiles, CharacterDeviceIsWrittenInPlace) {
  TempDir dir;
  if (!testing::make_char_device(dir.file("null"), 1, 3)) GTEST_SKIP() << "mknod not permitted";
  std::ostringstream out;
  OutputFiles outputs(out);
  Output& csv = outputs.open("--csv", dir.file("null"));
  EXPECT_EQ(csv.kind(), Output::Kind::straight_through);
  csv.stream() << std::string(1 << 20, 'x');
  outputs.commit();
  EXPECT_TRUE(testing::is_char_device(dir.file("null")));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"null"});
}

TEST(OutputFiles, OneFailedOutputLeavesEveryExistingFileUntouched) {
  // A clone of /dev/full (1,7): every write fails with ENOSPC, as on a full disk.
  TempDir dir;
  if (!testing::make_char_device(dir.file("full"), 1, 7)) GTEST_SKIP() << "mknod not permitted";
  write_file(dir.file("keep.csv"), "precious\n");
  for (const bool full_first : {false, true}) {
    SCOPED_TRACE(full_first ? "the full device opened first" : "the full device opened last");
    std::ostringstream out;
    OutputFiles outputs(out);
    Output& a = outputs.open("--csv", dir.file(full_first ? "full" : "keep.csv"));
    Output& b = outputs.open("--html", dir.file(full_first ? "keep.csv" : "full"));
    a.stream() << "a new CSV\n";
    b.stream() << "a new page\n";
    try {
      outputs.commit();
      ADD_FAILURE() << "commit() succeeded";
    } catch (const WriteFailed& e) {
      EXPECT_TRUE(contains(e.what(), full_first ? "--csv" : "--html")) << e.what();
      EXPECT_TRUE(contains(e.what(), "No space left on device")) << e.what();
    }
    EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
    EXPECT_EQ(dir.entries(), (std::vector<std::string>{"full", "keep.csv"}));
  }
}

TEST(OutputFiles, AFailedWriteIsSeenBeforeCommit) {
  TempDir dir;
  if (!testing::make_char_device(dir.file("full"), 1, 7)) GTEST_SKIP() << "mknod not permitted";
  std::ostringstream out;
  OutputFiles outputs(out);
  Output& csv = outputs.open("--csv", dir.file("full"));
  EXPECT_FALSE(outputs.failed());
  csv.stream() << std::string(1 << 20, 'x');  // past the buffer: written, and refused
  EXPECT_TRUE(outputs.failed());
  EXPECT_THROW(outputs.commit(), WriteFailed);
}

// A rename that fails at the commit (here: the target made a folder after it was opened; a
// bind-mounted target fails the same way, EBUSY): the outputs renamed before it get their
// originals back (the same file: inode, mode and bytes), a new one is removed, and no temporary
// file or kept copy is left, whichever output fails.
TEST(OutputFiles, AFailedRenamePutsBackTheOutputsRenamedBeforeIt) {
  for (const int failing : {0, 1, 2}) {
    SCOPED_TRACE("output " + std::to_string(failing) + " fails its rename");
    TempDir dir;
    const std::vector<std::string> names = {"keep.csv", "new.html", "late.sarif"};
    write_file(dir.file("keep.csv"), "precious\n");
    ASSERT_EQ(::chmod(dir.file("keep.csv").c_str(), 0640), 0);
    write_file(dir.file("late.sarif"), "old findings\n");
    struct stat before {};
    ASSERT_EQ(::stat(dir.file("keep.csv").c_str(), &before), 0);
    std::ostringstream out;
    OutputFiles outputs(out);
    const char* flags[] = {"--csv", "--html", "--sarif"};
    for (int i = 0; i < 3; ++i) outputs.open(flags[i], dir.file(names[i])).stream() << "new output\n";
    const std::string victim = dir.file(names[failing]);
    std::filesystem::remove(victim);
    std::filesystem::create_directories(victim + "/in-the-way");
    try {
      outputs.commit();
      ADD_FAILURE() << "commit() succeeded";
    } catch (const WriteFailed& e) {
      EXPECT_TRUE(contains(e.what(), std::string(flags[failing]) + " '" + victim + "': renaming"))
          << e.what();
      EXPECT_FALSE(contains(e.what(), "put back")) << e.what();
    }
    struct stat after {};
    if (failing != 0) {
      ASSERT_EQ(::stat(dir.file("keep.csv").c_str(), &after), 0);
      EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
      EXPECT_EQ(after.st_ino, before.st_ino);
      EXPECT_EQ(after.st_mode & 07777, 0640u);
      EXPECT_EQ(after.st_nlink, 1u);
    }
    if (failing != 2) {
      EXPECT_EQ(read_file(dir.file("late.sarif")), "old findings\n");
    }
    std::vector<std::string> left = {"keep.csv", "late.sarif"};
    if (failing == 1) left = {"keep.csv", "late.sarif", "new.html"};  // the folder in the way
    EXPECT_EQ(dir.entries(), left);
  }
}

// The sticky-bit rule as rename(2) states it: in a folder with the sticky bit, a file may be
// replaced only by its owner, the folder's owner or a privileged process; without the bit, by
// anyone who may write the folder.
TEST(OutputFiles, StickyFolderRuleDecidesWhoMayReplace) {
  const unsigned root = 0, folder_owner = 1000, file_owner = 1001, other = 65534;
  EXPECT_TRUE(sticky_folder_lets_replace(0777, root, file_owner, other));
  EXPECT_TRUE(sticky_folder_lets_replace(02777, root, file_owner, other));  // set-group-ID only
  EXPECT_FALSE(sticky_folder_lets_replace(01777, root, file_owner, other));
  EXPECT_FALSE(sticky_folder_lets_replace(01777, folder_owner, file_owner, other));
  EXPECT_TRUE(sticky_folder_lets_replace(01777, folder_owner, file_owner, file_owner));
  EXPECT_TRUE(sticky_folder_lets_replace(01777, folder_owner, file_owner, folder_owner));
  EXPECT_TRUE(sticky_folder_lets_replace(01777, folder_owner, file_owner, root));
  EXPECT_TRUE(sticky_folder_lets_replace(01700, other, other, other));
}

TEST(OutputFiles, FifoIsWrittenInPlace) {
  TempDir dir;
  testing::FifoReader reader(dir.file("fifo"));
  const std::string text = std::string(300000, 'f') + "\n";  // more than a pipe holds
  {
    std::ostringstream out;
    OutputFiles outputs(out);
    Output& csv = outputs.open("--csv", dir.file("fifo"));
    EXPECT_EQ(csv.kind(), Output::Kind::straight_through);
    csv.stream() << text;
    outputs.commit();
  }
  EXPECT_EQ(reader.text(), text);
  EXPECT_TRUE(testing::is_fifo(dir.file("fifo")));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"fifo"});
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST(OutputFiles, FifoThatNoProcessReadsIsRefusedAfterTwoSeconds) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  const Clock::time_point start = Clock::now();
  EXPECT_EQ(refusal_of(dir.file("fifo")),
            "--csv '" + dir.file("fifo") + "' is a FIFO that no process reads from (waited 2 s)");
  const double waited = seconds_since(start);
  EXPECT_GE(waited, 2.0);
  EXPECT_LT(waited, 6.0);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"fifo"});
}

TEST(OutputFiles, FifoWhoseReaderNeverReadsFailsTheWriteAfterTenSeconds) {
  TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  // A reader that opens the FIFO and never reads: the pipe fills (64 KiB on Linux), then stays full.
  const int reader = ::open(dir.file("fifo").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  std::ostringstream out;
  OutputFiles outputs(out);
  Output& csv = outputs.open("--csv", dir.file("fifo"));
  const Clock::time_point start = Clock::now();
  csv.stream() << std::string(1 << 20, 'f');  // 1 MiB: far more than the pipe holds
  EXPECT_TRUE(outputs.failed());
  try {
    outputs.commit();
    ADD_FAILURE() << "commit() succeeded";
  } catch (const WriteFailed& e) {
    EXPECT_STREQ(e.what(), ("--csv '" + dir.file("fifo") +
                            "': writing failed: the process reading it took nothing for 10 s (it "
                            "stopped reading)")
                               .c_str());
  }
  const double waited = seconds_since(start);
  EXPECT_GE(waited, 10.0);
  EXPECT_LT(waited, 20.0);
  ::close(reader);
}

TEST(OutputFiles, SocketIsWrittenInPlace) {
  TempDir dir;
  testing::SocketReader reader(dir.file("socket"));
  {
    std::ostringstream out;
    OutputFiles outputs(out);
    outputs.open("--csv", dir.file("socket")).stream() << "over a socket\n";
    outputs.commit();
  }
  EXPECT_EQ(reader.text(), "over a socket\n");
  EXPECT_TRUE(testing::is_socket(dir.file("socket")));
}

TEST(OutputFiles, DashIsTheStandardOutputStreamAndSilencesTheReport) {
  std::ostringstream out;
  OutputFiles outputs(out);
  EXPECT_FALSE(outputs.uses_standard_output());
  Output& csv = outputs.open("--csv", "-");
  EXPECT_EQ(csv.kind(), Output::Kind::standard_output);
  EXPECT_EQ(csv.name(), "standard output");
  EXPECT_TRUE(outputs.uses_standard_output());
  csv.stream() << "a,b\n1,2\n";
  outputs.report() << "the text report\n";
  outputs.commit();
  EXPECT_EQ(out.str(), "a,b\n1,2\n");
}

// Standard output opened on an input (`1<> k.cu`, `>> k.cu`): the text report would go into it,
// refused whether or not an output flag says `-` (protect refuses it before anything is opened);
// standard output on another file is no clash.
TEST(OutputFiles, StandardOutputOnAnInputIsRefused) {
  TempDir dir;
  write_file(dir.file("k.cu"), "the kernel\n");
  write_file(dir.file("other"), "");
  const int saved = ::dup(STDOUT_FILENO);
  ASSERT_GE(saved, 0);
  std::string alone, dash, other;
  for (const std::string& target : {dir.file("k.cu"), dir.file("k.cu"), dir.file("other")}) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_APPEND);
    ASSERT_GE(fd, 0);
    ::fflush(stdout);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
    std::ostringstream out;
    std::string& message = target == dir.file("other") ? other : alone.empty() ? alone : dash;
    try {
      OutputFiles outputs(out);
      if (&message == &dash) outputs.open("--csv", "-");  // `-` opened first, then the input
      outputs.protect("the kernel source", dir.file("k.cu"));
      message = "accepted";
    } catch (const InvalidInput& e) {
      message = e.what();
    }
    ::dup2(saved, STDOUT_FILENO);
  }
  ::close(saved);
  EXPECT_TRUE(contains(alone, "standard output is the same file as the kernel source '" + dir.file("k.cu") +
                                  "', an input of this run"))
      << alone;
  EXPECT_TRUE(contains(dash, "--csv '-' is the same file as the kernel source")) << dash;
  EXPECT_EQ(other, "accepted");
  EXPECT_EQ(read_file(dir.file("k.cu")), "the kernel\n");
}

TEST(OutputFiles, ReportGoesToStandardOutputOtherwise) {
  TempDir dir;
  std::ostringstream out;
  OutputFiles outputs(out);
  outputs.open("--csv", dir.file("a.csv")).stream() << "a\n";
  outputs.commit();
  outputs.report() << "the text report\n";
  EXPECT_EQ(out.str(), "the text report\n");
}

TEST(OutputFiles, TwoOutputsNamingOneFileAreRefused) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("sub").c_str(), 0755), 0);
  write_file(dir.file("x.csv"), "precious\n");
  ASSERT_EQ(::symlink("x.csv", dir.file("link.csv").c_str()), 0);
  ASSERT_EQ(::link(dir.file("x.csv").c_str(), dir.file("hard.csv").c_str()), 0);
  ASSERT_EQ(::symlink("sub", dir.file("sub-link").c_str()), 0);
  const std::vector<std::string> entries = dir.entries();
  struct Pair {
    std::string first, second;
  };
  const std::vector<Pair> pairs = {
      {dir.file("a"), dir.path() + "/./a"},           // a new file, twice
      {dir.file("sub/b"), dir.file("sub/../sub/b")},  // a new file through ..
      {dir.file("sub/b"), dir.file("sub-link/b")},    // a new file through a linked folder
      {dir.file("x.csv"), dir.file("link.csv")},      // a file and a link to it
      {dir.file("x.csv"), dir.file("hard.csv")},      // two hard links of one file
      {"-", "-"},                                     // standard output twice
  };
  for (const Pair& p : pairs) {
    const std::string message = refusal_of_second(p.first, p.second);
    EXPECT_TRUE(contains(message, "names the same file as --csv")) << p.first << " " << p.second;
    EXPECT_TRUE(contains(message, "--html '" + p.second + "'")) << message;
  }
  if (testing::make_char_device(dir.file("null"), 1, 3)) {
    ASSERT_EQ(::symlink("null", dir.file("null-link").c_str()), 0);
    EXPECT_NE(refusal_of_second(dir.file("null"), dir.file("null-link")), "");
    ::unlink(dir.file("null").c_str());
    ::unlink(dir.file("null-link").c_str());
  }
  EXPECT_EQ(read_file(dir.file("x.csv")), "precious\n");
  EXPECT_EQ(dir.entries(), entries);  // nothing made, no temporary file left
  // Different files are not refused.
  EXPECT_EQ(refusal_of_second(dir.file("a"), dir.file("b")), "");
  EXPECT_EQ(refusal_of_second(dir.file("a"), dir.file("sub/a")), "");
}

TEST(OutputFiles, LongestLegalNameFits) {
  TempDir dir;
  for (const std::size_t length : {244u, 250u, 255u}) {
    const std::string name(length, 'n');
    write_one(dir.file(name), "long\n");
    EXPECT_EQ(read_file(dir.file(name)), "long\n") << length;
  }
  EXPECT_EQ(dir.entries().size(), 3u);  // no temporary file left
  EXPECT_TRUE(contains(refusal_of(dir.file(std::string(256, 'n'))), "File name too long"));
}

TEST(OutputFiles, UnwritablePathsAreRefused) {
  TempDir dir;
  EXPECT_TRUE(contains(refusal_of(dir.path()), "is a folder"));
  EXPECT_TRUE(contains(refusal_of(dir.file("missing/out.csv")), "its folder"));
  EXPECT_TRUE(contains(refusal_of(dir.file("missing/out.csv")), "does not exist"));
  EXPECT_TRUE(contains(refusal_of(dir.path() + "/new/"), "names a folder"));
  EXPECT_TRUE(contains(refusal_of(""), "needs a file path"));
  write_file(dir.file("ro.csv"), "read only\n");
  ASSERT_EQ(::chmod(dir.file("ro.csv").c_str(), 0444), 0);
  // Refused for everyone, root included (for whom the shell's `>` would rewrite it).
  EXPECT_TRUE(contains(refusal_of(dir.file("ro.csv")), "is write-protected (mode 0444)"));
  EXPECT_EQ(read_file(dir.file("ro.csv")), "read only\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"ro.csv"});
}

/// A folder for files another user must reach: the first of the temporary folder ($TMPDIR), /tmp,
/// /var/tmp and /dev/shm that every folder from / down lets others search; "" when none does (a
/// TMPDIR under root's 0700 home would make every path in it unreachable for that user).
std::string folder_other_users_reach() {
  std::error_code error;
  const std::string temporary = std::filesystem::temp_directory_path(error).string();
  for (const std::string& base :
       {temporary, std::string("/tmp"), std::string("/var/tmp"), std::string("/dev/shm")}) {
    if (base.empty()) continue;
    bool reachable = true;
    for (std::filesystem::path p = std::filesystem::weakly_canonical(base, error); reachable && !error;
         p = p.parent_path()) {
      struct stat info {};
      reachable = ::stat(p.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && (info.st_mode & S_IXOTH) != 0;
      if (p == p.parent_path()) break;
    }
    if (reachable && !error) return base;
  }
  return "";
}

/// In a forked child: becomes uid and gid 65534 (no supplementary groups), directly by system
/// calls (no su, setpriv or runuser, which a minimal system may lack; no /etc/passwd entry needed).
/// On failure writes the reason to `reason_fd` and ends with status 77.
void become_another_user(int reason_fd) {
  const char* step = ::setgroups(0, nullptr) != 0 ? "setgroups"
                     : ::setgid(65534) != 0       ? "setgid(65534)"
                     : ::setuid(65534) != 0       ? "setuid(65534)"
                                                  : nullptr;
  if (step == nullptr) return;
  const std::string reason = std::string(step) + " failed: " + std::strerror(errno);
  if (::write(reason_fd, reason.data(), reason.size()) < 0) ::_exit(78);
  ::_exit(77);
}

/// In a forked child: makes faccessat2 fail with EPERM, as the seccomp filter of a container runtime
/// older than the system call does (glibc 2.33 and later ask it first for AT_EACCESS, and take
/// EPERM as the answer). False where that cannot be done.
bool refuse_faccessat2() {
#ifdef __NR_faccessat2
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_faccessat2, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
#else
  return false;
#endif
}

/// A folder made for a test in folder_other_users_reach(), removed with everything in it.
class SharedFolder {
 public:
  explicit SharedFolder(const std::string& base) : path_(base + "/warpdiv-test-XXXXXX") {
    if (::mkdtemp(path_.data()) == nullptr) path_.clear();
  }
  ~SharedFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  SharedFolder(const SharedFolder&) = delete;
  SharedFolder& operator=(const SharedFolder&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// Runs `body` in a forked child that has become uid and gid 65534 (and, asked, refuses
/// faccessat2); its exit status is body's result. 77 (with `why`) when the child could not.
int run_as_another_user(const std::function<int()>& body, std::string& why, bool without_faccessat2 = false) {
  int reason[2];
  if (::pipe(reason) != 0) return 78;
  const pid_t pid = ::fork();
  if (pid < 0) return 78;
  if (pid == 0) {
    ::close(reason[0]);
    become_another_user(reason[1]);
    if (without_faccessat2 && !refuse_faccessat2()) {
      const std::string text = "a seccomp filter cannot be installed";
      if (::write(reason[1], text.data(), text.size()) < 0) ::_exit(78);
      ::_exit(77);
    }
    ::_exit(body());
  }
  ::close(reason[1]);
  why.assign(512, '\0');
  const ssize_t got = ::read(reason[0], why.data(), why.size());
  ::close(reason[0]);
  why.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 79;
  return WEXITSTATUS(status);
}

/// A test that acts as another user in a folder of its own where that user can reach (folder_):
/// skipped without root or such a folder.
class AnotherUserFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to act as another user";
    const std::string base = folder_other_users_reach();
    if (base.empty())
      GTEST_SKIP() << "no temporary folder that another user can reach ($TMPDIR, /tmp, /var/tmp, /dev/shm)";
    folder_ = std::make_unique<SharedFolder>(base);
    ASSERT_FALSE(folder_->path().empty()) << std::strerror(errno);
  }
  std::unique_ptr<SharedFolder> folder_;
};

class AnotherUser : public AnotherUserFolder, public ::testing::WithParamInterface<bool> {};

// The shell's `>` refuses another user's 0444 and 0644 files and takes a 0666 one; so does
// OutputFiles, also where a sandbox refuses faccessat2 (EPERM): a Debian 12 userland in an older
// container runtime.
TEST_P(AnotherUser, IsRefusedWhatTheShellWouldRefuse) {
  const SharedFolder& folder = *folder_;
  const auto file = [&](const std::string& name) { return folder.file(name); };
  ASSERT_EQ(::chmod(folder.path().c_str(), 0777), 0);
  for (const auto& [name, mode] :
       {std::pair<const char*, mode_t>{"r444", 0444}, {"r644", 0644}, {"rw666", 0666}}) {
    write_file(file(name), "root's\n");
    ASSERT_EQ(::chmod(file(name).c_str(), mode), 0);
  }
  std::string why;
  const int status = run_as_another_user(
      [&] {
        int failures = 0;
        if (!contains(refusal_of(file("r444")), "write-protected")) failures |= 1;
        if (!contains(refusal_of(file("r644")), "write-protected")) failures |= 2;
        try {
          write_one(file("rw666"), "nobody's\n");  // writable by anyone: accepted
        } catch (...) {
          failures |= 4;
        }
        return failures;
      },
      why, GetParam());
  if (status == 77) GTEST_SKIP() << "this system cannot act as another user: " << why;
  EXPECT_EQ(status, 0) << "1: r444 not refused, 2: r644 not refused, 4: rw666 refused";
  EXPECT_EQ(read_file(file("r444")), "root's\n");
  EXPECT_EQ(read_file(file("r644")), "root's\n");
  EXPECT_EQ(read_file(file("rw666")), "nobody's\n");
  EXPECT_EQ(testing::file_mode(file("rw666")) & 07777, 0666u);
  EXPECT_TRUE(temporary_files(folder.path()).empty());
}

INSTANTIATE_TEST_SUITE_P(OutputFiles, AnotherUser, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return param.param ? "WhereFaccessat2IsRefused" : "Plainly";
                         });

// In a sticky folder (mode 1777, as /tmp) rename(2) may not replace another user's file, even one
// that anyone may write: such an output is refused when opened (exit 2, naming it), before anything
// is written, so the user's own output opened with it keeps its bytes; the user's own file there is
// replaced as anywhere.
TEST_F(AnotherUserFolder, AnotherUsersFileInAStickyFolderIsRefusedUpFront) {
  const SharedFolder& folder = *folder_;
  ASSERT_EQ(::chmod(folder.path().c_str(), 01777), 0);
  write_file(folder.file("t.html"), "root's page\n");
  ASSERT_EQ(::chmod(folder.file("t.html").c_str(), 0666), 0);
  std::string why;
  const int status = run_as_another_user(
      [&] {
        write_file(folder.file("a.csv"), "nobody's old CSV\n");
        int failures = 0;
        const std::string refusal = refusal_of_second(folder.file("a.csv"), folder.file("t.html"));
        if (!contains(refusal, "--html '" + folder.file("t.html") +
                                   "' is another user's file (uid 0) in the "
                                   "sticky folder '" +
                                   folder.path() + "' (mode 1777)"))
          failures |= 1;
        if (read_file(folder.file("a.csv")) != "nobody's old CSV\n") failures |= 2;
        try {
          write_one(folder.file("a.csv"), "nobody's new CSV\n");
        } catch (...) {
          failures |= 4;
        }
        return failures;
      },
      why);
  if (status == 77) GTEST_SKIP() << "this system cannot act as another user: " << why;
  EXPECT_EQ(status, 0) << "1: t.html not refused as another user's file in a sticky folder, 2: a.csv "
                          "touched, 4: nobody's own a.csv refused";
  EXPECT_EQ(read_file(folder.file("t.html")), "root's page\n");
  EXPECT_EQ(read_file(folder.file("a.csv")), "nobody's new CSV\n");
  EXPECT_TRUE(temporary_files(folder.path()).empty());
}

TEST(OutputFiles, SignalsRemoveTheTemporaryFilesAndEndTheProcess) {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ}) {
    SCOPED_TRACE(strsignal(signal_number));
    TempDir dir;
    write_file(dir.file("keep.csv"), "precious\n");
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const rlimit no_core{0, 0};
      ::setrlimit(RLIMIT_CORE, &no_core);
      std::ostringstream out;
      OutputFiles outputs(out);
      outputs.open("--csv", dir.file("keep.csv")).stream() << std::string(1 << 20, 'x');
      outputs.open("--html", dir.file("new.html")).stream() << "<html>";
      if (temporary_files(dir.path()).size() != 2) ::_exit(20);
      ::raise(signal_number);
      ::_exit(21);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), signal_number);
    EXPECT_EQ(read_file(dir.file("keep.csv")), "precious\n");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"keep.csv"});
  }
}

TEST(OutputFiles, AnIgnoredSignalStaysIgnored) {
  TempDir dir;
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGHUP, SIG_IGN);  // as nohup does
    std::ostringstream out;
    OutputFiles outputs(out);
    outputs.open("--csv", dir.file("out.csv")).stream() << "kept\n";
    ::raise(SIGHUP);
    outputs.commit();
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read_file(dir.file("out.csv")), "kept\n");
}

TEST(OutputFiles, PreviousSignalDispositionsComeBack) {
  struct sigaction before {};
  ASSERT_EQ(::sigaction(SIGTERM, nullptr, &before), 0);
  {
    std::ostringstream out;
    OutputFiles outputs(out);
    struct sigaction during {};
    ASSERT_EQ(::sigaction(SIGTERM, nullptr, &during), 0);
    EXPECT_NE(during.sa_handler, before.sa_handler);
  }
  struct sigaction after {};
  ASSERT_EQ(::sigaction(SIGTERM, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

}  // namespace
}  // namespace warpdiv::analysis
