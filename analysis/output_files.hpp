// The output policy of every warpdiv command, in one place. A command opens all its outputs up
// front (so that a bad path is refused before any work), writes them, and commits them together:
//
// - `-`, and any path that is the same file as standard output (`/dev/stdout`), is written to the
//   command's output stream; the command then prints no text report, so that standard output
//   carries that output alone.
// - A path that is not a regular file once symbolic links are followed (a character or block
//   device, a FIFO, a socket, standard error) is written straight through and never replaced.
//   Writing to a FIFO waits for a process to open it for reading, as the shell's `>` does, but at
//   most output_limits::kReaderWaitMs (then InvalidInput, exit 2); and a write to a FIFO or a
//   socket whose reader stops reading fails after output_limits::kStallMs without progress
//   (WriteFailed, exit 1): the same bounds analysis/input_file.hpp puts on inputs.
// - A regular file, or a path that does not exist yet, is written to a temporary file
//   `.wd.HOST.PID.XXXXXX` in the folder of the resolved target (symbolic links followed, chains and relative
//   links included, so that a link stays a link) and renamed onto it by commit(). An existing file keeps its
//   mode and, where permitted, its owner; a new one gets 0666 less the umask. A file the user may not write
//   is refused as the shell's `>` would refuse it; root, whom `>` never refuses, is refused a file without
//   any write bit (0444), as `rm` asks before removing one.
// - Two outputs naming the same file (same device and inode, or the same resolved path for files
//   not yet there) are refused, and so is an output that is the same file (device and inode, so
//   symbolic links, `..` and hard links included) as an input of the run given to protect().
// - commit() first writes every output in full (flush, fsync, close) and renames only when all
//   succeeded: if one fails, no existing file has been touched and no temporary file is left.
//   A target that rename(2) is known to refuse (another user's file in a sticky folder, as /tmp:
//   sticky_folder_lets_replace) is refused at open(). Before the first rename each existing
//   target is kept under a second name (a hard link `.wd.HOST.PID.XXXXXX` beside it); if a later
//   rename fails (a bind-mounted target: EBUSY), the targets renamed before it get their originals
//   back (a new one is removed), so that no existing file stays replaced. Only where the file system
//   refuses the hard link is a target renamed without a copy kept, and those are renamed last.
// - While an OutputFiles exists, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE and SIGXFSZ remove its
//   temporary files, then end the process by the same signal (a shell reports 128 + N). A signal
//   ignored when the OutputFiles was made stays ignored. A command that catches SIGINT itself
//   (a flag polled by its run) gives that flag to stop_on(): from then on a write fails once it is
//   set, and commit() throws Interrupted, removing every temporary file, at any stage before the
//   first rename. The temporary files a SIGKILL leaves are removed by a later run
//   (remove_stale_temporary_files).
#pragma once

#include <atomic>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <csignal>

namespace warpdiv::analysis {

namespace output_limits {
constexpr int kReaderWaitMs = 2000;         // a FIFO that no process has opened for reading yet
constexpr int kStallMs = 10000;             // a FIFO or socket whose reader takes nothing more
constexpr int kStaleTemporarySeconds = 10;  // a dead process's temporary file, left by SIGKILL
}  // namespace output_limits

/// Removes from `folder` the temporary files of earlier runs that are provably stale: named
/// `.wd.HOST.PID.XXXXXX` with this host's name and the id of a process that no longer exists,
/// regular files of this user, unchanged for output_limits::kStaleTemporarySeconds. (SIGKILL gives
/// no process the chance to remove its own.) Any other file, a live process's included, is kept.
void remove_stale_temporary_files(const std::string& folder);

/// The sticky-bit rule of rename(2) and unlink(2): in a folder with the sticky bit (S_ISVTX, as
/// /tmp), only the file's owner, the folder's owner or root may replace a file. True when the user
/// `user` may replace a file owned by `file_owner` in a folder of mode `folder_mode` owned by
/// `folder_owner`.
bool sticky_folder_lets_replace(unsigned folder_mode, unsigned folder_owner, unsigned file_owner,
                                unsigned user);

class FdWriter;  // a std::streambuf over a file descriptor (output_files.cpp)

/// One output of a command, owned by its OutputFiles.
class Output {
 public:
  enum class Kind {
    standard_output,   // `-` or the file standard output already is: the command's stream
    straight_through,  // a device, FIFO, socket or standard error: written in place
    replaced,          // a regular or new file: a temporary file renamed onto it at commit
  };
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  std::ostream& stream() { return *stream_; }
  /// The path as the user gave it ("standard output" for `-`), for messages.
  const std::string& name() const { return name_; }
  Kind kind() const { return kind_; }
  /// True once OutputFiles::withdraw took it out of the command's outputs.
  bool withdrawn() const { return withdrawn_; }

 private:
  friend class OutputFiles;
  Output() = default;

  Kind kind_ = Kind::replaced;
  bool withdrawn_ = false;
  std::string flag_;  // the option that named it (--csv), for messages
  std::string name_;
  std::string target_;  // replaced: the resolved path the temporary file is renamed onto
  std::string temporary_;
  int fd_ = -1;
  int slot_ = -1;  // replaced: its entry in the signal handlers' list of temporary files
  // Identity for the same-file check: device and inode where the file exists, else target_.
  bool exists_ = false;
  unsigned long long device_ = 0, inode_ = 0;
  std::unique_ptr<FdWriter> writer_;
  std::unique_ptr<std::ostream> own_stream_;
  std::ostream* stream_ = nullptr;
};

/// The outputs of one command. Not thread-safe; at most 16 temporary files at a time per process.
class OutputFiles {
 public:
  /// `standard_output` receives the outputs named `-` and stands for the process's standard output.
  explicit OutputFiles(std::ostream& standard_output);
  /// Removes the temporary files of an uncommitted set (an error or an early return).
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  /// Opens `path` for the option `flag` (--csv). Throws InvalidInput (exit 2) when the path cannot
  /// be written (a folder, a missing folder, no permission, a write-protected file, another user's
  /// file in a sticky folder, a name too long) or names the same file as an output opened before. The
  /// reference lives as long as *this.
  Output& open(const std::string& flag, const std::string& path);

  /// Registers an input of the run (the source, a header it includes, --model ...): `what` names
  /// it in messages ("the kernel source"). An output opened before or after that is the same
  /// regular file is refused with InvalidInput naming both. A path that does not exist is ignored.
  void protect(const std::string& what, const std::string& path);

  /// True when an output (not withdrawn) goes to standard output.
  bool uses_standard_output() const;
  /// Where the command's text report goes: the standard output stream, or a stream that discards
  /// everything when an output already goes there.
  std::ostream& report();
  /// True once a write to some output has failed (the sweep stops early then).
  bool failed() const;

  /// Once `*stop` is set (SIGINT's flag), writes fail and commit() removes every temporary file
  /// and throws Interrupted (exit 130) instead of renaming any.
  void stop_on(const std::atomic<bool>* stop);

  /// Writes every output in full, then renames every temporary file onto its target. Throws
  /// WriteFailed (exit 1), naming the output, when one cannot be written in full or renamed; every
  /// temporary file is then removed and no existing file has been replaced (the targets renamed
  /// before a failed rename get their originals back).
  void commit();

  /// Takes `o` out of the outputs before commit(), when the run shows that it must not be written
  /// (a baseline missing a kernel): its temporary file is removed, its target left as it was, and
  /// commit() writes the others. Call it before writing to `o`: what went to standard output or
  /// straight through (a FIFO, a device) is written already.
  void withdraw(Output& o) noexcept;

 private:
  /// Flushes `o` and, for a temporary file, syncs and closes it: "" when all went well, else the
  /// message naming the output.
  static std::string finish(Output& o);
  void discard() noexcept;
  /// Closes `o` and removes its temporary file.
  static void drop(Output& o) noexcept;
  /// When the stop flag is set: discard() and throw Interrupted.
  void throw_if_stopped();
  /// Renames every temporary file onto its target, all or none: "" when all were renamed, else
  /// the message naming the output that failed, the others' originals restored.
  std::string rename_all();

  std::ostream& standard_output_;
  std::ostream discarded_{nullptr};
  std::vector<std::unique_ptr<Output>> outputs_;
  struct Input {
    std::string subject;  // "the kernel source 'k.cu'"
    unsigned long long device = 0, inode = 0;
  };
  std::vector<Input> inputs_;
  /// Throws when `o` is the same file as `input`.
  static void refuse_if_same(const Output& o, const Input& input);
  bool committed_ = false;
  const std::atomic<bool>* stop_ = nullptr;
  // The signal dispositions this set replaced, restored by the destructor.
  std::vector<std::pair<int, struct sigaction>> previous_actions_;
};

}  // namespace warpdiv::analysis
