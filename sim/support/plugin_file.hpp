// The check of a plugin's file before dlopen maps it (the CLI's plugins: jit/loader.cpp,
// kernels/frontend/loader.cpp). dlopen trusts the file: a FIFO makes it wait for a writer forever,
// and a truncated shared object is mapped as its headers say and ends the process with SIGBUS once
// a page past the file's end is touched. So the file is checked first.
#pragma once

#include <cstdint>
#include <string>

namespace warpdiv::sim {

/// The largest plugin file accepted (the plugins are a few MiB; LLVM linked statically, ~200 MiB).
constexpr std::uint64_t kMaxPluginBytes = std::uint64_t{1} << 30;

/// "" when `path` may be given to dlopen, else why not (for a message that names the file): it must
/// be a regular file (opened without blocking, so a FIFO is never waited on), at most
/// kMaxPluginBytes, an ELF shared object of this process's class, byte order and machine, whose
/// program headers, segments, section headers and sections all lie within the file.
std::string plugin_file_problem(const std::string& path);

}  // namespace warpdiv::sim
