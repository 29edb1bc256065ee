#include "analysis/input_file.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/support/errors.hpp"

namespace warpdiv::analysis {

namespace {

namespace lim = input_limits;
using Clock = std::chrono::steady_clock;

// Closes the descriptor on every path out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return nullptr;
}

}  // namespace

const char* input_format_name(InputFormat format) {
  switch (format) {
    case InputFormat::csv:
      return "a CSV file";
    case InputFormat::npy:
      return "a NumPy .npy file";
    case InputFormat::matrix_market:
      return "a Matrix Market file";
    case InputFormat::toml:
      return "a TOML file";
    case InputFormat::model_json:
      return "a kernel model JSON file";
    case InputFormat::raw_binary:
      return "a raw binary file";
    case InputFormat::text:
      return "a text file";
  }
  return "a file";
}

std::string read_input_file(const std::string& path, const std::string& what, InputFormat format) {
  const std::string name = what + ": '" + path + "'";
  // Every refusal names the format the file is read as.
  const auto refuse = [&](const std::string& why) {
    return InvalidInput(Diag::file_unreadable,
                        name + " " + why + " (read as " + input_format_name(format) + ")");
  };
  const auto not_a_file = [&](const char* kind) {
    return InvalidInput(Diag::file_unreadable, name + " is " + kind + ", not " + input_format_name(format) +
                                                   " (give a regular file or a pipe)");
  };
  // stat() first: opening a socket fails with a baffling "No such device or address".
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) throw refuse(std::string("cannot be read: ") + std::strerror(errno));
  if (const char* kind = kind_of(info.st_mode)) throw not_a_file(kind);

  // O_NONBLOCK: opening a FIFO for reading blocks until a writer opens it; this returns at once.
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) throw refuse(std::string("cannot be read: ") + std::strerror(errno));
  if (::fstat(fd.get(), &info) != 0)  // what was opened, in case the path changed meanwhile
    throw refuse(std::string("cannot be read: ") + std::strerror(errno));
  if (const char* kind = kind_of(info.st_mode)) throw not_a_file(kind);
  const bool pipe = S_ISFIFO(info.st_mode);
  const std::string too_large =
      std::string("is larger than ") + lim::kMaxBytesText + ", the limit for an input file";
  if (!pipe && static_cast<std::size_t>(info.st_size) > lim::kMaxBytes) throw refuse(too_large);

  std::string text;
  char buffer[1 << 16];
  bool writer_seen = false;
  const Clock::time_point opened = Clock::now();
  while (true) {
    const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
    if (got > 0) {
      writer_seen = true;
      text.append(buffer, static_cast<std::size_t>(got));
      if (text.size() > lim::kMaxBytes) throw refuse(too_large);
      continue;
    }
    if (got == 0) {
      // End of file; on a FIFO also "no writer has opened it yet": wait a little for one.
      if (!pipe || writer_seen) break;
      if (Clock::now() - opened > std::chrono::milliseconds(lim::kWriterWaitMs))
        throw refuse("is a FIFO that no process writes to (waited " +
                     std::to_string(lim::kWriterWaitMs / 1000) + " s)");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      throw refuse(std::string("cannot be read: ") + std::strerror(errno));
    // A writer holds the pipe open but has sent nothing yet.
    writer_seen = true;
    pollfd wait{fd.get(), POLLIN, 0};
    const int ready = ::poll(&wait, 1, lim::kIdleWaitMs);
    if (ready == 0)
      throw refuse("sent nothing for " + std::to_string(lim::kIdleWaitMs / 1000) + " s (its writer stalled)");
    if (ready < 0 && errno != EINTR) throw refuse(std::string("cannot be read: ") + std::strerror(errno));
  }
  if (text.empty()) throw refuse("is empty");
  return text;
}

}  // namespace warpdiv::analysis
