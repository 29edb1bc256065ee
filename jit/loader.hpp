// The native replay for the CLI: installs, as the replay's native compiler (sim/engine/ir_native.hpp), a
// stand-in that loads the plugin (libwarpdiv-jit.so, jit/plugin.cpp) the first time a replay is
// worth compiling, and passes every request on to it. Where the plugin is missing or of another
// build (the statically linked GPU bundle), the replay interprets, with the same counts.
// WARPDIV_NATIVE=off leaves every replay to the interpreter (sim/session.hpp decides it, and the
// plugin is then never loaded); WARPDIV_NATIVE_PLUGIN names the
// plugin's file (else: beside the binary, then where `cmake --install` puts it). A plugin file
// that is there but not a sound shared object (sim/support/plugin_file.hpp: a FIFO, a truncated file) or
// that dlopen refuses is refused, InvalidInput naming it, from the replay that would have loaded
// it; the plugin's entry point checks the launch plan's version (sim/engine/launch_plan.hpp's
// kLaunchPlanVersion) and hands nothing to another version (refused where WARPDIV_NATIVE_PLUGIN
// names it, else the replay interprets). Each plan crosses to the plugin serialised.
#pragma once

#include <string>
#include <vector>

namespace warpdiv::jit {

void install_native_loader();

/// Where the plugin is looked for, in order (WARPDIV_NATIVE_PLUGIN's file alone, made absolute,
/// when it is set): inputs of every run, which no output may replace.
std::vector<std::string> plugin_files();

}  // namespace warpdiv::jit
