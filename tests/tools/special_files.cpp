#include "tests/tools/special_files.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

namespace warpdiv::testing {

namespace {

/// Everything readable from `fd` until end of file.
std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

sockaddr_un socket_address(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) throw std::runtime_error("socket path too long");
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  return address;
}

}  // namespace

bool make_char_device(const std::string& path, unsigned major, unsigned minor) {
  return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) == 0;
}

std::vector<std::string> temporary_files(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(".wd.", 0) == 0) names.push_back(name);
  }
  return names;
}

mode_t file_mode(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 ? info.st_mode : 0;
}
bool is_symlink(const std::string& path) { return S_ISLNK(file_mode(path)); }
bool is_char_device(const std::string& path) { return S_ISCHR(file_mode(path)); }
bool is_fifo(const std::string& path) { return S_ISFIFO(file_mode(path)); }
bool is_socket(const std::string& path) { return S_ISSOCK(file_mode(path)); }

FifoReader::FifoReader(std::string path) : path_(std::move(path)) {
  if (::mkfifo(path_.c_str(), 0644) != 0) throw std::runtime_error("mkfifo failed");
  thread_ = std::thread([this] {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);  // waits for a writer
    if (fd >= 0) {
      text_ = read_all(fd);
      ::close(fd);
    }
    done_ = true;
  });
}

std::string FifoReader::text() {
  if (!thread_.joinable()) return text_;
  // A reader still waiting in open() (nobody wrote) is released by opening the other end here.
  while (!done_) {
    const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  thread_.join();
  return text_;
}

FifoReader::~FifoReader() { text(); }

SocketReader::SocketReader(std::string path) : path_(std::move(path)) {
  listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_un address = socket_address(path_);
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener_, 1) != 0)
    throw std::runtime_error("cannot listen on a Unix socket");
  thread_ = std::thread([this] {
    const int fd = ::accept(listener_, nullptr, nullptr);
    if (fd >= 0) {
      text_ = read_all(fd);
      ::close(fd);
    }
    done_ = true;
  });
}

std::string SocketReader::text() {
  if (!thread_.joinable()) return text_;
  // A listener still waiting in accept() (nobody connected) is released by connecting here.
  const sockaddr_un address = socket_address(path_);
  while (!done_) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
      // Fails harmlessly once the listener has taken its one connection.
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      }
      ::close(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  thread_.join();
  return text_;
}

SocketReader::~SocketReader() {
  text();
  if (listener_ >= 0) ::close(listener_);
}

}  // namespace warpdiv::testing
