#include <csignal>
#include <iostream>

#include "sim/support/large_stack.hpp"
#include "kernels/compiled_resources.hpp"
#include "tools/cli/commands.hpp"
#ifdef WARPDIV_HAVE_NATIVE_LOADER
#include "jit/loader.hpp"
#endif

int main(int argc, char** argv) {
#ifdef WARPDIV_HAVE_NATIVE_LOADER
  warpdiv::jit::install_native_loader();  // replays worth compiling run as native code
#endif
  // On a large stack: see sim/support/large_stack.hpp (deeply nested kernels).
  int status = 1;
  warpdiv::sim::run_with_large_stack([&] {
    status = warpdiv::cli::run(argc, argv, std::cout, std::cerr);
    status = warpdiv::cli::finish_standard_output(status, std::cout, std::cerr);
  });
  // A compile stopped by SIGTERM or SIGHUP (its temporaries removed): end by that signal.
  if (const int signal = warpdiv::kernels::compile_stop_signal(); signal != 0 && signal != SIGINT) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  return status;
}
