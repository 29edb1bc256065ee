#include "analysis/output_files.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <cctype>
#include <ctime>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sim/support/errors.hpp"
#include "sim/support/signals.hpp"

namespace warpdiv::analysis {

/// A buffered std::streambuf over a file descriptor it does not own. It retries interrupted writes,
/// keeps the errno of the first failure and refuses every write after it. On a descriptor opened
/// without blocking (a FIFO or a socket) it waits for room, but at most output_limits::kStallMs
/// at a time: a reader that stops reading fails the write (stalled()) instead of hanging it.
class FdWriter : public std::streambuf {
 public:
  explicit FdWriter(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }
  /// Once `*stop` is set (Ctrl-C), every write fails: nothing more is written.
  void stop_on(const std::atomic<bool>* stop) { stop_ = stop; }
  /// 0, or the errno of the write that failed.
  int error() const { return error_; }
  /// True when the write failed because the reader took nothing for output_limits::kStallMs.
  bool stalled() const { return stalled_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_ == 0 && stop_ != nullptr && stop_->load()) error_ = EINTR;
    if (error_ != 0) return false;
    for (const char* next = pbase(); next < pptr();) {
      const ssize_t written = ::write(fd_, next, static_cast<std::size_t>(pptr() - next));
      if (written < 0 && errno == EINTR) continue;
      if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        pollfd room{fd_, POLLOUT, 0};
        const int ready = ::poll(&room, 1, output_limits::kStallMs);
        if (ready > 0 || (ready < 0 && errno == EINTR)) continue;  // room, or a closed reader: write says
        stalled_ = ready == 0;
        error_ = ready == 0 ? ETIMEDOUT : errno;
        return false;
      }
      if (written <= 0) {
        error_ = written < 0 ? errno : EIO;
        return false;
      }
      next += written;
    }
    setp(buffer_, buffer_ + sizeof buffer_);
    return true;
  }

  int fd_;
  int error_ = 0;
  bool stalled_ = false;
  const std::atomic<bool>* stop_ = nullptr;
  char buffer_[1 << 16];
};

Output::~Output() = default;

namespace {

// The temporary files of every OutputFiles in the process, for the signal handler: fixed storage,
// lock-free flags, nothing allocated, so that reading it from a handler is safe.
constexpr int kMaxTemporaryFiles = 16;
struct TemporaryFile {
  std::atomic<bool> used{false};
  char path[PATH_MAX] = {};
};
TemporaryFile temporary_files[kMaxTemporaryFiles];
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler reads these flags");

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};
constexpr int kMaxSymbolicLinks = 40;  // as Linux's own limit (ELOOP)

extern "C" void remove_temporary_files_and_die(int signal_number) {
  for (TemporaryFile& file : temporary_files)
    if (file.used.load(std::memory_order_acquire)) ::unlink(file.path);
  // Die by the same signal, so that the parent sees what happened (a shell reports 128 + N).
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(signal_number, &default_action, nullptr);
  sigset_t this_signal;
  sigemptyset(&this_signal);
  sigaddset(&this_signal, signal_number);
  ::pthread_sigmask(SIG_UNBLOCK, &this_signal, nullptr);
  ::raise(signal_number);
  ::_exit(128 + signal_number);  // not reached: every signal above terminates by default
}

sigset_t cleanup_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kCleanupSignals) sigaddset(&set, s);
  return set;
}

/// Holds the cleanup signals back while a temporary file is created and listed, so that no signal
/// finds it created but not yet listed.
class BlockedSignals {
 public:
  BlockedSignals() {
    const sigset_t set = cleanup_signal_set();
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~BlockedSignals() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

 private:
  sigset_t previous_;
};

int list_temporary_file(const std::string& path) {
  for (int i = 0; i < kMaxTemporaryFiles; ++i) {
    TemporaryFile& file = temporary_files[i];
    if (file.used.load(std::memory_order_acquire)) continue;
    std::memcpy(file.path, path.c_str(), path.size() + 1);
    file.used.store(true, std::memory_order_release);
    return i;
  }
  return -1;
}

void unlist_temporary_file(int slot) { temporary_files[slot].used.store(false, std::memory_order_release); }

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

bool is_same_file(const struct stat& info, int fd) {
  struct stat other {};
  return ::fstat(fd, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino;
}

/// `path` with every symbolic link followed (chains and relative links too) down to a name that is
/// not a link or does not exist yet, in its folder's canonical absolute form. Throws InvalidInput.
std::string resolve_links(const std::string& subject, const std::string& path) {
  std::string current = path;
  for (int hops = 0;; ++hops) {
    struct stat info {};
    if (::lstat(current.c_str(), &info) != 0) {
      if (errno == ENOENT) break;  // a new file (or a dangling link's target): created there
      throw InvalidInput(Diag::output_unwritable, subject + " cannot be written: " + std::strerror(errno));
    }
    if (!S_ISLNK(info.st_mode)) break;
    if (hops == kMaxSymbolicLinks)
      throw InvalidInput(Diag::output_unwritable, subject + " cannot be written: " + std::strerror(ELOOP));
    std::string link(PATH_MAX, '\0');
    const ssize_t length = ::readlink(current.c_str(), link.data(), link.size());
    if (length < 0)
      throw InvalidInput(Diag::output_unwritable, subject + " cannot be written: " + std::strerror(errno));
    link.resize(static_cast<std::size_t>(length));
    current = link.front() == '/' ? link : folder_of(current) + "/" + link;
  }
  const std::string name = base_of(current);
  if (name.empty() || name == "." || name == "..")
    throw InvalidInput(Diag::output_unwritable, subject + " names a folder; give a file path");
  const std::string folder = folder_of(current);
  char* canonical = ::realpath(folder.c_str(), nullptr);
  if (canonical == nullptr) {
    if (errno == ENOENT)
      throw InvalidInput(Diag::output_unwritable,
                         subject + " cannot be written: its folder '" + folder + "' does not exist");
    throw InvalidInput(Diag::output_unwritable, subject + " cannot be written: " + std::strerror(errno));
  }
  const std::string resolved = canonical;
  std::free(canonical);
  return (resolved == "/" ? "" : resolved) + "/" + name;
}

/// A write-protected file is refused as the shell's `>` refuses it; root, whom `>` never refuses,
/// is refused a file that has no write bit at all.
void check_writable(const std::string& subject, const std::string& path, const struct stat& info) {
  const std::string protected_file = subject + " is write-protected (mode " + octal_mode(info.st_mode) +
                                     "); make it writable (chmod u+w) or choose another file";
  if (::geteuid() == 0) {
    if ((info.st_mode & 0222) == 0) throw InvalidInput(Diag::output_unwritable, protected_file);
    return;
  }
  if (::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0) return;
  // glibc asks faccessat2 for AT_EACCESS and takes its EPERM or ENOSYS as the answer, which is
  // what an older container runtime's seccomp filter gives for a system call it does not know.
  // access() asks the older faccessat with the real ids: the effective ones in a process that is
  // not set-user-ID, as warpdiv is not.
  if (errno != EACCES && ::getuid() == ::geteuid() && ::getgid() == ::getegid() &&
      ::access(path.c_str(), W_OK) == 0)
    return;
  if (errno == EACCES) throw InvalidInput(Diag::output_unwritable, protected_file);
  throw InvalidInput(Diag::output_unwritable, subject + " cannot be written: " + std::strerror(errno));
}

/// Refuses a target that rename(2) would refuse by the sticky-bit rule: another user's file in a
/// folder with the sticky bit (as /tmp), which only its owner, the folder's owner or root may replace.
void refuse_if_sticky(const std::string& subject, const std::string& target, const struct stat& file) {
  const std::string folder = folder_of(target);
  struct stat info {};
  if (::stat(folder.c_str(), &info) != 0) return;  // making the temporary file there names the problem
  if (sticky_folder_lets_replace(info.st_mode, info.st_uid, file.st_uid, ::geteuid())) return;
  throw InvalidInput(Diag::output_unwritable,
                     subject + " is another user's file (uid " + std::to_string(file.st_uid) +
                         ") in the sticky folder '" + folder + "' (mode " + octal_mode(info.st_mode) +
                         "), where only its owner, the folder's owner or root may replace it; choose "
                         "another file");
}

int connect_socket(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

/// Opens a FIFO for writing without blocking: as the shell's `>` does, it waits for a process to
/// open it for reading, but at most output_limits::kReaderWaitMs. The descriptor stays
/// non-blocking (FdWriter bounds each wait for room). Throws InvalidInput when no reader came.
int open_fifo(const std::string& subject, const std::string& path) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  while (true) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd >= 0 || (errno != ENXIO && errno != EINTR)) return fd;
    if (errno == ENXIO) {  // no reader yet
      if (Clock::now() - start >= std::chrono::milliseconds(output_limits::kReaderWaitMs))
        throw InvalidInput(Diag::output_unwritable,
                           subject + " is a FIFO that no process reads from (waited " +
                               std::to_string(output_limits::kReaderWaitMs / 1000) + " s)");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

/// Opens what is written in place: standard error, a socket, a device or a FIFO. A FIFO and a
/// socket are left non-blocking, so that a reader that stops reading cannot hang a write.
int open_straight_through(const std::string& subject, const std::string& path, const struct stat& info) {
  if (is_same_file(info, STDERR_FILENO)) return ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (S_ISFIFO(info.st_mode)) return open_fifo(subject, path);
  if (S_ISSOCK(info.st_mode)) {
    const int fd = connect_socket(path);
    if (fd >= 0 && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) {
      const int error = errno;
      ::close(fd);
      errno = error;
      return -1;
    }
    return fd;
  }
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

/// This host's name as a file name's part: letters, digits and '-' kept, anything else '_', at
/// most 32 characters.
std::string host_tag() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "host";
  std::string tag;
  for (const char* c = name; *c != '\0' && tag.size() < 32; ++c)
    tag += std::isalnum(static_cast<unsigned char>(*c)) || *c == '-' ? *c : '_';
  return tag;
}

/// The beginning of this process's temporary files' names: ".wd.HOST.PID.", then six random
/// characters (mkostemp), so that a later run can tell the files of a process that is gone.
std::string temporary_prefix() { return ".wd." + host_tag() + "." + std::to_string(::getpid()) + "."; }

/// The process id in a temporary file's name made on this host, or 0 for any other name.
pid_t temporary_file_pid(const std::string& name, const std::string& host) {
  const std::string start = ".wd." + host + ".";
  if (name.size() < start.size() + 2 + 6 || name.compare(0, start.size(), start) != 0) return 0;
  const std::string rest = name.substr(start.size(), name.size() - start.size() - 6);  // "PID."
  if (rest.size() < 2 || rest.size() > 8 || rest.back() != '.') return 0;  // Linux's pids: 7 digits
  pid_t pid = 0;
  for (std::size_t i = 0; i + 1 < rest.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(rest[i]))) return 0;
    pid = pid * 10 + (rest[i] - '0');
  }
  return pid;
}

/// Gives the temporary file `fd` the mode of the file it replaces (`existing`) and, where permitted,
/// its owner; a new file (`existing` null) 0666 less the umask. False (errno set) when chmod fails.
bool give_mode_and_owner(int fd, const struct stat* existing) {
  mode_t mode = 0;
  if (existing != nullptr) {
    // Only root may give a file away; anyone else's rewritten file becomes theirs.
    if (::fchown(fd, existing->st_uid, existing->st_gid) != 0) {
    }
    mode = existing->st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  return ::fchmod(fd, mode) == 0;
}

/// Gives the file `target` a second name `.wd.HOST.PID.XXXXXX` in its folder (a hard link), so that
/// it can be put back after it was replaced: that name, or "" when the file system refuses the link.
std::string keep_original(const std::string& target) {
  static std::atomic<unsigned long long> counter{0};
  static constexpr char kLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const std::string folder = folder_of(target);
  const std::string stem = (folder == "/" ? "" : folder) + "/" + temporary_prefix();
  for (int attempt = 0; attempt < 100; ++attempt) {
    unsigned long long bits =
        static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
        (++counter * 0x9E3779B97F4A7C15ull);
    std::string name = stem;
    for (int i = 0; i < 6; ++i, bits /= 62) name += kLetters[bits % 62];
    if (::link(target.c_str(), name.c_str()) == 0) return name;
    if (errno != EEXIST) return "";
  }
  return "";
}

}  // namespace

bool sticky_folder_lets_replace(unsigned folder_mode, unsigned folder_owner, unsigned file_owner,
                                unsigned user) {
  return (folder_mode & S_ISVTX) == 0 || user == 0 || user == file_owner || user == folder_owner;
}

void remove_stale_temporary_files(const std::string& folder) {
  DIR* dir = ::opendir(folder.c_str());
  if (dir == nullptr) return;
  const std::string host = host_tag();
  const time_t now = ::time(nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    const pid_t pid = temporary_file_pid(entry->d_name, host);
    // A process of this host that is alive (or that another user runs: EPERM) keeps its files.
    if (pid <= 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    struct stat info {};
    if (::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode) ||
        info.st_uid != ::geteuid() || now - info.st_mtime < output_limits::kStaleTemporarySeconds)
      continue;
    ::unlinkat(::dirfd(dir), entry->d_name, 0);
  }
  ::closedir(dir);
}

OutputFiles::OutputFiles(std::ostream& standard_output) : standard_output_(standard_output) {
  struct sigaction action {};
  action.sa_handler = remove_temporary_files_and_die;
  action.sa_mask = cleanup_signal_set();  // one cleanup at a time
  for (int s : kCleanupSignals) {
    struct sigaction previous {};
    if (sim::catch_unless_ignored(s, action, previous)) previous_actions_.emplace_back(s, previous);
  }
}

OutputFiles::~OutputFiles() {
  if (!committed_) discard();
  for (auto it = previous_actions_.rbegin(); it != previous_actions_.rend(); ++it)
    ::sigaction(it->first, &it->second, nullptr);
}

void OutputFiles::refuse_if_same(const Output& o, const Input& input) {
  if (o.exists_ && o.device_ == input.device && o.inode_ == input.inode)
    throw InvalidInput(Diag::output_clash,
                       o.flag_ + " is the same file as " + input.subject +
                           ", an input of this run: an output never replaces an input; give another "
                           "path");
}

void OutputFiles::protect(const std::string& what, const std::string& path) {
  struct stat info {};
  if (path.empty() || path == "-" || ::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return;
  Input input;
  input.subject = what + " '" + path + "'";
  input.device = static_cast<unsigned long long>(info.st_dev);
  input.inode = static_cast<unsigned long long>(info.st_ino);
  for (const std::unique_ptr<Output>& o : outputs_) refuse_if_same(*o, input);
  // The text report goes to standard output: opened on this input (`1<> FILE`, `>> FILE`), it
  // would write into it.
  struct stat out {};
  if (::fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) &&
      static_cast<unsigned long long>(out.st_dev) == input.device &&
      static_cast<unsigned long long>(out.st_ino) == input.inode)
    throw InvalidInput(Diag::output_clash, "standard output is the same file as " + input.subject +
                                               ", an input of this run: an output never replaces an "
                                               "input; send it elsewhere");
  inputs_.push_back(input);
}

Output& OutputFiles::open(const std::string& flag, const std::string& path) {
  if (path.empty()) throw InvalidInput(Diag::flag_value, flag + " needs a file path (got an empty string)");
  std::unique_ptr<Output> output(new Output());
  Output& o = *output;
  o.flag_ = flag + " '" + path + "'";  // the subject of every message about it
  o.name_ = path == "-" ? "standard output" : path;
  struct stat info {};
  if (path == "-") {
    o.kind_ = Output::Kind::standard_output;
    // What standard output is, when a file (`1<> FILE`, `>> FILE`): it may be an input.
    if (::fstat(STDOUT_FILENO, &info) == 0 && S_ISREG(info.st_mode)) {
      o.exists_ = true;
      o.device_ = static_cast<unsigned long long>(info.st_dev);
      o.inode_ = static_cast<unsigned long long>(info.st_ino);
    }
  } else if (::stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode))
      throw InvalidInput(Diag::output_unwritable, o.flag_ + " is a folder; give a file path");
    o.exists_ = true;
    o.device_ = static_cast<unsigned long long>(info.st_dev);
    o.inode_ = static_cast<unsigned long long>(info.st_ino);
    if (is_same_file(info, STDOUT_FILENO))
      o.kind_ = Output::Kind::standard_output;
    else if (!S_ISREG(info.st_mode) || is_same_file(info, STDERR_FILENO))
      o.kind_ = Output::Kind::straight_through;
    else
      o.kind_ = Output::Kind::replaced;
  } else if (errno == ENOENT) {
    o.kind_ = Output::Kind::replaced;  // a new file (or the missing target of a link)
  } else {
    throw InvalidInput(Diag::output_unwritable, o.flag_ + " cannot be written: " + std::strerror(errno));
  }

  if (o.kind_ == Output::Kind::replaced) {
    if (o.exists_) check_writable(o.flag_, path, info);
    o.target_ = resolve_links(o.flag_, path);
    struct stat resolved {};
    const bool found = ::lstat(o.target_.c_str(), &resolved) == 0;
    if (found != o.exists_ || (found && (resolved.st_dev != info.st_dev || resolved.st_ino != info.st_ino)))
      throw InvalidInput(Diag::output_unwritable,
                         o.flag_ + " cannot be written: it changed while being resolved");
    if (found) refuse_if_sticky(o.flag_, o.target_, resolved);
  }

  // Two outputs naming one file: refused before opening anything (a FIFO would wait for a reader).
  for (const std::unique_ptr<Output>& before : outputs_) {
    const bool same =
        before->kind_ == Output::Kind::standard_output || o.kind_ == Output::Kind::standard_output
            ? before->kind_ == o.kind_
        : before->exists_ && o.exists_ ? before->device_ == o.device_ && before->inode_ == o.inode_
                                       : !before->exists_ && !o.exists_ && before->target_ == o.target_;
    if (same)
      throw InvalidInput(Diag::output_clash, o.flag_ + " names the same file as " + before->flag_ +
                                                 "; give each output a file of its own");
  }
  for (const Input& input : inputs_) refuse_if_same(o, input);

  switch (o.kind_) {
    case Output::Kind::standard_output:
      o.stream_ = &standard_output_;
      break;
    case Output::Kind::straight_through:
      o.fd_ = open_straight_through(o.flag_, path, info);
      if (o.fd_ < 0)
        throw InvalidInput(Diag::output_unwritable, o.flag_ + " cannot be written: " + std::strerror(errno));
      break;
    case Output::Kind::replaced: {
      const std::string folder = folder_of(o.target_);
      remove_stale_temporary_files(folder);
      std::string pattern = (folder == "/" ? "" : folder) + "/" + temporary_prefix() + "XXXXXX";
      if (pattern.size() >= PATH_MAX)
        throw InvalidInput(Diag::output_unwritable,
                           o.flag_ + " cannot be written: " + std::strerror(ENAMETOOLONG));
      {
        const BlockedSignals blocked;
        o.fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
        if (o.fd_ < 0)
          throw InvalidInput(Diag::output_unwritable,
                             o.flag_ + " cannot be written: no temporary file can be made in '" + folder +
                                 "': " + std::strerror(errno));
        o.temporary_ = pattern;
        o.slot_ = list_temporary_file(pattern);
        if (o.slot_ < 0) {
          ::unlink(pattern.c_str());
          ::close(o.fd_);
          throw InternalError("more than 16 output files open at once");
        }
      }
      outputs_.push_back(std::move(output));  // from here on, discard() removes the file
      if (!give_mode_and_owner(o.fd_, o.exists_ ? &info : nullptr))
        throw InvalidInput(Diag::output_unwritable, o.flag_ + " cannot be written: " + std::strerror(errno));
      break;
    }
  }
  if (o.fd_ >= 0) {
    o.writer_ = std::make_unique<FdWriter>(o.fd_);
    o.writer_->stop_on(stop_);
    o.own_stream_ = std::make_unique<std::ostream>(o.writer_.get());
    o.stream_ = o.own_stream_.get();
  }
  if (output) outputs_.push_back(std::move(output));
  return o;
}

bool OutputFiles::uses_standard_output() const {
  for (const std::unique_ptr<Output>& o : outputs_)
    if (o->kind_ == Output::Kind::standard_output && !o->withdrawn_) return true;
  return false;
}

std::ostream& OutputFiles::report() { return uses_standard_output() ? discarded_ : standard_output_; }

bool OutputFiles::failed() const {
  for (const std::unique_ptr<Output>& o : outputs_)
    if (!o->withdrawn_ && !*o->stream_) return true;
  return false;
}

std::string OutputFiles::finish(Output& o) {
  if (o.kind_ == Output::Kind::standard_output) {
    errno = 0;
    o.stream_->flush();
    if (*o.stream_) return "";
    const int error = errno;
    return o.flag_ + ": writing to standard output failed" +
           (error != 0 ? std::string(": ") + std::strerror(error) : std::string());
  }
  o.stream_->flush();
  if (o.writer_->stalled()) {
    ::close(o.fd_);
    o.fd_ = -1;
    return o.flag_ + ": writing failed: the process reading it took nothing for " +
           std::to_string(output_limits::kStallMs / 1000) + " s (it stopped reading)";
  }
  int error = o.writer_->error();
  if (error == 0 && !*o.stream_) error = EIO;
  if (error == 0 && o.kind_ == Output::Kind::replaced && ::fsync(o.fd_) != 0) error = errno;
  const int fd = o.fd_;
  o.fd_ = -1;
  if (::close(fd) != 0 && error == 0 && errno != EINTR) error = errno;
  return error == 0 ? "" : o.flag_ + ": writing failed: " + std::strerror(error);
}

void OutputFiles::stop_on(const std::atomic<bool>* stop) {
  stop_ = stop;
  for (const std::unique_ptr<Output>& o : outputs_)
    if (o->writer_) o->writer_->stop_on(stop);
}

void OutputFiles::throw_if_stopped() {
  if (stop_ == nullptr || !stop_->load()) return;
  discard();
  throw Interrupted("interrupted: no file written");
}

void OutputFiles::commit() {
  // Everything written in full first; only then is any existing file replaced.
  throw_if_stopped();
  std::string failure;
  for (const std::unique_ptr<Output>& o : outputs_) {
    if (o->withdrawn_) continue;
    const std::string problem = finish(*o);
    if (failure.empty()) failure = problem;
  }
  throw_if_stopped();  // the last moment: from the first rename on, the outputs are committed
  if (!failure.empty()) {
    discard();
    throw WriteFailed(failure);
  }
  const BlockedSignals blocked;  // no cleanup signal between the first rename and the last
  const std::string problem = rename_all();
  if (!problem.empty()) {
    discard();
    throw WriteFailed(problem);
  }
  committed_ = true;
}

std::string OutputFiles::rename_all() {
  struct Renaming {
    Output* output;
    bool existed;      // the target was there before its rename
    std::string kept;  // the original's second name, "" when none was made
  };
  std::vector<Renaming> plan;
  for (const std::unique_ptr<Output>& o : outputs_) {
    if (o->kind_ != Output::Kind::replaced || o->withdrawn_) continue;
    struct stat info {};
    const bool existed = ::lstat(o->target_.c_str(), &info) == 0;
    plan.push_back({o.get(), existed, existed ? keep_original(o->target_) : std::string()});
  }
  // A target whose original could not be kept cannot be put back: renamed last.
  std::stable_partition(plan.begin(), plan.end(),
                        [](const Renaming& r) { return !r.existed || !r.kept.empty(); });
  std::string failure;
  std::size_t renamed = 0;
  for (; renamed < plan.size(); ++renamed) {
    Output& o = *plan[renamed].output;
    if (::rename(o.temporary_.c_str(), o.target_.c_str()) != 0) {
      failure = o.flag_ + ": renaming the finished file onto it failed: " + std::strerror(errno);
      break;
    }
    unlist_temporary_file(o.slot_);
    o.slot_ = -1;
  }
  for (std::size_t i = 0; i < renamed && !failure.empty(); ++i) {
    const Renaming& r = plan[i];
    const char* target = r.output->target_.c_str();
    const bool restored = r.existed ? !r.kept.empty() && ::rename(r.kept.c_str(), target) == 0
                                    : ::unlink(target) == 0 || errno == ENOENT;
    if (!restored) failure += "; " + r.output->flag_ + " could not be put back and holds the new output";
  }
  for (const Renaming& r : plan)
    if (!r.kept.empty()) ::unlink(r.kept.c_str());
  return failure;
}

void OutputFiles::drop(Output& o) noexcept {
  if (o.fd_ >= 0) {
    ::close(o.fd_);
    o.fd_ = -1;
  }
  if (o.slot_ >= 0) {
    ::unlink(o.temporary_.c_str());
    unlist_temporary_file(o.slot_);
    o.slot_ = -1;
  }
}

void OutputFiles::discard() noexcept {
  for (const std::unique_ptr<Output>& o : outputs_) drop(*o);
}

void OutputFiles::withdraw(Output& o) noexcept {
  drop(o);
  o.withdrawn_ = true;
}

}  // namespace warpdiv::analysis
