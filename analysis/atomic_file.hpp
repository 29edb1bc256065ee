// Output files that appear whole or not at all: written to a temporary file in the same folder and
// renamed into place on commit(). An uncommitted file (error, Ctrl-C) is removed, and an existing
// target is never clobbered by a failed run.
#pragma once

#include <fstream>
#include <string>

namespace warpdiv::analysis {

class AtomicFile {
 public:
  /// Opens a temporary file beside `target`. `flag` names the option in error messages (--csv).
  /// Throws InvalidInput when the folder cannot be written or the target is a folder.
  AtomicFile(std::string target, std::string flag);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& target() const { return target_; }
  /// Flushes, closes and renames into place. Throws InvalidInput if any of that fails.
  void commit();
  /// Removes the temporary file (also done by the destructor when not committed).
  void discard() noexcept;

 private:
  std::string target_;
  std::string flag_;
  std::string temp_path_;
  std::ofstream stream_;
  bool done_ = false;
};

}  // namespace warpdiv::analysis
