#include "analysis/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "sim/errors.hpp"

namespace warpdiv::analysis {

namespace {
std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}
}  // namespace

AtomicFile::AtomicFile(std::string target, std::string flag)
    : target_(std::move(target)), flag_(std::move(flag)) {
  if (target_.empty()) throw InvalidInput(flag_ + " needs a file path (got an empty string)");
  struct stat info {};
  if (::stat(target_.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    throw InvalidInput(flag_ + " '" + target_ + "' is a folder; give a file path");
  }
  const std::string base = target_.substr(target_.find_last_of('/') == std::string::npos
                                              ? 0
                                              : target_.find_last_of('/') + 1);
  std::string pattern = folder_of(target_) + "/." + base + ".tmp.XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const int fd = ::mkstemp(buffer.data());
  if (fd < 0) {
    throw InvalidInput(flag_ + " '" + target_ + "' cannot be written: " + std::strerror(errno));
  }
  ::close(fd);
  temp_path_ = buffer.data();
  stream_.open(temp_path_, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!stream_) {
    ::unlink(temp_path_.c_str());
    throw InvalidInput(flag_ + " '" + target_ + "' cannot be written");
  }
}

AtomicFile::~AtomicFile() {
  if (!done_) discard();
}

void AtomicFile::commit() {
  if (done_) return;
  stream_.flush();
  const bool ok = static_cast<bool>(stream_);
  stream_.close();
  if (!ok || stream_.fail()) {
    discard();
    throw InvalidInput(flag_ + " '" + target_ + "': writing failed (disk full?)");
  }
  // Keep the usual permissions of a new file (mkstemp creates it 0600).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(temp_path_.c_str(), 0666 & ~mask);
  if (std::rename(temp_path_.c_str(), target_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    discard();
    throw InvalidInput(flag_ + " '" + target_ + "' cannot be written: " + reason);
  }
  done_ = true;
}

void AtomicFile::discard() noexcept {
  if (done_) return;
  if (stream_.is_open()) stream_.close();
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
  done_ = true;
}

}  // namespace warpdiv::analysis
