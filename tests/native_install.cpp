// Linked into every test executable where jit/ is built: the replays of every test run as native
// code where ReplayOptions::native (Auto, the default) chooses it, as the CLI's do, so that each
// hand-worked figure of the suite holds with native code too (jit/native_replay.hpp).
#include "jit/native_replay.hpp"

namespace {
const bool installed = (warpdiv::jit::install_native_replay(), true);
}  // namespace
