// The one policy for every file the tool reads (--gpu-file and the presets, --ncu-csv,
// --validate-csv, --data, --model, check's CONFIG and baseline): never hang, never read without bound, say
// clearly what was wrong.
//
// - A regular file is read whole, up to kMaxBytes (a larger one is refused before any read).
// - A FIFO or pipe (`--ncu-csv <(ssh gpu cat x.csv)`, `mkfifo`) is accepted, because process
//   substitution is the natural way to feed a remote file; but the wait is bounded: a FIFO that no
//   process opens for writing within kWriterWaitMs is refused, and so is a writer that sends
//   nothing for kIdleWaitMs. What it sends is capped at kMaxBytes as well.
// - A directory, a character or block device (/dev/zero, a terminal) and a socket are refused
//   at once: none of them holds a file of any format the tool reads; the refusal names the format
//   the caller expected ("is a directory, not a NumPy .npy file").
#pragma once

#include <cstddef>
#include <string>

namespace warpdiv::analysis {

namespace input_limits {
constexpr std::size_t kMaxBytes = std::size_t{64} << 20;  // 64 MiB per input file
constexpr const char* kMaxBytesText = "64 MiB";
constexpr int kWriterWaitMs = 2000;  // a FIFO with no writer yet
constexpr int kIdleWaitMs = 10000;   // a pipe whose writer has stopped sending
}  // namespace input_limits

/// What a caller reads, for the refusals that name it.
enum class InputFormat { csv, npy, matrix_market, toml, model_json, raw_binary, text };

/// "a CSV file", "a NumPy .npy file", "a Matrix Market file", "a TOML file", "a kernel model JSON
/// file", "a raw binary file", "a text file".
const char* input_format_name(InputFormat format);

/// The whole content of `path`, read as `format`. Throws InvalidInput "WHAT: 'PATH' ..." (WHAT is
/// the flag, e.g. "--ncu-csv") when it cannot be opened, is not a regular file or a pipe ("is a
/// directory, not a CSV file"), is empty, is larger than input_limits::kMaxBytes, or its writer
/// does not deliver in time.
std::string read_input_file(const std::string& path, const std::string& what, InputFormat format);

}  // namespace warpdiv::analysis
