// Files that are not plain files, made inside a test's own folder (never the machine's /dev): a
// character device node, a FIFO with a reader, a listening socket; and what the output tests look
// at afterwards (temporary files left, file types and modes).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace warpdiv::testing {

/// Makes a character device node `path` (major, minor): 1,3 behaves as /dev/null, 1,7 as /dev/full.
/// False where that is not permitted (not root, or no CAP_MKNOD): the caller skips.
bool make_char_device(const std::string& path, unsigned major, unsigned minor);

/// The names in `folder` that are temporary output files (".wd.XXXXXX").
std::vector<std::string> temporary_files(const std::string& folder);

/// lstat's st_mode of `path` (0 when it does not exist).
mode_t file_mode(const std::string& path);
bool is_symlink(const std::string& path);
bool is_char_device(const std::string& path);
bool is_fifo(const std::string& path);
bool is_socket(const std::string& path);

/// A FIFO made at `path` with a thread that opens it for reading and reads until end of file.
class FifoReader {
 public:
  explicit FifoReader(std::string path);
  ~FifoReader();
  FifoReader(const FifoReader&) = delete;
  FifoReader& operator=(const FifoReader&) = delete;
  /// Waits for the writer to close and returns what was read. If no writer ever opened the FIFO,
  /// releases the reader and returns "".
  std::string text();

 private:
  std::string path_;
  std::string text_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

/// A Unix stream socket listening at `path`, with a thread that takes one connection and reads
/// until end of file.
class SocketReader {
 public:
  explicit SocketReader(std::string path);
  ~SocketReader();
  SocketReader(const SocketReader&) = delete;
  SocketReader& operator=(const SocketReader&) = delete;
  /// Waits for the writer to close and returns what was read ("" if nobody connected).
  std::string text();

 private:
  std::string path_;
  int listener_ = -1;
  std::string text_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace warpdiv::testing
