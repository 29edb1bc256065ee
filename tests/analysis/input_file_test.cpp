// The reader policy of every input file: what is refused, what is read, and the bounds.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <thread>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "analysis/input_file.hpp"
#include "sim/support/errors.hpp"

namespace warpdiv::analysis {
namespace {

namespace fs = std::filesystem;

class InputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/warpdiv-input-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  static std::string error_of(const std::string& file) {
    try {
      read_input_file(file, "--ncu-csv", InputFormat::csv);
    } catch (const InvalidInput& e) {
      return e.what();
    }
    return "(no error)";
  }

  std::string dir_;
};

TEST_F(InputFile, ReadsARegularFile) {
  std::ofstream(path("a.csv")) << "x,y\n1,2\n";
  EXPECT_EQ(read_input_file(path("a.csv"), "--ncu-csv", InputFormat::csv), "x,y\n1,2\n");
}

TEST_F(InputFile, RefusesWhatIsNoFile) {
  EXPECT_EQ(error_of(dir_), "--ncu-csv: '" + dir_ +
                                "' is a directory, not a CSV file (give a "
                                "regular file or a pipe)");
  std::ofstream(path("empty.csv")).close();
  EXPECT_EQ(error_of(path("empty.csv")),
            "--ncu-csv: '" + path("empty.csv") + "' is empty (read as a CSV file)");
  EXPECT_EQ(error_of(path("missing.csv")),
            "--ncu-csv: '" + path("missing.csv") +
                "' cannot be read: No such file or directory (read as a CSV file)");
}

TEST_F(InputFile, RefusalsNameTheFormatTheCallerReads) {
  // One refusal per format, each naming it as the reader expects it.
  const std::pair<InputFormat, std::string> formats[] = {
      {InputFormat::csv, "a CSV file"},
      {InputFormat::npy, "a NumPy .npy file"},
      {InputFormat::matrix_market, "a Matrix Market file"},
      {InputFormat::toml, "a TOML file"},
      {InputFormat::model_json, "a kernel model JSON file"},
      {InputFormat::raw_binary, "a raw binary file"},
      {InputFormat::text, "a text file"}};
  for (const auto& [format, name] : formats) {
    std::string message = "(no error)";
    try {
      read_input_file(dir_, "--data x", format);
    } catch (const InvalidInput& e) {
      message = e.what();
    }
    EXPECT_EQ(message,
              "--data x: '" + dir_ + "' is a directory, not " + name + " (give a regular file or a pipe)");
  }
}

TEST_F(InputFile, RefusesACharacterDeviceAtOnce) {
  // Our own /dev/zero (major 1, minor 5), never the machine's.
  if (::mknod(path("zero").c_str(), S_IFCHR | 0600, makedev(1, 5)) != 0)
    GTEST_SKIP() << "mknod needs CAP_MKNOD (run as root) to create a character device";
  EXPECT_NE(error_of(path("zero")).find("is a character device, not a CSV file"), std::string::npos);
}

TEST_F(InputFile, RefusesASocket) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string name = path("sock");
  ASSERT_LT(name.size(), sizeof address.sun_path);
  name.copy(address.sun_path, name.size());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(error_of(name), "--ncu-csv: '" + name +
                                "' is a socket, not a CSV file (give a "
                                "regular file or a pipe)");
  ::close(fd);
}

TEST_F(InputFile, RefusesAFileOverTheLimit) {
  // A sparse file one byte over 64 MiB: refused from its size, before any read.
  fs::resize_file((std::ofstream(path("big.csv")), path("big.csv")), input_limits::kMaxBytes + 1);
  EXPECT_EQ(error_of(path("big.csv")),
            "--ncu-csv: '" + path("big.csv") +
                "' is larger than 64 MiB, the limit for an input file (read as a CSV file)");
  EXPECT_EQ(input_limits::kMaxBytes, 67108864u);  // 64 x 1024 x 1024
}

TEST_F(InputFile, AFifoWithNoWriterIsRefused) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  EXPECT_NE(error_of(path("fifo")).find("is a FIFO that no process writes to"), std::string::npos);
}

TEST_F(InputFile, AFifoWithAWriterIsRead) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(path("fifo")) << "ID,x\n1,2\n"; });
  const std::string text = read_input_file(path("fifo"), "--ncu-csv", InputFormat::csv);
  writer.join();
  EXPECT_EQ(text, "ID,x\n1,2\n");
}

TEST_F(InputFile, AnEndlessPipeIsCutAtTheLimit) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  std::signal(SIGPIPE, SIG_IGN);  // the writer sees EPIPE when the reader gives up
  std::thread writer([&] {
    const int fd = ::open(path("fifo").c_str(), O_WRONLY);
    const std::string chunk(1 << 16, 'a');
    std::size_t sent = 0;
    while (sent <= 2 * input_limits::kMaxBytes) {
      const ssize_t n = ::write(fd, chunk.data(), chunk.size());
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  const std::string message = error_of(path("fifo"));
  writer.join();
  EXPECT_NE(message.find("is larger than 64 MiB"), std::string::npos) << message;
}

}  // namespace
}  // namespace warpdiv::analysis
