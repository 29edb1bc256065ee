#include <iostream>

#include "sim/large_stack.hpp"
#include "tools/cli/commands.hpp"
#ifdef WARPDIV_HAVE_NATIVE_LOADER
#include "jit/loader.hpp"
#endif

int main(int argc, char** argv) {
#ifdef WARPDIV_HAVE_NATIVE_LOADER
  warpdiv::jit::install_native_loader();  // replays worth compiling run as native code
#endif
  // On a large stack: see sim/large_stack.hpp (deeply nested kernels).
  int status = 1;
  warpdiv::sim::run_with_large_stack([&] {
    status = warpdiv::cli::run(argc, argv, std::cout, std::cerr);
    status = warpdiv::cli::finish_standard_output(status, std::cout, std::cerr);
  });
  return status;
}
