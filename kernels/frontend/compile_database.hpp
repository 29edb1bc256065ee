// Internal to the front-end: what a compilation database (compile_commands.json, as CMake writes
// it with CMAKE_EXPORT_COMPILE_COMMANDS) says about one file, as arguments for Clang.
#pragma once

#include <string>
#include <vector>

namespace warpdiv::frontend::detail {

/// The flags Clang can use from `build_dir`/compile_commands.json's entry for `file` (found by
/// its absolute path), in their order: -I, -isystem, -iquote, -idirafter, -D, -U, -include and
/// -std= (also nvcc's --include-path, --system-include, --define-macro, --undefine-macro,
/// --pre-include and --std, joined with '=' or not), paths relative to the entry's "directory"
/// made absolute; response files (nvcc's --options-file FILE, -optf FILE; @FILE) read in place.
/// Everything else (nvcc's code generation, -Xcompiler ..., -o, -c, -x, warnings,
/// optimisation) is left out. Throws InvalidInput, one line, naming the database: missing,
/// malformed, or without an entry for the file. `files_read`, when given, receives the database
/// and every response file read (inputs of the run, which no output may replace).
std::vector<std::string> database_arguments(const std::string& build_dir, const std::string& file,
                                            std::vector<std::string>* files_read = nullptr);

/// The same from one command line run in `directory` (the entry's argv, compiler first). Response
/// files are bounded: at most 8 deep, 4 MiB read in all (every reading counted), no file inside
/// itself; a response file or an -include file that is there but is not a regular file (a FIFO) is
/// refused. Each refusal is InvalidInput naming the file.
std::vector<std::string> usable_arguments(const std::vector<std::string>& command_line,
                                          const std::string& directory,
                                          std::vector<std::string>* files_read = nullptr);

}  // namespace warpdiv::frontend::detail
