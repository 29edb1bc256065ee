// A source kernel's launch taken from the file's own host code: with no --grid or --block,
// `warpdiv analyze FILE.cu` (and validate) read `kernel<<<grid, block, shared>>>(args)` as the
// front-end computed it (frontend.hpp's HostLaunch), and the flags given override it one by one
// (--grid, --block, each --arg, --dynamic-smem); the front-end follows the host code with the
// --arg, --grid and --block values (host_arguments, host_size), so that what it computes from
// them follows too.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/frontend/frontend.hpp"
#include "sim/support/errors.hpp"
#include "sim/model/ir.hpp"
#include "tools/cli/launch_expression.hpp"

namespace warpdiv::cli {

/// The launch flags as given, which override the launch read from the source.
struct LaunchFlags {
  std::optional<std::string> grid, block;      // --grid, --block (expressions)
  ArgValues values;                            // --arg
  std::optional<std::int64_t> dynamic_shared;  // --dynamic-smem
  std::optional<std::int64_t> launch;          // --launch N (1 = the first)
  /// Given by a check configuration's keys (args.n, grid ...), not flags: the note names them so.
  bool from_configuration = false;
};

/// The launch once chosen and completed by the flags.
struct ChosenLaunch {
  Extent3 grid, block;
  ArgValues values;  // the --arg values, then the source's for the scalar parameters left
  std::int64_t dynamic_shared = 0;
  std::string launch_text;  // the --grid and --block text given (names --arg may use)
  /// "launch from main() at hw.cu:41:3: grid (5, 7, 1), block (16, 16, 1); rows = 100, cols = 70",
  /// for one line "warpdiv: note: ..." on stderr.
  std::string note;
};

/// The largest --dynamic-smem, and dynamic shared memory a launch in the source may ask for.
constexpr std::int64_t kMaxDynamicShared = std::int64_t{1} << 30;

/// Chooses launch flags.launch (or the only one) of `launches`, the kernel's launches in `file`,
/// and completes it with the flags. Throws InvalidInput (one line): no launch in the file; several
/// without --launch (listing them, numbered, with their places and values); --launch outside 1 ..
/// their number; a value needed but not computable from the source ("hw.cu:41:10: grid's x is not
/// computable from the source: 'cols' (hw.cu:30:7) is set from atoi(argv[2]); give --grid"); a
/// value needed that the source gives but is not to be taken (HostValue::refused: "hw.cu:41:10:
/// grid's x is not taken from the source: ...; fix it or give --grid"); a size outside CUDA's
/// limits.
ChosenLaunch choose_host_launch(const sim::ir::Kernel& kernel,
                                const std::vector<frontend::HostLaunch>& launches, const LaunchFlags& flags,
                                const std::string& file);

/// The integer --arg values by name, as the front-end follows them in the host code
/// (FrontendOptions::host_arguments).
std::map<std::string, std::string> host_arguments(const ArgValues& values);

/// --grid or --block (`text`, when given) as the front-end follows it in the host code
/// (FrontendOptions::host_grid, host_block): x, y, z computed from the --arg values, {"?"} when
/// the text uses names only the source gives (or is not valid: choose_host_launch says why).
std::vector<std::string> host_size(const std::optional<std::string>& text, const std::string& flag,
                                   const ArgValues& values);

/// One launch as the note and the list show it: "main() at hw.cu:41:3: grid (5, 7, 1), block
/// (16, 16, 1); rows = 100, cols = 70" ("?" for a value not computable; the scalar and floating
/// parameters only; ", dynamic shared memory 512 bytes" when not 0).
std::string describe_host_launch(const sim::ir::Kernel& kernel, const frontend::HostLaunch& launch);

/// "FILE:LINE:COL" as a place: the last two fields (the file may hold colons) decimal numbers from
/// 1 to 2^32 - 1; nothing otherwise.
std::optional<SourceLocation> source_place(const std::string& where);

/// A refusal of a launch read from the host code whose message starts with a place of that launch
/// (its own or one of its values': "f.cu:5:19: the argument n ..."), placed there with that prefix
/// left out of its message, so that it prints as a compiler's error does and a finding and its
/// SARIF region sit where the message points; `d` itself otherwise.
Diagnostic at_launch_place(const Diagnostic& d, const std::vector<frontend::HostLaunch>& launches);

/// `bind()` (which chooses, completes and binds a launch read from `launches`), its refusals
/// placed by at_launch_place.
template <class Bind>
auto placed_at_launch(const std::vector<frontend::HostLaunch>& launches, Bind&& bind) -> decltype(bind()) {
  try {
    return bind();
  } catch (const InvalidInput& e) {
    const Diagnostic d = at_launch_place(e, launches);
    throw InvalidInput(d.diag(), d.location(), d.message());
  }
}

}  // namespace warpdiv::cli
