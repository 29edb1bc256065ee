#include <iostream>

#include "tools/cli/commands.hpp"

int main(int argc, char** argv) {
  const int status = warpdiv::cli::run(argc, argv, std::cout, std::cerr);
  return warpdiv::cli::finish_standard_output(status, std::cout, std::cerr);
}
