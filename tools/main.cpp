#include <iostream>

#include "sim/large_stack.hpp"
#include "tools/cli/commands.hpp"

int main(int argc, char** argv) {
  // On a large stack: see sim/large_stack.hpp (deeply nested kernels).
  int status = 1;
  warpdiv::sim::run_with_large_stack([&] {
    status = warpdiv::cli::run(argc, argv, std::cout, std::cerr);
    status = warpdiv::cli::finish_standard_output(status, std::cout, std::cerr);
  });
  return status;
}
